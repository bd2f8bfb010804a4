import { type Db, keyed, type Tx } from '../../db/db';
import { Duplicate } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { TenantNode, UserRow } from '../../db/records';

export type { TenantNode, UserNode, UserRow } from '../../db/records';
export type UserFields = { email?: string | null; first_name?: string | null; last_name?: string | null };

export class FactsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createTenant: 'facts/createTenant',
      getTenant: 'facts/getTenant',
      listTenants: 'facts/listTenants',
      updateTenant: 'facts/updateTenant',
      deleteTenant: 'facts/deleteTenant',
      createUser: 'facts/createUser',
      getUser: 'facts/getUser',
      listUsers: 'facts/listUsers',
      updateUser: 'facts/updateUser',
      deleteUser: 'facts/deleteUser',
      addTenantUser: 'facts/addTenantUser',
      removeTenantUser: 'facts/removeTenantUser',
      listTenantUsers: 'facts/listTenantUsers',
      createUsers: 'facts/createUsers',
      replaceUser: 'facts/replaceUser',
    });
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  async createTenant(
    env: string,
    t: { id: string; key: string; name: string; description: string | null; attributes: string | null; nowIso: string },
  ): Promise<TenantNode> {
    try {
      const [row] = await this.db.writeRows(this.q.createTenant, { env, ...t });
      return row.tenant;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Tenant', t.key);
      throw err;
    }
  }

  async getTenant(env: string, ref: string): Promise<TenantNode | undefined> {
    const [row] = await this.db.readRows(this.q.getTenant, { env, ref });
    return keyed(row?.tenant);
  }

  async listTenants(env: string, search: string | null, page: Page) {
    return listOf(await this.db.readRows(this.q.listTenants, { env, search, skip: page.skip, limit: page.perPage }));
  }

  async updateTenant(
    env: string,
    key: string,
    p: { name: string | null; description?: string | null; attributes: string | null; nowIso: string },
  ): Promise<TenantNode | undefined> {
    const [row] = await this.db.writeRows(this.q.updateTenant, {
      env,
      key,
      name: p.name,
      description: p.description ?? null,
      setDescription: p.description !== undefined,
      attributes: p.attributes,
      nowIso: p.nowIso,
    });
    return row?.tenant;
  }

  async deleteTenant(env: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteTenant, { env, key });
    return (row?.deleted ?? 0) > 0;
  }

  async createUser(env: string, u: { id: string; key: string; attributes: string | null; nowIso: string } & UserFields): Promise<UserRow> {
    try {
      const [row] = await this.db.writeRows(this.q.createUser, {
        env,
        ...u,
        email: u.email ?? null,
        first_name: u.first_name ?? null,
        last_name: u.last_name ?? null,
      });
      return row;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('User', u.key);
      throw err;
    }
  }

  /** Creates the missing users of a batch in one statement; answers how many were new. */
  async createUsers(env: string, items: ({ key: string; attributes: string } & UserFields)[], nowIso: string): Promise<number> {
    const rows = items.map((u) => ({
      key: u.key,
      email: u.email ?? null,
      first_name: u.first_name ?? null,
      last_name: u.last_name ?? null,
      attributes: u.attributes,
    }));
    const [row] = await this.db.writeRows(this.q.createUsers, { env, items: rows, nowIso });
    return row.created;
  }

  /** Creates or replaces the user's fields; true when it was created. */
  async replaceUser(
    tx: Tx,
    env: string,
    u: { id: string; key: string; attributes: string; nowIso: string } & UserFields,
  ): Promise<boolean> {
    const [row] = await tx.rows(this.q.replaceUser, {
      env,
      ...u,
      email: u.email ?? null,
      first_name: u.first_name ?? null,
      last_name: u.last_name ?? null,
    });
    return row.created;
  }

  /**
   * Undefined when there is no such user, or when a concurrent delete committed while the read
   * ran (read committed: the node then reads with no properties, not even its key).
   */
  async getUser(env: string, ref: string): Promise<UserRow | undefined> {
    const [row] = await this.db.readRows(this.q.getUser, { env, ref });
    return keyed(row?.user) ? row : undefined;
  }

  async listUsers(env: string, filter: { search: string | null; tenant: string | null; role: string | null }, page: Page) {
    return listOf(await this.db.readRows(this.q.listUsers, { env, ...filter, skip: page.skip, limit: page.perPage }));
  }

  async updateUser(env: string, key: string, fields: UserFields, attributes: string | null, nowIso: string): Promise<boolean> {
    const set = { email: 'email' in fields, first_name: 'first_name' in fields, last_name: 'last_name' in fields };
    const [row] = await this.db.writeRows(this.q.updateUser, {
      env,
      key,
      set,
      email: fields.email ?? null,
      first_name: fields.first_name ?? null,
      last_name: fields.last_name ?? null,
      attributes,
      nowIso,
    });
    return row !== undefined;
  }

  async deleteUser(env: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteUser, { env, key });
    return (row?.deleted ?? 0) > 0;
  }

  async addTenantUser(
    env: string,
    tenant: string,
    u: { id: string; key: string; attributes: string | null; nowIso: string } & UserFields,
  ): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.addTenantUser, {
      env,
      tenant,
      ...u,
      email: u.email ?? null,
      first_name: u.first_name ?? null,
      last_name: u.last_name ?? null,
    });
    return row !== undefined;
  }

  async removeTenantUser(env: string, tenant: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.removeTenantUser, { env, tenant, key });
    return (row?.removed ?? 0) > 0;
  }

  async listTenantUsers(env: string, tenant: string, filter: { search: string | null; role: string | null }, page: Page) {
    return listOf(await this.db.readRows(this.q.listTenantUsers, { env, tenant, ...filter, skip: page.skip, limit: page.perPage }));
  }
}
