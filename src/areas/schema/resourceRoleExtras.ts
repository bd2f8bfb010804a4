import type { Scope } from '../../auth/types';
import type { HierarchyService } from './hierarchyService';
import { checkPermissions, type When } from './service';
import type { SchemaStore } from './store';
import { resourceRoleView } from './views';

/** Resource roles: Permit's assign / remove permissions, and the `when` of the role's derivations. */
export class ResourceRoleExtras {
  constructor(
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
      await this.store.changeRolePermissions(tx, scope.envId, r.key, role.key, permissions, change);
      const view = resourceRoleView(scope, await this.store.mustResourceRole(tx, scope.envId, r.key, role.key));
      return (await this.hierarchy.withExtends(scope, r.key, [view], tx))[0];
    });
  }

  /** Sets `when` on every rule that grants the role; answers the settings as Permit does. */
  async setConditions(scope: Scope, resourceRef: string, ref: string, when: When) {
    const { r, role } = await this.target(scope, resourceRef, ref);
    const value = when.no_direct_roles_on_object ?? false;
    await this.store.setDerivationConditions(scope.envId, r.key, role.key, value);
    return { no_direct_roles_on_object: value };
  }
}
