import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { notFound } from '../../errors';
import type { HierarchyService } from './hierarchyService';
import { checkPermissions, grantable, type When } from './service';
import type { SchemaStore } from './store';
import { resourceRoleView, roleView } from './views';

type Relatives = 'ancestors' | 'descendants';

/**
 * Permit's role extras (docs/behaviour.md section 10): the hierarchy of tenant roles and of a
 * resource's roles (parents, ancestors, descendants), a resource role's permissions, and the
 * `when` of its derivations. Each request is one transaction, its answer read in it.
 */
export class RoleExtrasService {
  constructor(
    private readonly store: SchemaStore,
    private readonly hierarchy: HierarchyService,
  ) {}

  // ---- tenant roles

  async addRoleParent(scope: Scope, ref: string, parent: string) {
    return this.store.write(async (tx) => {
      const key = await this.roleKey(tx, scope, ref);
      await this.hierarchy.addParent(tx, scope, { resource: null, key }, parent);
      return this.role(tx, scope, key, ref);
    });
  }

  async removeRoleParent(scope: Scope, ref: string, parent: string) {
    return this.store.write(async (tx) => {
      const key = await this.roleKey(tx, scope, ref);
      await this.hierarchy.removeParent(tx, scope, { resource: null, key }, parent);
      return this.role(tx, scope, key, ref);
    });
  }

  async roleRelatives(scope: Scope, ref: string, which: Relatives) {
    return this.store.read(async (tx) => {
      const key = await this.roleKey(tx, scope, ref);
      const nodes = await this.hierarchy.relatives(tx, scope, key, which);
      return this.hierarchy.withExtends(
        scope,
        null,
        nodes.map((n) => roleView(scope, n)),
        tx,
      );
    });
  }

  private async roleKey(tx: Tx, scope: Scope, ref: string): Promise<string> {
    const role = await this.store.getRole(scope.envId, ref, tx);
    if (!role) throw notFound('Role', ref);
    return role.key;
  }

  private async role(tx: Tx, scope: Scope, key: string, ref: string) {
    const role = await this.store.getRole(scope.envId, key, tx);
    if (!role) throw notFound('Role', ref);
    return (await this.hierarchy.withExtends(scope, null, [roleView(scope, role)], tx))[0];
  }

  // ---- resource roles

  async addResourceRoleParent(scope: Scope, resourceRef: string, ref: string, parent: string) {
    return this.store.write(async (tx) => {
      const at = await this.resourceRole(tx, scope, resourceRef, ref);
      await this.hierarchy.addParent(tx, scope, at, parent);
      return this.resourceRoleWithExtends(tx, scope, at.resource, at.key);
    });
  }

  async removeResourceRoleParent(scope: Scope, resourceRef: string, ref: string, parent: string) {
    return this.store.write(async (tx) => {
      const at = await this.resourceRole(tx, scope, resourceRef, ref);
      await this.hierarchy.removeParent(tx, scope, at, parent);
      return this.resourceRoleWithExtends(tx, scope, at.resource, at.key);
    });
  }

  /** The relatives are read whole by one statement, their `extends` by one more. */
  async resourceRoleRelatives(scope: Scope, resourceRef: string, ref: string, which: Relatives) {
    return this.store.read(async (tx) => {
      const at = await this.resourceRole(tx, scope, resourceRef, ref);
      const nodes = await this.hierarchy.resourceRelatives(tx, scope, at.resource, at.key, which);
      return this.hierarchy.withExtends(
        scope,
        at.resource,
        nodes.map((n) => resourceRoleView(scope, n)),
        tx,
      );
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
      if (change === 'add') checkPermissions(grantable(r), permissions, r.key, '/body/permissions');
      await this.store.changeRolePermissions(tx, scope.envId, r.key, role.key, permissions, change);
      return this.resourceRoleWithExtends(tx, scope, r.key, role.key);
    });
  }

  /** Sets `when` on every rule that grants the role; answers the settings as Permit does. */
  async setConditions(scope: Scope, resourceRef: string, ref: string, when: When) {
    return this.store.write(async (tx) => {
      const { resource, key } = await this.resourceRole(tx, scope, resourceRef, ref);
      const value = when.no_direct_roles_on_object ?? false;
      await this.store.setDerivationConditions(tx, scope.envId, resource, key, value);
      return { no_direct_roles_on_object: value };
    });
  }

  /** The resource role `ref` of `resourceRef` (keys or ids); 404 when either is missing. */
  private async resourceRole(tx: Tx, scope: Scope, resourceRef: string, ref: string) {
    const r = await this.store.mustResource(tx, scope.envId, resourceRef);
    const role = await this.store.mustResourceRole(tx, scope.envId, r.key, ref);
    return { resource: r.key, key: role.key };
  }

  private async resourceRoleWithExtends(tx: Tx, scope: Scope, resource: string, key: string) {
    const view = resourceRoleView(scope, await this.store.mustResourceRole(tx, scope.envId, resource, key));
    return (await this.hierarchy.withExtends(scope, resource, [view], tx))[0];
  }
}
