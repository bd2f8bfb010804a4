import type { Db } from '../../db/db';
import { Duplicate, storeErrorOf } from '../../db/storeErrors';
import type { UserFields } from './store';

export type UserItem = { key: string; attributes: string } & UserFields;
export type TenantItem = { key: string; name: string; description: string | null; attributes: string };

/** Permit's bulk facts (users and tenants): each call is one statement, so one transaction. */
export class FactsBulkStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createUsers: 'facts/createUsers',
      replaceUsers: 'facts/replaceUsers',
      deleteUsers: 'facts/deleteUsers',
      createTenants: 'facts/createTenants',
      deleteTenants: 'facts/deleteTenants',
    });
  }

  async createUsers(env: string, items: UserItem[], nowIso: string): Promise<number> {
    const [row] = await this.db.writeRows(this.q.createUsers, { env, items: items.map(userRow), nowIso });
    return row.created;
  }

  async replaceUsers(env: string, items: UserItem[], nowIso: string): Promise<{ created: number; total: number }> {
    const [row] = await this.db.writeRows(this.q.replaceUsers, { env, items: items.map(userRow), nowIso });
    return { created: row.created, total: row.total };
  }

  /** Deletes nothing when a ref names no user; answers those refs. */
  async deleteUsers(env: string, refs: string[]): Promise<{ missing: string[]; deleted: number }> {
    const [row] = await this.db.writeRows(this.q.deleteUsers, { env, refs });
    return { missing: row.missing, deleted: row.deleted };
  }

  /** All or nothing: a key that exists fails the whole batch with a `Duplicate`. */
  async createTenants(env: string, items: TenantItem[], nowIso: string): Promise<number> {
    const [row] = await this.db.writeRows(this.q.createTenants, { env, items, nowIso }).catch((err: unknown) => {
      throw storeErrorOf(err) instanceof Duplicate ? new Duplicate('A tenant of this batch (nothing was created)') : err;
    });
    return row.created;
  }

  /** Deletes nothing when a ref names no tenant; answers those refs. */
  async deleteTenants(env: string, refs: string[]): Promise<{ missing: string[]; deleted: number }> {
    const [row] = await this.db.writeRows(this.q.deleteTenants, { env, refs });
    return { missing: row.missing, deleted: row.deleted };
  }
}

const userRow = (u: UserItem) => ({
  key: u.key,
  email: u.email ?? null,
  first_name: u.first_name ?? null,
  last_name: u.last_name ?? null,
  attributes: u.attributes,
});
