import type { Db, Tx } from '../../db/db';
import type { ResourceRoleNode, RoleNode } from './store';

/**
 * Role hierarchy edges `(role)-[:EXTENDS]->(parent)` between tenant roles (`resource` null) or
 * between the roles of one resource. The decision rule follows these edges (docs/graph-model.md).
 */
export class HierarchyStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      addRoleParent: 'schema/addRoleParent',
      removeRoleParent: 'schema/removeRoleParent',
      clearRoleParents: 'schema/clearRoleParents',
      roleParentsOf: 'schema/roleParentsOf',
      resourceRoleParentsOf: 'schema/resourceRoleParentsOf',
      roleAncestors: 'schema/roleAncestors',
      roleDescendants: 'schema/roleDescendants',
      resourceRoleAncestors: 'schema/resourceRoleAncestors',
      resourceRoleDescendants: 'schema/resourceRoleDescendants',
    });
  }

  /** False when the edge would close a cycle (nothing written). */
  async addParent(tx: Tx, env: string, resource: string | null, role: string, parent: string): Promise<boolean> {
    const row = await tx.one(this.q.addRoleParent, { env, resource, role, parent, nowIso: new Date().toISOString() });
    return row !== undefined && row.cycle === false;
  }

  async removeParent(tx: Tx, env: string, resource: string | null, role: string, parent: string): Promise<boolean> {
    const row = await tx.one(this.q.removeRoleParent, { env, resource, role, parent, nowIso: new Date().toISOString() });
    return (row?.removed ?? 0) > 0;
  }

  async clearParents(tx: Tx, env: string, resource: string | null, role: string): Promise<void> {
    await tx.rows(this.q.clearRoleParents, { env, resource, role });
  }

  async parentsOf(env: string, resource: string | null, keys: string[], tx?: Tx): Promise<Map<string, string[]>> {
    const run = (t: Tx) => t.rows(this.q.roleParentsOf, { env, resource, keys });
    const rows = tx ? await run(tx) : await this.db.read(run);
    return new Map(rows.map((r) => [r.key, r.parents]));
  }

  /** `"<resource>\u0000<role>"` -> the keys of the roles it extends, for every role of `resources` that extends any. */
  async parentsOfResources(env: string, resources: string[]): Promise<Map<string, string[]>> {
    const rows = await this.db.readRows(this.q.resourceRoleParentsOf, { env, resources });
    return new Map(rows.map((r) => [`${r.resource}\u0000${r.key}`, r.parents.sort()]));
  }

  /** The tenant roles `role` extends (ancestors) or that extend it (descendants), transitively. */
  async relatives(tx: Tx, env: string, role: string, which: 'ancestors' | 'descendants'): Promise<RoleNode[]> {
    const stmt = which === 'ancestors' ? this.q.roleAncestors : this.q.roleDescendants;
    return (await tx.rows(stmt, { env, resource: null, role })).map((r) => r.role);
  }

  /** As `relatives`, for the roles of one resource, read whole (derivations, resource id) in the same statement. */
  async resourceRelatives(
    tx: Tx,
    env: string,
    resource: string,
    role: string,
    which: 'ancestors' | 'descendants',
  ): Promise<ResourceRoleNode[]> {
    const stmt = which === 'ancestors' ? this.q.resourceRoleAncestors : this.q.resourceRoleDescendants;
    return (await tx.rows(stmt, { env, resource, role })).map((r) => r.role);
  }
}
