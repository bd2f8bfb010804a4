import type { Scope } from '../../auth/types';
import type { Db, Statement, Tx } from '../../db/db';
import { HierarchyService } from './hierarchyService';
import { checkPermissions, When } from './service';
import { SchemaStore } from './store';
import { resourceRoleView } from './views';

/** Adds to or takes from a role's permissions in one statement (tenant role when `resource` is null). */
export async function changeRolePermissions(tx: Tx, stmt: Statement, env: string, resource: string | null, key: string, permissions: string[], change: 'add' | 'remove') {
  await tx.rows(stmt, { env, resource, key, permissions: [...new Set(permissions)], add: change === 'add', nowIso: new Date().toISOString() });
}

/** Resource roles: Permit's assign / remove permissions, and the `when` of the role's derivations. */
export class ResourceRoleExtras {
  private readonly q = this.db.statements({
    setDerivationConditions: 'schema/setDerivationConditions',
    changeRolePermissions: 'schema/changeRolePermissions',
  });

  constructor(
    private readonly db: Db,
    private readonly store: SchemaStore,
    private readonly hierarchy: HierarchyService,
  ) {}

  private async target(scope: Scope, resourceRef: string, ref: string) {
    return this.store.read(async (tx) => {
      const r = await this.store.mustResource(tx, scope.envId, resourceRef);
      return { r, role: await this.store.mustResourceRole(tx, scope.envId, r.key, ref) };
    });
  }

  /** Permissions are action keys of the resource; `"<resource>:<action>"` of this resource is taken too. */
  async changePermissions(scope: Scope, resourceRef: string, ref: string, given: string[], change: 'add' | 'remove') {
    return this.store.write(async (tx) => {
      // Under the resource's lock: an action removed concurrently is either gone from the check or
      // removed from the role after this change (schema/updateResource).
      const r = await this.store.lockedResource(tx, scope.envId, resourceRef);
      const role = await this.store.mustResourceRole(tx, scope.envId, r.key, ref);
      const permissions = given.map((p) => (p.startsWith(`${r.key}:`) ? p.slice(r.key.length + 1) : p));
      if (change === 'add') checkPermissions(r.actions ?? [], permissions, r.key, '/body/permissions');
      await changeRolePermissions(tx, this.q.changeRolePermissions, scope.envId, r.key, role.key, permissions, change);
      const view = resourceRoleView(scope, await this.store.mustResourceRole(tx, scope.envId, r.key, role.key));
      return (await this.hierarchy.withExtends(scope, r.key, [view], tx))[0];
    });
  }

  /** Sets `when` on every rule that grants the role; answers the settings as Permit does. */
  async setConditions(scope: Scope, resourceRef: string, ref: string, when: When) {
    const { r, role } = await this.target(scope, resourceRef, ref);
    const value = when.no_direct_roles_on_object ?? false;
    await this.db.writeRows(this.q.setDerivationConditions, { env: scope.envId, resource: r.key, role: role.key, no_direct_roles_on_object: value });
    return { no_direct_roles_on_object: value };
  }
}
