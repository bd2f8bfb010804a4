import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { concurrentChange, duplicate, invalidInput, notFound, tenantMismatch } from '../../errors';
import { listAnswer, type Page } from '../../http/paging';
import { fromJson } from '../../util/json';
import { scoped } from '../../auth/types';
import { at } from '../../util/bulkItem';
import { now } from '../../util/time';
import { UUID_PATTERN } from '../../db/organization';
import { expiryOf, expiryView } from '../../util/expiry';
import type { Static } from '../../http/schema';
import type { assignment } from './schemas';
import type { AssignmentKeys, AssignmentRef, AssignmentRefs, AssignmentRow, AssignmentsStore } from './store';

const UUID_RE = new RegExp(UUID_PATTERN);

/** A role assignment as its route schema admits it. */
export type AssignmentInput = Static<typeof assignment>;

/** "type:key" split at the first ':'; 422 when there is no ':'. */
export function splitRef(ref: string, path: string): { type: string; key: string } {
  const at = ref.indexOf(':');
  if (at <= 0 || at === ref.length - 1)
    throw invalidInput(`${JSON.stringify(ref)} is not a "<resource>:<key>" instance reference.`, [
      { path, message: 'must be "<resource>:<key>"' },
    ]);
  return { type: ref.slice(0, at), key: ref.slice(at + 1) };
}

/** The filters of the role assignment list (Permit's). */
export interface AssignmentListFilter {
  user?: string[];
  role?: string[];
  tenant?: string[];
  resource?: string;
  resource_instance?: string;
}

/** Role assignments: tenant roles on tenants, resource (or tenant) roles on resource instances. */
export class RoleAssignmentsService {
  constructor(private readonly store: AssignmentsStore) {}

  /** Permit's RoleAssignmentRead (docs/behaviour.md section 14), plus `expires_at`. */
  view = (scope: Scope, a: AssignmentRow) => ({
    id: a.id,
    user: a.user,
    role: a.role,
    tenant: a.tenant,
    ...(a.resource_instance ? { resource_instance: a.resource_instance, resource_instance_id: a.resource_instance_id } : {}),
    user_id: a.user_id,
    role_id: a.role_id,
    tenant_id: a.tenant_id,
    ...scoped(scope),
    created_at: a.created_at ?? null,
    ...(a.expires_at != null ? { expires_at: expiryView(a.expires_at) } : {}),
  });

  async assign(scope: Scope, input: AssignmentInput) {
    return this.store.write(async (tx) => {
      const done = await this.assignIn(tx, scope, [input]);
      const keys = { ...refOf(input), tenant: done.first!.tenant };
      if (done.created === 0) throw duplicate('Role assignment', describe(keys));
      // Read back in the same transaction, with the ids of what it names.
      const { data } = await this.store.listRoleAssignments(
        scope.envId,
        {
          users: [keys.user],
          roles: [keys.role],
          tenants: [keys.tenant],
          resource: keys.resource,
          instance: keys.instance,
          instanceId: null,
          tenantLevelOnly: keys.instance === null,
        },
        { page: 1, perPage: 1, skip: 0 },
        tx,
      );
      return this.view(scope, data[0]);
    });
  }

  /** One transaction, all or nothing; existing assignments are left as they are. */
  async assignBulk(scope: Scope, inputs: AssignmentInput[]) {
    return this.store.write(async (tx) => ({ assignments_created: (await this.assignIn(tx, scope, inputs, true)).created }));
  }

  /** Assigns a batch inside a caller's transaction (a user sync with `role_assignments`); throws, rolling it back, when an item does not hold. */
  async assignWithin(tx: Tx, scope: Scope, inputs: AssignmentInput[]): Promise<number> {
    return inputs.length ? (await this.assignIn(tx, scope, inputs, true)).created : 0;
  }

  async unassign(scope: Scope, input: AssignmentInput) {
    await this.store.write(async (tx) => {
      const [keys] = await this.keysOf(tx, scope, [input]);
      if (!keys) throw notFound('Resource instance', input.resource_instance);
      if ((await this.store.unassign(tx, scope.envId, [keys])) === 0) throw notFound('Role assignment', describe(keys));
    });
  }

  /** Removes those that exist; answers how many. */
  async unassignBulk(scope: Scope, inputs: AssignmentInput[]) {
    return this.store.write(async (tx) => {
      const keys = (await this.keysOf(tx, scope, inputs, true)).filter((k): k is AssignmentKeys => k !== undefined);
      return { assignments_removed: await this.store.unassign(tx, scope.envId, keys) };
    });
  }

  /**
   * Permit's filters: `user`, `role`, `tenant` match any of the keys given; `resource` the
   * assignments on instances of that type; `resource_instance` is "type:key" or the instance's id.
   */
  async list(scope: Scope, f: AssignmentListFilter, page: Page, withTotal?: boolean) {
    const { total, data } = await this.rows(scope, f, page);
    return listAnswer(
      data.map((a) => this.view(scope, a)),
      total,
      page,
      withTotal,
    );
  }

  /**
   * Permit's local PDP list (`GET /local/role_assignments`, the SDKs' `pdp_api.role_assignments.list`):
   * the same assignments and filters, in the PDP's model `{user, role, tenant, resource_instance?}`
   * (`resource_instance` as "type:key"), a plain array.
   */
  async listLocal(scope: Scope, f: AssignmentListFilter, page: Page) {
    const { data } = await this.rows(scope, f, page);
    return data.map((a) => ({
      user: a.user,
      role: a.role,
      tenant: a.tenant,
      ...(a.resource_instance ? { resource_instance: a.resource_instance } : {}),
    }));
  }

  /** `detailed=true`: Permit's RoleAssignmentDetailedRead, the records an assignment names read in one more query per page. */
  async listDetailed(scope: Scope, f: AssignmentListFilter, page: Page, withTotal?: boolean) {
    const { total, data } = await this.rows(scope, f, page);
    const records = await this.store.recordsByIds(
      scope.envId,
      data.flatMap((a) => [a.user_id, a.role_id, a.tenant_id, a.resource_instance_id]),
    );
    const detailed = data.map((a) => {
      const user = records.get(a.user_id ?? '');
      const role = records.get(a.role_id ?? '');
      const tenant = records.get(a.tenant_id ?? '');
      const inst = a.resource_instance_id ? records.get(a.resource_instance_id) : undefined;
      return {
        id: a.id,
        role: { id: a.role_id ?? '', key: a.role, name: role?.name ?? a.role, permissions: role?.permissions ?? [] },
        user: {
          id: a.user_id ?? '',
          key: a.user,
          email: user?.email ?? null,
          first_name: user?.first_name ?? null,
          last_name: user?.last_name ?? null,
          attributes: fromJson(user?.attributes_json),
        },
        tenant: { id: a.tenant_id ?? '', key: a.tenant, name: tenant?.name ?? a.tenant, attributes: fromJson(tenant?.attributes_json) },
        ...(a.resource_instance && a.resource_instance_id
          ? {
              resource_instance: {
                id: a.resource_instance_id,
                key: inst?.key ?? splitRef(a.resource_instance, '/resource_instance').key,
                resource: inst?.resource ?? splitRef(a.resource_instance, '/resource_instance').type,
                attributes: fromJson(inst?.attributes_json),
              },
            }
          : {}),
        ...scoped(scope),
        created_at: a.created_at ?? '',
        ...(a.expires_at != null ? { expires_at: expiryView(a.expires_at) } : {}),
      };
    });
    return listAnswer(detailed, total, page, withTotal);
  }

  private async rows(scope: Scope, f: AssignmentListFilter, page: Page) {
    const ref = f.resource_instance;
    const byId = ref !== undefined && !ref.includes(':');
    if (byId && !UUID_RE.test(ref)) {
      throw invalidInput(`${JSON.stringify(ref)} is neither "<resource>:<key>" nor an instance id.`, [
        { path: '/query/resource_instance', message: 'must be "<resource>:<key>" or a UUID' },
      ]);
    }
    const inst = ref !== undefined && !byId ? splitRef(ref, '/query/resource_instance') : null;
    if (inst && f.resource !== undefined && f.resource !== inst.type) return { total: 0, data: [] as AssignmentRow[] };
    return this.store.listRoleAssignments(
      scope.envId,
      {
        users: f.user ?? null,
        roles: f.role ?? null,
        tenants: f.tenant ?? null,
        resource: inst?.type ?? f.resource ?? null,
        instance: inst?.key ?? null,
        instanceId: byId ? ref : null,
        tenantLevelOnly: false,
      },
      page,
    );
  }

  /**
   * Writes every item in one pass per kind, each statement checking its items as it writes
   * (no per-item round trip, no per-item answer). Only when an item did not hold does it ask
   * the graph what each item refers to, and throws the domain's error for the first failing
   * item; throwing rolls the transaction back, so nothing of the batch stays.
   */
  private async assignIn(tx: Tx, scope: Scope, inputs: AssignmentInput[], bulk = false) {
    const refs = inputs.map((input, i) => at(bulk, i, () => refOf(input)));
    const done = await this.store.assignMany(tx, scope.envId, refs, now());
    if (done.written === refs.length) return done;
    const found = await this.store.resolveAssignments(tx, scope.envId, refs);
    inputs.forEach((input, i) => at(bulk, i, () => checkAssignment(input, refs[i], found[i])));
    throw concurrentChange();
  }

  /**
   * The keys of assignments to remove; the tenant of an instance assignment defaults to the
   * instance's (one query for all that need it). Undefined where that instance does not exist.
   */
  private async keysOf(tx: Tx, scope: Scope, inputs: AssignmentInput[], bulk = false): Promise<(AssignmentKeys | undefined)[]> {
    const refs = inputs.map((input, i) => at(bulk, i, () => refOf(input)));
    const open = refs.flatMap((r, i) => (r.tenant === null && r.instance !== null ? [i] : []));
    const found = open.length
      ? await this.store.resolveAssignments(
          tx,
          scope.envId,
          open.map((i) => refs[i]),
        )
      : [];
    open.forEach((i, j) => (refs[i].tenant = found[j].instanceTenant ?? null));
    return refs.map((r, i) => {
      if (r.tenant !== null) return { ...r, tenant: r.tenant };
      if (r.instance !== null) return undefined;
      return at(bulk, i, () => {
        throw invalidInput('A tenant-level role assignment needs a tenant.', [{ path: '/body/tenant', message: 'is required' }]);
      });
    });
  }
}

/** What an assignment names: `resource_instance` split into resource and key. */
function refOf(input: AssignmentInput): AssignmentRef {
  const inst = input.resource_instance ? splitRef(input.resource_instance, '/body/resource_instance') : null;
  return {
    user: input.user,
    role: input.role,
    tenant: input.tenant ?? null,
    resource: inst?.type ?? null,
    instance: inst?.key ?? null,
    expires_at: expiryOf(input.expires_at, '/body/expires_at'),
  };
}

/** The domain's rules for one assignment, given what the graph holds; answers the keys to write. */
function checkAssignment(
  input: AssignmentInput,
  ref: { resource: string | null; instance: string | null },
  refs: AssignmentRefs,
): AssignmentKeys {
  const inst = ref.instance !== null;
  if (!refs.userExists) throw notFound('User', input.user);
  if (inst && !refs.instanceExists) throw notFound('Resource instance', input.resource_instance);
  const tenant = input.tenant ?? refs.instanceTenant;
  if (!tenant) throw invalidInput('A tenant-level role assignment needs a tenant.', [{ path: '/body/tenant', message: 'is required' }]);
  if (input.tenant && !refs.tenantExists) throw notFound('Tenant', input.tenant);
  if (inst && refs.instanceTenant !== tenant) {
    throw tenantMismatch(
      `Resource instance ${JSON.stringify(input.resource_instance)} belongs to tenant ${JSON.stringify(refs.instanceTenant)}, not ${JSON.stringify(tenant)}.`,
    );
  }
  if (inst ? !refs.resourceRoleExists && !refs.tenantRoleExists : !refs.tenantRoleExists) {
    throw notFound(inst ? `Role of resource ${JSON.stringify(ref.resource)} (or tenant role)` : 'Role', input.role);
  }
  return { user: input.user, role: input.role, tenant, resource: ref.resource, instance: ref.instance };
}

const describe = (k: AssignmentKeys) =>
  `${k.user} -> ${k.role} in ${k.tenant}${k.instance !== null ? ` on ${k.resource}:${k.instance}` : ''}`;
