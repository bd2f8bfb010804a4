import type { Db, Tx } from '../../db/db';
import type { UserInviteNode } from '../../db/records';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';

export type { UserInviteNode } from '../../db/records';

/** User invites (docs/behaviour.md section 25): `UserInvite` nodes of an environment, by id. */
export class UserInvitesStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      refs: 'userInvites/inviteRefs',
      create: 'userInvites/createInvite',
      get: 'userInvites/getInvite',
      list: 'userInvites/listInvites',
      delete: 'userInvites/deleteInvite',
      redeem: 'userInvites/redeemInvite',
      createUser: 'userInvites/createInvitedUser',
    });
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  async refs(tx: Tx, env: string, ids: { tenantId: string; roleId: string; instanceId: string | null }) {
    return (await tx.one(this.q.refs, { env, ...ids }))!;
  }

  async create(
    tx: Tx,
    env: string,
    i: {
      id: string;
      key: string;
      email: string;
      firstName: string | null;
      lastName: string | null;
      roleId: string;
      tenantId: string;
      instanceId: string | null;
      nowIso: string;
    },
  ): Promise<UserInviteNode | undefined> {
    return (await tx.one(this.q.create, { env, ...i }))?.invite;
  }

  async get(env: string, id: string, tx?: Tx): Promise<UserInviteNode | undefined> {
    const [row] = tx ? await tx.rows(this.q.get, { env, id }) : await this.db.readRows(this.q.get, { env, id });
    return row?.invite;
  }

  async list(env: string, page: Page) {
    return listOf(await this.db.readRows(this.q.list, { env, skip: page.skip, limit: page.perPage }));
  }

  async delete(env: string, id: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.delete, { env, id });
    return (row?.deleted ?? 0) > 0;
  }

  /** Approves the invite if it is pending (under its lock); undefined when it is not. */
  async redeem(tx: Tx, env: string, id: string, nowIso: string): Promise<UserInviteNode | undefined> {
    return (await tx.one(this.q.redeem, { env, id, nowIso }))?.invite;
  }

  async createUser(
    tx: Tx,
    env: string,
    u: { id: string; key: string; email: string; firstName: string | null; lastName: string | null; attributes: string; nowIso: string },
  ): Promise<boolean> {
    return (await tx.one(this.q.createUser, { env, ...u }))?.created ?? false;
  }
}
