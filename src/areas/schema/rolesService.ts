import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { invalidInput, notFound } from '../../errors';
import { envelopeOf, Page } from '../../http/paging';
import { SchemaStore } from './store';
import { roleView } from './views';
import type { Static } from '../../http/schema';
import type { roleCreate } from './schemas';

/** A role as its route schema admits it. */
export type RoleInput = Static<typeof roleCreate>;

/** Tenant-level roles: permissions are "<resource>:<action>" pairs of existing resources. */
export class RolesService {
  constructor(private readonly store: SchemaStore) {}

  async createRole(scope: Scope, input: RoleInput) {
    return this.store.write(async (tx) => {
      const permissions = unique(input.permissions ?? []);
      await this.checkPermissions(tx, scope, permissions);
      const role = await this.store.createRole(tx, scope.envId, {
        id: randomUUID(), key: input.key, name: input.name, description: input.description ?? null, permissions, now: new Date().toISOString(),
      });
      return roleView(scope, role);
    });
  }

  async getRole(scope: Scope, ref: string) {
    const role = await this.store.getRole(scope.envId, ref);
    if (!role) throw notFound('Role', ref);
    return roleView(scope, role);
  }

  async listRoles(scope: Scope, search: string | undefined, page: Page) {
    const { total, data } = await this.store.listRoles(scope.envId, search ?? null, page);
    return envelopeOf(data.map((r) => roleView(scope, r)), total, page);
  }

  async updateRole(scope: Scope, ref: string, patch: Omit<Partial<RoleInput>, 'key'>) {
    const current = await this.getRole(scope, ref);
    return this.store.write(async (tx) => {
      const permissions = patch.permissions ? unique(patch.permissions) : null;
      if (permissions) await this.checkPermissions(tx, scope, permissions);
      const role = await this.store.updateRole(tx, scope.envId, current.key, {
        name: patch.name ?? null, description: patch.description, permissions, now: new Date().toISOString(),
      });
      if (!role) throw notFound('Role', ref);
      return roleView(scope, role);
    });
  }

  async deleteRole(scope: Scope, ref: string) {
    const current = await this.getRole(scope, ref);
    if (!(await this.store.deleteRole(scope.envId, current.key))) throw notFound('Role', ref);
  }

  private async checkPermissions(tx: Tx, scope: Scope, permissions: string[]) {
    const invalid = await this.store.invalidPermissions(tx, scope.envId, permissions);
    if (!invalid.length) return;
    const details = permissions.flatMap((p, i) => (invalid.includes(p) ? [{ path: `/body/permissions/${i}`, message: `${JSON.stringify(p)} names no action of an existing resource` }] : []));
    throw invalidInput(`Permissions must be "<resource>:<action>" of existing resources; unknown: ${invalid.map((p) => JSON.stringify(p)).join(', ')}.`, details);
  }
}

const unique = (list: string[]) => [...new Set(list)];
