import { type Db, keyed, type Tx } from '../../db/db';
import { Duplicate, NotFound } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import { roleOf, relationOf } from './labels';
import type { DerivationNode, DerivationRefs, RelationNode, ResourceNode, ResourceRoleNode, RoleNode } from '../../db/records';

export type { DerivationNode, DerivationRefs, RelationNode, ResourceNode, ResourceRoleNode, RoleNode } from '../../db/records';
export type Derivation = Omit<DerivationNode, 'id' | 'created_at' | 'no_direct_roles_on_object'>;
export type Patch = { name: string | null; description?: string | null; nowIso: string };

/** Runs `write` (inside a transaction), turning a unique-constraint violation into the given named `Duplicate`. */
export async function unique<T>(write: () => Promise<T>, onDuplicate: () => Duplicate): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof Duplicate) throw onDuplicate();
    throw err;
  }
}
const described = (p: Patch) => ({ description: p.description ?? null, setDescription: p.description !== undefined });

/** Schema records: resources, their roles and relations, derivations, tenant roles. */
export class SchemaStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createResource: 'schema/createResource',
      getResource: 'schema/getResource',
      lockResource: 'schema/lockResource',
      listResources: 'schema/listResources',
      updateResource: 'schema/updateResource',
      deleteResource: 'schema/deleteResource',
      createResourceRole: 'schema/createResourceRole',
      getResourceRole: 'schema/getResourceRole',
      listResourceRoles: 'schema/listResourceRoles',
      updateResourceRole: 'schema/updateResourceRole',
      deleteResourceRole: 'schema/deleteResourceRole',
      checkDerivation: 'schema/checkDerivation',
      createDerivation: 'schema/createDerivation',
      deleteDerivation: 'schema/deleteDerivation',
      deleteRoleDerivations: 'schema/deleteRoleDerivations',
      createRole: 'schema/createRole',
      getRole: 'schema/getRole',
      listRoles: 'schema/listRoles',
      updateRole: 'schema/updateRole',
      deleteRole: 'schema/deleteRole',
      invalidPermissions: 'schema/invalidPermissions',
      createRelation: 'schema/createRelation',
      getRelation: 'schema/getRelation',
      listRelations: 'schema/listRelations',
      updateRelation: 'schema/updateRelation',
      deleteRelation: 'schema/deleteRelation',
      changeRolePermissions: 'schema/changeRolePermissions',
      setDerivationConditions: 'schema/setDerivationConditions',
      deleteDanglingConditions: 'schema/deleteDanglingConditions',
    });
  }

  /** Adds to or takes from a role's permissions in one statement (tenant role when `resource` is null). */
  async changeRolePermissions(
    tx: Tx,
    env: string,
    resource: string | null,
    key: string,
    permissions: string[],
    change: 'add' | 'remove',
  ): Promise<void> {
    await tx.rows(this.q.changeRolePermissions, {
      env,
      resource,
      key,
      permissions: [...new Set(permissions)],
      add: change === 'add',
      nowIso: new Date().toISOString(),
    });
  }

  /** Sets `when` (`no_direct_roles_on_object`) on every rule that grants the resource role. */
  async setDerivationConditions(tx: Tx, env: string, resource: string, role: string, noDirectRolesOnObject: boolean): Promise<void> {
    await tx.rows(this.q.setDerivationConditions, { env, resource, role, no_direct_roles_on_object: noDirectRolesOnObject });
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.read(fn);
  }

  // Resources
  async createResource(
    tx: Tx,
    env: string,
    r: {
      id: string;
      key: string;
      name: string;
      description: string | null;
      actions: string[];
      actions_json: string;
      attributes_json: string;
      nowIso: string;
    },
  ) {
    await unique(
      () => tx.rows(this.q.createResource, { env, ...r }),
      () => new Duplicate('Resource', r.key),
    );
  }
  async getResource(tx: Tx, env: string, ref: string): Promise<ResourceNode | undefined> {
    return keyed((await tx.one(this.q.getResource, { env, ref }))?.resource);
  }
  /**
   * The resource, or NotFound. Also for reading a record back after writing it: a concurrent
   * delete committed meanwhile leaves nothing to read (the write matched nothing), a 404.
   */
  async mustResource(tx: Tx, env: string, ref: string): Promise<ResourceNode> {
    const r = await this.getResource(tx, env, ref);
    if (!r) throw new NotFound('Resource', ref);
    return r;
  }
  /**
   * The resource, or NotFound, read under its write lock (held until the transaction ends): for
   * a write that reads the resource and writes from what it read (its action map, the roles'
   * permissions checked against its actions), so that concurrent ones do not lose each other's changes.
   */
  async lockedResource(tx: Tx, env: string, ref: string): Promise<ResourceNode> {
    await tx.rows(this.q.lockResource, { env, ref });
    return this.mustResource(tx, env, ref);
  }
  async listResources(env: string, search: string | null, page: Page) {
    return listOf(await this.db.readRows(this.q.listResources, { env, search, skip: page.skip, limit: page.perPage }));
  }
  async updateResource(
    tx: Tx,
    env: string,
    key: string,
    p: Patch & { actions: string[] | null; actions_json: string | null; attributes_json?: string | null },
  ) {
    await tx.rows(this.q.updateResource, {
      env,
      key,
      name: p.name,
      ...described(p),
      actions: p.actions,
      actions_json: p.actions_json,
      attributes_json: p.attributes_json ?? null,
      nowIso: p.nowIso,
    });
  }
  async deleteResource(tx: Tx, env: string, key: string): Promise<boolean> {
    return ((await tx.one(this.q.deleteResource, { env, key }))?.deleted ?? 0) > 0;
  }
  /**
   * Removes the set rules and resource sets that a deletion earlier in the transaction left naming
   * nothing (a resource, an action, a tenant role): Permit deletes them with what they name.
   */
  async deleteDanglingConditions(tx: Tx, env: string): Promise<void> {
    await tx.rows(this.q.deleteDanglingConditions, { env });
  }

  // Resource roles
  async createResourceRole(
    tx: Tx,
    env: string,
    resource: string,
    r: { id: string; key: string; name: string; description: string | null; permissions: string[]; nowIso: string },
  ) {
    await unique(
      () => tx.rows(this.q.createResourceRole, { env, resource, ...r }),
      () => new Duplicate(roleOf(resource), r.key),
    );
  }
  async getResourceRole(tx: Tx, env: string, resource: string, ref: string): Promise<ResourceRoleNode | undefined> {
    return keyed((await tx.one(this.q.getResourceRole, { env, resource, ref }))?.role);
  }
  /** The resource role, or NotFound (as mustResource). */
  async mustResourceRole(tx: Tx, env: string, resource: string, ref: string): Promise<ResourceRoleNode> {
    const rr = await this.getResourceRole(tx, env, resource, ref);
    if (!rr) throw new NotFound(roleOf(resource), ref);
    return rr;
  }
  async listResourceRoles(env: string, resource: string, page: Page) {
    return listOf(await this.db.readRows(this.q.listResourceRoles, { env, resource, skip: page.skip, limit: page.perPage }));
  }
  async updateResourceRole(tx: Tx, env: string, resource: string, key: string, p: Patch & { permissions: string[] | null }) {
    await tx.rows(this.q.updateResourceRole, {
      env,
      resource,
      key,
      name: p.name,
      ...described(p),
      permissions: p.permissions,
      nowIso: p.nowIso,
    });
  }
  async deleteResourceRole(env: string, resource: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteResourceRole, { env, resource, key });
    return (row?.deleted ?? 0) > 0;
  }

  // Derivations
  async checkDerivation(tx: Tx, env: string, d: Derivation): Promise<DerivationRefs> {
    // One row always (OPTIONAL MATCH, then RETURN).
    return (await tx.one(this.q.checkDerivation, { env, ...d }))!;
  }
  async createDerivation(
    tx: Tx,
    env: string,
    d: Derivation & { no_direct_roles_on_object: boolean; id: string; nowIso: string },
  ): Promise<DerivationNode> {
    const row = await unique(
      () => tx.one(this.q.createDerivation, { env, ...d }),
      () => new Duplicate('Role derivation', `${d.on_resource}#${d.from_role} -${d.relation}-> ${d.resource}#${d.role}`),
    );
    // No row when the relation was deleted meanwhile: undefined, as ever (the callers checked it first).
    return row?.derivation as DerivationNode;
  }
  async deleteDerivation(env: string, d: Derivation): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteDerivation, { env, ...d });
    return (row?.deleted ?? 0) > 0;
  }
  async deleteRoleDerivations(tx: Tx, env: string, resource: string, role: string) {
    await tx.rows(this.q.deleteRoleDerivations, { env, resource, role });
  }

  // Tenant roles
  async createRole(
    tx: Tx,
    env: string,
    r: { id: string; key: string; name: string; description: string | null; permissions: string[]; nowIso: string },
  ): Promise<RoleNode> {
    const row = await unique(
      () => tx.one(this.q.createRole, { env, ...r }),
      () => new Duplicate('Role', r.key),
    );
    // One row always (a CREATE).
    return row!.role;
  }
  /** The tenant role, in `tx` when given (else a read of its own). */
  async getRole(env: string, ref: string, tx?: Tx): Promise<RoleNode | undefined> {
    const [row] = tx ? await tx.rows(this.q.getRole, { env, ref }) : await this.db.readRows(this.q.getRole, { env, ref });
    return keyed(row?.role);
  }
  async listRoles(env: string, search: string | null, page: Page) {
    return listOf(await this.db.readRows(this.q.listRoles, { env, search, skip: page.skip, limit: page.perPage }));
  }
  async updateRole(tx: Tx, env: string, key: string, p: Patch & { permissions: string[] | null }): Promise<RoleNode | undefined> {
    const row = await tx.one(this.q.updateRole, { env, key, name: p.name, ...described(p), permissions: p.permissions, nowIso: p.nowIso });
    return row?.role;
  }
  async deleteRole(tx: Tx, env: string, key: string): Promise<boolean> {
    return ((await tx.one(this.q.deleteRole, { env, key }))?.deleted ?? 0) > 0;
  }
  /**
   * The "<resource>:<action>" permissions that name no existing action, checked under the write
   * lock of each resource they name (held until `tx` ends), so that an action cannot be removed
   * between this check and the role's write.
   */
  async invalidPermissions(tx: Tx, env: string, permissions: string[]): Promise<string[]> {
    const pairs = permissions.map((text) => {
      const at = text.indexOf(':');
      return { text, resource: text.slice(0, at), action: text.slice(at + 1) };
    });
    const resources = [...new Set(pairs.map((p) => p.resource))].sort();
    return (await tx.one(this.q.invalidPermissions, { env, pairs, resources }))?.invalid ?? [];
  }

  // Relations
  /** False when the resource or the subject resource does not exist. */
  async createRelation(
    tx: Tx,
    env: string,
    resource: string,
    r: { id: string; key: string; name: string; description: string | null; subject_resource: string; nowIso: string },
  ): Promise<boolean> {
    const rows = await unique(
      () => tx.rows(this.q.createRelation, { env, resource, ...r }),
      () => new Duplicate(relationOf(resource), r.key),
    );
    return rows.length > 0;
  }
  async getRelation(tx: Tx, env: string, resource: string, ref: string): Promise<RelationNode | undefined> {
    return keyed((await tx.one(this.q.getRelation, { env, resource, ref }))?.relation);
  }
  /** The relation, or NotFound (as mustResource). */
  async mustRelation(tx: Tx, env: string, resource: string, ref: string): Promise<RelationNode> {
    const rel = await this.getRelation(tx, env, resource, ref);
    if (!rel) throw new NotFound(relationOf(resource), ref);
    return rel;
  }
  async listRelations(env: string, resource: string, page: Page) {
    return listOf(await this.db.readRows(this.q.listRelations, { env, resource, skip: page.skip, limit: page.perPage }));
  }
  async updateRelation(tx: Tx, env: string, resource: string, key: string, p: Patch) {
    await tx.rows(this.q.updateRelation, { env, resource, key, name: p.name, ...described(p), nowIso: p.nowIso });
  }
  async deleteRelation(env: string, resource: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteRelation, { env, resource, key });
    return (row?.deleted ?? 0) > 0;
  }
}
