import { randomUUID } from 'node:crypto';
import { scoped, type Scope } from '../../auth/types';
import { invalidInput, notFound } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import { fromJson, toJson } from '../../util/json';
import { now } from '../../util/time';
import type { FactsStore, TenantNode, UserFields, UserRow } from './store';
import type { Static } from '../../http/schema';
import type { tenantCreate, userSync } from './schemas';
import type { RoleAssignmentsService } from '../assignments/service';

/** A tenant as its route schema admits it. */
export type TenantInput = Static<typeof tenantCreate>;
/** One of a sync's `role_assignments` (Permit's UserRoleCreate), as its route schema admits it. */
export type SyncRoleAssignment = NonNullable<Static<typeof userSync>['role_assignments']>[number];
export interface UserInput extends UserFields {
  key: string;
  attributes?: Record<string, unknown>;
}

/** Tenants and users (docs/behaviour.md section 3): facts every permission question starts from. */
export class FactsService {
  /** `assignments` writes a sync's `role_assignments` in the sync's transaction. */
  constructor(
    private readonly store: FactsStore,
    private readonly assignments?: RoleAssignmentsService,
  ) {}

  tenantView = (scope: Scope, t: TenantNode) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    description: t.description ?? null,
    attributes: fromJson(t.attributes_json),
    ...scoped(scope),
    created_at: t.created_at,
    updated_at: t.updated_at,
    // Permit's TenantRead requires it; we record no per-tenant activity, so it is the tenant's last change.
    last_action_at: t.updated_at ?? t.created_at,
  });

  userView = (scope: Scope, r: UserRow) => ({
    id: r.user.id,
    key: r.user.key,
    email: r.user.email ?? null,
    first_name: r.user.first_name ?? null,
    last_name: r.user.last_name ?? null,
    attributes: fromJson(r.user.attributes_json),
    roles: r.roles,
    // Permit's UserInTenant: each tenant with the user's tenant roles there; `active` (there is no invitation step here).
    associated_tenants: r.tenants.map((tenant) => ({
      tenant,
      roles: r.roles.filter((x) => x.tenant === tenant).map((x) => x.role),
      status: 'active' as const,
    })),
    ...scoped(scope),
    created_at: r.user.created_at,
    updated_at: r.user.updated_at,
  });

  async createTenant(scope: Scope, input: TenantInput) {
    const t = await this.store.createTenant(scope.envId, {
      id: randomUUID(),
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      attributes: toJson(input.attributes ?? {}),
      nowIso: now(),
    });
    return this.tenantView(scope, t);
  }

  async getTenant(scope: Scope, ref: string) {
    const t = await this.store.getTenant(scope.envId, ref);
    if (!t) throw notFound('Tenant', ref);
    return this.tenantView(scope, t);
  }

  async listTenants(scope: Scope, search: string | undefined, page: Page) {
    const { data } = await this.store.listTenants(scope.envId, search ?? null, page);
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return data.map((t) => this.tenantView(scope, t));
  }

  async updateTenant(
    scope: Scope,
    ref: string,
    patch: { name?: string; description?: string | null; attributes?: Record<string, unknown> },
  ) {
    const current = await this.getTenant(scope, ref);
    const t = await this.store.updateTenant(scope.envId, current.key, {
      name: patch.name ?? null,
      description: patch.description,
      attributes: toJson(patch.attributes),
      nowIso: now(),
    });
    if (!t) throw notFound('Tenant', ref);
    return this.tenantView(scope, t);
  }

  async deleteTenant(scope: Scope, ref: string) {
    const current = await this.getTenant(scope, ref);
    if (!(await this.store.deleteTenant(scope.envId, current.key))) throw notFound('Tenant', ref);
  }

  async createUser(scope: Scope, input: UserInput) {
    const r = await this.store.createUser(scope.envId, {
      ...input,
      id: randomUUID(),
      attributes: toJson(input.attributes ?? {}),
      nowIso: now(),
    });
    return this.userView(scope, r);
  }

  /** Permit's bulk user creation; existing users are left as they are. */
  async createUsersBulk(scope: Scope, inputs: UserInput[]) {
    const created = await this.store.createUsers(
      scope.envId,
      inputs.map((u, i) => ({ ...u, attributes: toJson(u.attributes ?? {}, `/body/operations/${i}/attributes`)! })),
      now(),
    );
    return { users_created: created };
  }

  /**
   * Permit's sync (PUT users/{key}): creates or replaces the user and writes its
   * `role_assignments`, all in one transaction (an item that does not hold writes nothing,
   * not even the user); `created` picks 201 or 200.
   */
  async syncUser(
    scope: Scope,
    key: string,
    input: UserFields & { key?: string; attributes?: Record<string, unknown>; role_assignments?: SyncRoleAssignment[] },
  ) {
    if (input.key !== undefined && input.key !== key) {
      throw invalidInput(`The body's key ${JSON.stringify(input.key)} differs from the path's ${JSON.stringify(key)}.`, [
        { path: '/body/key', message: 'must equal the user key of the path' },
      ]);
    }
    const roles = (input.role_assignments ?? []).map((a) => ({ ...a, user: key }));
    if (roles.length && !this.assignments) throw new Error('FactsService was built without role assignments');
    const created = await this.store.write(async (tx) => {
      const isNew = await this.store.replaceUser(tx, scope.envId, {
        id: randomUUID(),
        key,
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        attributes: toJson(input.attributes ?? {})!,
        nowIso: now(),
      });
      if (roles.length) await this.assignments!.assignWithin(tx, scope, roles);
      return isNew;
    });
    return { created, user: await this.getUser(scope, key) };
  }

  async getUser(scope: Scope, ref: string) {
    const r = await this.store.getUser(scope.envId, ref);
    if (!r) throw notFound('User', ref);
    return this.userView(scope, r);
  }

  async listUsers(scope: Scope, filter: { search?: string; tenant?: string; role?: string }, page: Page) {
    const { total, data } = await this.store.listUsers(
      scope.envId,
      { search: filter.search ?? null, tenant: filter.tenant ?? null, role: filter.role ?? null },
      page,
    );
    return envelopeOf(
      data.map((r) => this.userView(scope, r)),
      total,
      page,
    );
  }

  async updateUser(scope: Scope, ref: string, patch: UserFields & { attributes?: Record<string, unknown> }) {
    const current = await this.getUser(scope, ref);
    const { attributes, ...fields } = patch;
    await this.store.updateUser(scope.envId, current.key, fields, toJson(attributes), now());
    return this.getUser(scope, current.key);
  }

  async deleteUser(scope: Scope, ref: string) {
    const current = await this.getUser(scope, ref);
    if (!(await this.store.deleteUser(scope.envId, current.key))) throw notFound('User', ref);
  }

  /** Permit's "add user to tenant": creates the user when missing, then links them. */
  async addTenantUser(scope: Scope, tenantRef: string, input: UserInput) {
    const tenant = await this.getTenant(scope, tenantRef);
    await this.store.addTenantUser(scope.envId, tenant.key, {
      ...input,
      id: randomUUID(),
      attributes: toJson(input.attributes ?? {}),
      nowIso: now(),
    });
    return this.getUser(scope, input.key);
  }

  async removeTenantUser(scope: Scope, tenantRef: string, userRef: string) {
    const tenant = await this.getTenant(scope, tenantRef);
    const user = await this.getUser(scope, userRef);
    if (!(await this.store.removeTenantUser(scope.envId, tenant.key, user.key))) {
      throw notFound(`User ${JSON.stringify(user.key)} in tenant`, tenant.key);
    }
  }

  async listTenantUsers(scope: Scope, tenantRef: string, filter: { search?: string; role?: string }, page: Page) {
    const tenant = await this.getTenant(scope, tenantRef);
    const { total, data } = await this.store.listTenantUsers(
      scope.envId,
      tenant.key,
      { search: filter.search ?? null, role: filter.role ?? null },
      page,
    );
    return envelopeOf(
      data.map((r) => this.userView(scope, r)),
      total,
      page,
    );
  }
}
