import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { invalidInput, notFound } from '../../errors';
import { listAnswer, type Page } from '../../http/paging';
import { unique } from '../../util/unique';
import type { HierarchyService } from './hierarchyService';
import type { SchemaStore } from './store';
import { roleView } from './views';
import type { Static } from '../../http/schema';
import type { roleCreate } from './schemas';

/** A role as its route schema admits it. */
export type RoleInput = Static<typeof roleCreate>;

/** Tenant-level roles: permissions are "<resource>:<action>" pairs of existing resources; `extends` other tenant roles. */
export class RolesService {
  constructor(
    private readonly store: SchemaStore,
    private readonly hierarchy: HierarchyService,
  ) {}

  async createRole(scope: Scope, input: RoleInput) {
    return this.store.write(async (tx) => {
      const permissions = unique(input.permissions ?? []);
      await this.checkPermissions(tx, scope, permissions);
      const role = await this.store.createRole(tx, scope.envId, {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        permissions,
        nowIso: new Date().toISOString(),
      });
      if (input.extends) await this.hierarchy.setParents(tx, scope, { resource: null, key: role.key }, input.extends);
      return (await this.hierarchy.withExtends(scope, null, [roleView(scope, role)], tx))[0];
    });
  }

  async getRole(scope: Scope, ref: string) {
    const role = await this.store.getRole(scope.envId, ref);
    if (!role) throw notFound('Role', ref);
    return (await this.hierarchy.withExtends(scope, null, [roleView(scope, role)]))[0];
  }

  async listRoles(scope: Scope, search: string | undefined, page: Page, withTotal?: boolean) {
    const { total, data } = await this.store.listRoles(scope.envId, search ?? null, page);
    return listAnswer(
      await this.hierarchy.withExtends(
        scope,
        null,
        data.map((r) => roleView(scope, r)),
      ),
      total,
      page,
      withTotal,
    );
  }

  async updateRole(scope: Scope, ref: string, patch: Omit<Partial<RoleInput>, 'key'>) {
    const current = await this.getRole(scope, ref);
    return this.store.write(async (tx) => {
      const permissions = patch.permissions ? unique(patch.permissions) : null;
      if (permissions) await this.checkPermissions(tx, scope, permissions);
      const role = await this.store.updateRole(tx, scope.envId, current.key, {
        name: patch.name ?? null,
        description: patch.description,
        permissions,
        nowIso: new Date().toISOString(),
      });
      if (!role) throw notFound('Role', ref);
      if (patch.extends) await this.hierarchy.setParents(tx, scope, { resource: null, key: role.key }, patch.extends);
      return (await this.hierarchy.withExtends(scope, null, [roleView(scope, role)], tx))[0];
    });
  }

  /** Permit's assign / remove permissions: adds to or takes from the role's permission set. */
  async changePermissions(scope: Scope, ref: string, permissions: string[], change: 'add' | 'remove') {
    return this.store.write(async (tx) => {
      const current = await this.store.getRole(scope.envId, ref, tx);
      if (!current) throw notFound('Role', ref);
      if (change === 'add') await this.checkPermissions(tx, scope, unique(permissions));
      await this.store.changeRolePermissions(tx, scope.envId, null, current.key, permissions, change);
      const role = await this.store.getRole(scope.envId, current.key, tx);
      // A delete committed meanwhile leaves nothing to read back (mustResource's rule).
      if (!role) throw notFound('Role', ref);
      return (await this.hierarchy.withExtends(scope, null, [roleView(scope, role)], tx))[0];
    });
  }

  async deleteRole(scope: Scope, ref: string) {
    const current = await this.getRole(scope, ref);
    await this.store.write(async (tx) => {
      if (!(await this.store.deleteRole(tx, scope.envId, current.key))) throw notFound('Role', ref);
      // Set rules of the role (is_role) go with it.
      await this.store.deleteDanglingConditions(tx, scope.envId);
    });
  }

  private async checkPermissions(tx: Tx, scope: Scope, permissions: string[]) {
    const invalid = await this.store.invalidPermissions(tx, scope.envId, permissions);
    if (!invalid.length) return;
    const details = permissions.flatMap((p, i) =>
      invalid.includes(p)
        ? [{ path: `/body/permissions/${i}`, message: `${JSON.stringify(p)} names no action of an existing resource` }]
        : [],
    );
    throw invalidInput(
      `Permissions must be "<resource>:<action>" of existing resources; unknown: ${invalid.map((p) => JSON.stringify(p)).join(', ')}.`,
      details,
    );
  }
}
