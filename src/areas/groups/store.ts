import type { Db, Tx } from '../../db/db';
import { Duplicate } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import type { UserNode } from '../facts/store';
import { listOf } from '../../util/listOf';
import type { StatementRows } from '../../db/statements.generated';

export type { GroupNode } from '../../db/records';
/** groups/groupRecords's row. */
export type GroupRow = StatementRows['groups/groupRecords'];
/** groups/resolveGroup's row. */
export type GroupRef = StatementRows['groups/resolveGroup'];
/** A member as the graph stores users (see the facts area). */
export type MemberUser = UserNode;
export type GroupRoleRow = StatementRows['groups/listRoles']['data'][number];
export type AttachedInstance = StatementRows['groups/listInstances']['data'][number];
/** groups/instanceTarget's row (its `// @row` header). */
export type InstanceTarget = StatementRows['groups/instanceTarget'];

/** Named Cypher of the groups area. Multi-statement operations take a `Tx` from `write()`. */
export class GroupsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createGroup: 'groups/createGroup',
      resolveGroups: 'groups/resolveGroups',
      createGroups: 'groups/createGroups',
      resolveGroup: 'groups/resolveGroup',
      resolveTenant: 'groups/resolveTenant',
      resolveUser: 'groups/resolveUser',
      groupRecords: 'groups/groupRecords',
      listGroups: 'groups/listGroups',
      updateGroup: 'groups/updateGroup',
      deleteGroup: 'groups/deleteGroup',
      instanceTarget: 'groups/instanceTarget',
      assignRole: 'groups/assignRole',
      removeRole: 'groups/removeRole',
      addUser: 'groups/addUser',
      removeUser: 'groups/removeUser',
      lockGroups: 'groups/lockGroups',
      groupLinks: 'groups/groupLinks',
      assignGroup: 'groups/assignGroup',
      unassignGroup: 'groups/unassignGroup',
      attachInstance: 'groups/attachInstance',
      detachInstance: 'groups/detachInstance',
      listUsers: 'groups/listUsers',
      listRoles: 'groups/listRoles',
      listChildren: 'groups/listChildren',
      listParents: 'groups/listParents',
      listInstances: 'groups/listInstances',
    });
  }

  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.read(fn);
  }

  /** One write transaction; an error thrown inside rolls everything back. */
  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  // ---- lookups (usable inside any transaction) ----

  async resolveGroup(tx: Tx, env: string, ref: string): Promise<GroupRef | undefined> {
    return tx.one(this.q.resolveGroup, { env, ref });
  }

  async resolveTenant(tx: Tx, env: string, ref: string): Promise<string | undefined> {
    return (await tx.one(this.q.resolveTenant, { env, ref }))?.key;
  }

  async resolveUser(tx: Tx, env: string, ref: string): Promise<string | undefined> {
    return (await tx.one(this.q.resolveUser, { env, ref }))?.key;
  }

  /** Group records in the order of `keys` (missing keys are skipped). */
  async records(tx: Tx, env: string, keys: string[]): Promise<GroupRow[]> {
    if (!keys.length) return [];
    const rows = await tx.rows(this.q.groupRecords, { env, keys });
    const byKey = new Map(rows.map((r) => [r.group.key, r]));
    return keys.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []));
  }

  async instanceTarget(tx: Tx, env: string, resource: string, instance: string, role: string | null): Promise<InstanceTarget> {
    return (await tx.one(this.q.instanceTarget, { env, resource, instance, role }))!;
  }

  // ---- groups ----

  async createGroup(
    tx: Tx,
    env: string,
    g: {
      key: string;
      type: string;
      tenant: string;
      id: string;
      typeId: string;
      memberId: string;
      name: string | null;
      description: string | null;
      attributes: string;
      nowIso: string;
    },
  ): Promise<boolean> {
    try {
      const row = await tx.one(this.q.createGroup, { env, ...g });
      if (row?.made === false) throw new Duplicate('Group', g.key);
      return row !== undefined;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Group', g.key);
      throw err;
    }
  }

  async resolveGroups(
    tx: Tx,
    env: string,
    items: { key: string; type: string; tenant: string }[],
  ): Promise<{ tenantExists: boolean; taken: boolean }[]> {
    return tx.rows(this.q.resolveGroups, { env, items });
  }

  async createGroups(
    tx: Tx,
    env: string,
    items: { key: string; type: string; tenant: string; name: string | null; description: string | null; attributes: string }[],
    nowIso: string,
  ): Promise<number> {
    try {
      const row = await tx.one(this.q.createGroups, { env, items, types: [...new Set(items.map((i) => i.type))], nowIso });
      return row?.created ?? 0;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Group', 'of this batch');
      throw err;
    }
  }

  async listGroups(tx: Tx, env: string, filter: { tenant: string | null; type: string | null; search: string | null }, page: Page) {
    return listOf(await tx.rows(this.q.listGroups, { env, ...filter, skip: page.skip, limit: page.perPage }));
  }

  async updateGroup(
    tx: Tx,
    env: string,
    key: string,
    p: { name?: string | null; description?: string | null; attributes: string | null; nowIso: string },
  ): Promise<boolean> {
    const row = await tx.one(this.q.updateGroup, {
      env,
      key,
      setName: p.name !== undefined,
      name: p.name ?? null,
      setDescription: p.description !== undefined,
      description: p.description ?? null,
      attributes: p.attributes,
      nowIso: p.nowIso,
    });
    return row !== undefined;
  }

  async deleteGroup(env: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteGroup, { env, key });
    return (row?.deleted ?? 0) > 0;
  }

  // ---- roles ----

  async assignRole(
    tx: Tx,
    env: string,
    p: {
      group: string;
      resource: string;
      instance: string;
      role: string;
      relation: string;
      instanceId: string;
      relationId: string;
      derivationId: string;
      nowIso: string;
      expires_at: number | null;
    },
  ): Promise<{ instanceTenant: string; subject: string } | undefined> {
    return tx.one(this.q.assignRole, { env, ...p, nowMs: Date.parse(p.nowIso) });
  }

  async removeRole(env: string, p: { group: string; resource: string; instance: string; relation: string }): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.removeRole, { env, ...p });
    return (row?.removed ?? 0) > 0;
  }

  // ---- users ----

  async addUser(tx: Tx, env: string, group: string, user: string, nowIso: string, expiresAt: number | null = null): Promise<boolean> {
    const row = await tx.one(this.q.addUser, { env, group, user, nowIso, nowMs: Date.parse(nowIso), expires_at: expiresAt });
    return (row?.added ?? 0) > 0;
  }

  async removeUser(env: string, group: string, user: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.removeUser, { env, group, user });
    return (row?.removed ?? 0) > 0;
  }

  // ---- group to group ----

  async lockGroups(tx: Tx, env: string, type: string, keys: string[]): Promise<number> {
    return (await tx.one(this.q.lockGroups, { env, type, keys: [...new Set(keys)].sort() }))?.locked ?? 0;
  }

  async groupLinks(tx: Tx, env: string, a: string, b: string): Promise<{ assigned: boolean; cycle: boolean } | undefined> {
    return tx.one(this.q.groupLinks, { env, a, b });
  }

  async assignGroup(tx: Tx, env: string, p: { a: string; b: string; relationId: string; derivationId: string; nowIso: string }) {
    return tx.one(this.q.assignGroup, { env, ...p });
  }

  async unassignGroup(env: string, a: string, b: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.unassignGroup, { env, a, b });
    return (row?.removed ?? 0) > 0;
  }

  // ---- resource groups ----

  async attachInstance(tx: Tx, env: string, p: { group: string; resource: string; instance: string; instanceId: string; nowIso: string }) {
    return tx.one(this.q.attachInstance, { env, ...p });
  }

  async detachInstance(env: string, p: { group: string; resource: string; instance: string }): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.detachInstance, { env, ...p });
    return (row?.removed ?? 0) > 0;
  }

  // ---- listings ----

  async listUsers(tx: Tx, env: string, group: string, page: Page) {
    return listOf(await tx.rows(this.q.listUsers, { env, group, skip: page.skip, limit: page.perPage }));
  }

  async listRoles(tx: Tx, env: string, group: string, page: Page) {
    return listOf(await tx.rows(this.q.listRoles, { env, group, skip: page.skip, limit: page.perPage }));
  }

  async listChildren(tx: Tx, env: string, group: string, page: Page) {
    return listOf(await tx.rows(this.q.listChildren, { env, group, skip: page.skip, limit: page.perPage }));
  }

  async listParents(tx: Tx, env: string, group: string, page: Page) {
    return listOf(await tx.rows(this.q.listParents, { env, group, skip: page.skip, limit: page.perPage }));
  }

  async listInstances(tx: Tx, env: string, group: string, page: Page) {
    return listOf(await tx.rows(this.q.listInstances, { env, group, skip: page.skip, limit: page.perPage }));
  }
}
