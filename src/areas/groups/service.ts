import { randomUUID } from 'node:crypto';
import { expiryOf } from '../../util/expiry';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { duplicate, groupCycle, invalidInput, notFound, tenantMismatch } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import type { AttachedInstance, GroupRef, GroupRow, GroupsStore, MemberUser } from './store';
import { fromJson, toJson } from '../../util/json';
import { at } from '../../util/bulkItem';
import { now } from '../../util/time';
import type { Static } from '../../http/schema';
import type {
  groupAssignment,
  groupCreate,
  groupInstance,
  groupRole,
  groupUpdate,
  listQuery,
  membership,
  membershipRemoval,
} from './schemas';

export const DEFAULT_GROUP_TYPE = 'group';
export const MEMBER_ROLE = 'member';
export const GROUP_RELATION = 'group';
/** One relation per group type, resource and role keeps a group's grant exact (docs/behaviour.md section 4). */
export const roleRelation = (type: string, role: string) => `${type}_${role}_group`;

/** A group as its create schema admits it (POST and each bulk operation). */
export type GroupCreate = Static<typeof groupCreate>;
export type GroupPatch = Static<typeof groupUpdate>;
/** A role on one instance, in the group's tenant; `expires_at` (ISO 8601, in the future) ends the grant. */
export type GroupRoleInput = Static<typeof groupRole>;
export type InstanceInput = Static<typeof groupInstance>;
export type Membership = Static<typeof membership>;
export type MembershipRemoval = Static<typeof membershipRemoval>;
export type GroupAssignment = Static<typeof groupAssignment>;
export type GroupFilter = Pick<Static<typeof listQuery>, 'tenant' | 'resource' | 'search'>;

/**
 * Groups (docs/behaviour.md section 4): a group is an instance of its group type; roles given to it
 * reach its members through automatic relations, derivations and tuples (docs/graph-model.md).
 */
export class GroupsService {
  constructor(private readonly store: GroupsStore) {}

  groupView = (scope: Scope, r: GroupRow) => ({
    id: r.group.id,
    group_instance_key: r.group.key,
    group_resource_type_key: r.group.resource,
    group_tenant: r.group.tenant,
    name: r.group.name ?? null,
    description: r.group.description ?? null,
    attributes: fromJson(r.group.attributes_json),
    assigned_roles: r.assigned_roles,
    users: r.users,
    organization_id: scope.orgId,
    project_id: scope.projectId,
    environment_id: scope.envId,
    created_at: r.group.created_at,
    updated_at: r.group.updated_at,
  });

  userView = (u: MemberUser) => ({
    id: u.id,
    key: u.key,
    email: u.email ?? null,
    first_name: u.first_name ?? null,
    last_name: u.last_name ?? null,
    attributes: fromJson(u.attributes_json),
    created_at: u.created_at,
    updated_at: u.updated_at,
  });

  instanceView = (i: AttachedInstance) => ({
    id: i.id,
    key: i.key,
    resource: i.resource,
    tenant: i.tenant,
    attributes: fromJson(i.attributes_json),
    attached_at: i.attached_at,
  });

  // ---- helpers ----

  private async group(tx: Tx, scope: Scope, ref: string): Promise<GroupRef> {
    const g = await this.store.resolveGroup(tx, scope.envId, ref);
    if (!g) throw notFound('Group', ref);
    return g;
  }

  private async record(tx: Tx, scope: Scope, key: string) {
    const [row] = await this.store.records(tx, scope.envId, [key]);
    if (!row) throw notFound('Group', key);
    return this.groupView(scope, row);
  }

  /** The tenant named in a body must exist and be the group's own. */
  private async sameTenant(tx: Tx, scope: Scope, g: GroupRef, tenantRef: string): Promise<void> {
    if (tenantRef === g.tenant) return;
    const tenant = await this.store.resolveTenant(tx, scope.envId, tenantRef);
    if (!tenant) throw notFound('Tenant', tenantRef);
    if (tenant !== g.tenant) {
      throw tenantMismatch(`Group ${JSON.stringify(g.key)} lives in tenant ${JSON.stringify(g.tenant)}, not ${JSON.stringify(tenant)}.`);
    }
  }

  private instanceElsewhere(resource: string, instance: string, tenant: string, g: GroupRef) {
    return tenantMismatch(
      `Resource instance ${JSON.stringify(`${resource}:${instance}`)} belongs to tenant ${JSON.stringify(tenant)}, ` +
        `but group ${JSON.stringify(g.key)} lives in tenant ${JSON.stringify(g.tenant)}.`,
    );
  }

  // ---- CRUD ----

  async createGroup(scope: Scope, input: GroupCreate) {
    const type = input.group_resource_type_key ?? DEFAULT_GROUP_TYPE;
    return this.store.write(async (tx) => {
      const tenant = await this.store.resolveTenant(tx, scope.envId, input.group_tenant);
      if (!tenant) throw notFound('Tenant', input.group_tenant);
      const created = await this.store.createGroup(tx, scope.envId, {
        key: input.group_instance_key,
        type,
        tenant,
        id: randomUUID(),
        typeId: randomUUID(),
        memberId: randomUUID(),
        name: input.name ?? null,
        description: input.description ?? null,
        attributes: JSON.stringify(input.attributes ?? {}),
        nowIso: now(),
      });
      if (!created) throw notFound('Tenant', input.group_tenant);
      return this.record(tx, scope, input.group_instance_key);
    });
  }

  /** Many groups in one transaction, all or nothing (an error names the item). */
  async createGroupsBulk(scope: Scope, inputs: GroupCreate[]) {
    const items = inputs.map((g) => ({
      key: g.group_instance_key,
      type: g.group_resource_type_key ?? DEFAULT_GROUP_TYPE,
      tenant: g.group_tenant,
      name: g.name ?? null,
      description: g.description ?? null,
      attributes: JSON.stringify(g.attributes ?? {}),
    }));
    return this.store.write(async (tx) => {
      const found = await this.store.resolveGroups(tx, scope.envId, items);
      const seen = new Set<string>();
      items.forEach((g, i) =>
        at(true, i, () => {
          if (!found[i].tenantExists) throw notFound('Tenant', g.tenant);
          if (found[i].taken || seen.has(g.key)) throw duplicate('Group', g.key);
          seen.add(g.key);
        }),
      );
      return { groups_created: await this.store.createGroups(tx, scope.envId, items, now()) };
    });
  }

  async getGroup(scope: Scope, ref: string) {
    return this.store.read(async (tx) => this.record(tx, scope, (await this.group(tx, scope, ref)).key));
  }

  async listGroups(scope: Scope, filter: GroupFilter, page: Page) {
    return this.store.read(async (tx) => {
      let tenant: string | null = null;
      if (filter.tenant !== undefined) tenant = (await this.store.resolveTenant(tx, scope.envId, filter.tenant)) ?? filter.tenant;
      const { total, data } = await this.store.listGroups(
        tx,
        scope.envId,
        { tenant, type: filter.resource ?? null, search: filter.search ?? null },
        page,
      );
      const rows = await this.store.records(tx, scope.envId, data);
      return envelopeOf(
        rows.map((r) => this.groupView(scope, r)),
        total,
        page,
      );
    });
  }

  async updateGroup(scope: Scope, ref: string, patch: GroupPatch) {
    return this.store.write(async (tx) => {
      const g = await this.group(tx, scope, ref);
      const ok = await this.store.updateGroup(tx, scope.envId, g.key, {
        name: patch.name,
        description: patch.description,
        attributes: toJson(patch.attributes),
        nowIso: now(),
      });
      if (!ok) throw notFound('Group', ref);
      return this.record(tx, scope, g.key);
    });
  }

  async deleteGroup(scope: Scope, ref: string) {
    const g = await this.store.read((tx) => this.group(tx, scope, ref));
    if (!(await this.store.deleteGroup(scope.envId, g.key))) throw notFound('Group', ref);
  }

  // ---- roles ----

  async assignRole(scope: Scope, ref: string, input: GroupRoleInput) {
    return this.store.write(async (tx) => {
      const g = await this.group(tx, scope, ref);
      await this.sameTenant(tx, scope, g, input.tenant);
      const target = await this.store.instanceTarget(tx, scope.envId, input.resource, input.resource_instance, input.role);
      if (!target.resourceExists) throw notFound('Resource', input.resource);
      if (!target.roleExists) {
        throw notFound(
          `Role ${JSON.stringify(input.role)} (neither a role of resource ${JSON.stringify(input.resource)} nor a tenant role)`,
        );
      }
      if (target.instanceTenant !== null && target.instanceTenant !== g.tenant) {
        throw this.instanceElsewhere(input.resource, input.resource_instance, target.instanceTenant, g);
      }
      const relation = roleRelation(g.type, input.role);
      const res = await this.store.assignRole(tx, scope.envId, {
        group: g.key,
        resource: input.resource,
        instance: input.resource_instance,
        role: input.role,
        relation,
        instanceId: randomUUID(),
        relationId: randomUUID(),
        derivationId: randomUUID(),
        nowIso: now(),
        expires_at: expiryOf(input.expires_at, '/body/expires_at'),
      });
      if (!res) throw notFound('Group', ref);
      // Re-checked after the MERGE: a concurrent call may have made the instance elsewhere.
      if (res.instanceTenant !== g.tenant) throw this.instanceElsewhere(input.resource, input.resource_instance, res.instanceTenant, g);
      if (res.subject !== g.type) {
        throw duplicate(
          `Relation ${JSON.stringify(relation)} on resource ${JSON.stringify(input.resource)} with another subject than ${JSON.stringify(g.type)}:`,
          relation,
        );
      }
      return this.record(tx, scope, g.key);
    });
  }

  async removeRole(scope: Scope, ref: string, input: GroupRoleInput) {
    const g = await this.store.read(async (tx) => {
      const found = await this.group(tx, scope, ref);
      await this.sameTenant(tx, scope, found, input.tenant);
      return found;
    });
    const removed = await this.store.removeRole(scope.envId, {
      group: g.key,
      resource: input.resource,
      instance: input.resource_instance,
      relation: roleRelation(g.type, input.role),
    });
    if (!removed) {
      throw notFound(`Role assignment ${JSON.stringify(`${input.resource}:${input.resource_instance}#${input.role}`)} of group`, g.key);
    }
  }

  // ---- users ----

  async addUser(scope: Scope, ref: string, userRef: string, input: Membership) {
    const expiresAt = expiryOf(input.expires_at, '/body/expires_at');
    return this.store.write(async (tx) => {
      const g = await this.group(tx, scope, ref);
      await this.sameTenant(tx, scope, g, input.tenant);
      const user = await this.store.resolveUser(tx, scope.envId, userRef);
      if (!user) throw notFound('User', userRef);
      if (!(await this.store.addUser(tx, scope.envId, g.key, user, now(), expiresAt))) throw notFound('Group', ref);
      return this.record(tx, scope, g.key);
    });
  }

  async removeUser(scope: Scope, ref: string, userRef: string, input: MembershipRemoval) {
    const [g, user] = await this.store.read(async (tx) => {
      const found = await this.group(tx, scope, ref);
      if (input.tenant !== undefined) await this.sameTenant(tx, scope, found, input.tenant);
      const u = await this.store.resolveUser(tx, scope.envId, userRef);
      if (!u) throw notFound('User', userRef);
      return [found, u] as const;
    });
    if (!(await this.store.removeUser(scope.envId, g.key, user))) throw notFound(`User ${JSON.stringify(user)} in group`, g.key);
  }

  // ---- group to group ----

  async assignGroup(scope: Scope, ref: string, input: GroupAssignment) {
    return this.store.write(async (tx) => {
      const a = await this.group(tx, scope, ref);
      const b = await this.group(tx, scope, input.group_instance_key);
      if (a.type !== b.type) {
        throw invalidInput(
          `Group ${JSON.stringify(a.key)} is of type ${JSON.stringify(a.type)} and ${JSON.stringify(b.key)} of ${JSON.stringify(b.type)}: only groups of one type can be nested.`,
          [{ path: '/body/group_instance_key', message: `must be a group of type ${JSON.stringify(a.type)}` }],
        );
      }
      if (a.tenant !== b.tenant) {
        throw tenantMismatch(
          `Group ${JSON.stringify(a.key)} lives in tenant ${JSON.stringify(a.tenant)} and ${JSON.stringify(b.key)} in ${JSON.stringify(b.tenant)}.`,
        );
      }
      if (a.key === b.key) throw groupCycle(`Group ${JSON.stringify(a.key)} cannot be a member of itself.`);
      // Locks first, so that of two concurrent assignments closing a cycle only one passes the check.
      if ((await this.store.lockGroups(tx, scope.envId, a.type, [a.key, b.key])) < 2) throw notFound('Group', ref);
      const links = await this.store.groupLinks(tx, scope.envId, a.key, b.key);
      if (!links) throw notFound('Group', ref);
      if (links.assigned) throw duplicate(`Assignment of group ${JSON.stringify(a.key)} to group`, b.key);
      if (links.cycle) {
        throw groupCycle(
          `Group ${JSON.stringify(b.key)} is already a member (directly or through other groups) of ${JSON.stringify(a.key)}; assigning ${JSON.stringify(a.key)} to it would make a cycle.`,
        );
      }
      const res = await this.store.assignGroup(tx, scope.envId, {
        a: a.key,
        b: b.key,
        relationId: randomUUID(),
        derivationId: randomUUID(),
        nowIso: now(),
      });
      if (!res) throw notFound('Group', ref);
      if (res.subject !== a.type) {
        throw duplicate(
          `Relation "group" on resource ${JSON.stringify(a.type)} with another subject than ${JSON.stringify(a.type)}:`,
          GROUP_RELATION,
        );
      }
      return this.record(tx, scope, a.key);
    });
  }

  async unassignGroup(scope: Scope, ref: string, input: GroupAssignment) {
    const [a, b] = await this.store.read(
      async (tx) => [await this.group(tx, scope, ref), await this.group(tx, scope, input.group_instance_key)] as const,
    );
    if (!(await this.store.unassignGroup(scope.envId, a.key, b.key))) {
      throw notFound(`Assignment of group ${JSON.stringify(a.key)} to group`, b.key);
    }
  }

  // ---- resource groups ----

  async attachInstance(scope: Scope, ref: string, input: InstanceInput) {
    return this.store.write(async (tx) => {
      const g = await this.group(tx, scope, ref);
      await this.sameTenant(tx, scope, g, input.tenant);
      const target = await this.store.instanceTarget(tx, scope.envId, input.resource, input.resource_instance, null);
      if (!target.resourceExists) throw notFound('Resource', input.resource);
      if (target.instanceTenant !== null && target.instanceTenant !== g.tenant) {
        throw this.instanceElsewhere(input.resource, input.resource_instance, target.instanceTenant, g);
      }
      const res = await this.store.attachInstance(tx, scope.envId, {
        group: g.key,
        resource: input.resource,
        instance: input.resource_instance,
        instanceId: randomUUID(),
        nowIso: now(),
      });
      if (!res) throw notFound('Group', ref);
      if (res.instanceTenant !== g.tenant) throw this.instanceElsewhere(input.resource, input.resource_instance, res.instanceTenant, g);
      return this.record(tx, scope, g.key);
    });
  }

  async detachInstance(scope: Scope, ref: string, input: InstanceInput) {
    const g = await this.store.read(async (tx) => {
      const found = await this.group(tx, scope, ref);
      await this.sameTenant(tx, scope, found, input.tenant);
      return found;
    });
    if (!(await this.store.detachInstance(scope.envId, { group: g.key, resource: input.resource, instance: input.resource_instance }))) {
      throw notFound(`Resource instance ${JSON.stringify(`${input.resource}:${input.resource_instance}`)} in group`, g.key);
    }
  }

  // ---- listings ----

  async listUsers(scope: Scope, ref: string, page: Page) {
    return this.store.read(async (tx) => {
      const g = await this.group(tx, scope, ref);
      const { total, data } = await this.store.listUsers(tx, scope.envId, g.key, page);
      return envelopeOf(data.map(this.userView), total, page);
    });
  }

  async listRoles(scope: Scope, ref: string, page: Page) {
    return this.store.read(async (tx) => {
      const g = await this.group(tx, scope, ref);
      const { total, data } = await this.store.listRoles(tx, scope.envId, g.key, page);
      return envelopeOf(data, total, page);
    });
  }

  async listChildren(scope: Scope, ref: string, page: Page) {
    return this.listRelated(scope, ref, page, 'children');
  }

  async listParents(scope: Scope, ref: string, page: Page) {
    return this.listRelated(scope, ref, page, 'parents');
  }

  private async listRelated(scope: Scope, ref: string, page: Page, which: 'children' | 'parents') {
    return this.store.read(async (tx) => {
      const g = await this.group(tx, scope, ref);
      const { total, data } =
        which === 'children'
          ? await this.store.listChildren(tx, scope.envId, g.key, page)
          : await this.store.listParents(tx, scope.envId, g.key, page);
      const rows = await this.store.records(tx, scope.envId, data);
      return envelopeOf(
        rows.map((r) => this.groupView(scope, r)),
        total,
        page,
      );
    });
  }

  async listInstances(scope: Scope, ref: string, page: Page) {
    return this.store.read(async (tx) => {
      const g = await this.group(tx, scope, ref);
      const { total, data } = await this.store.listInstances(tx, scope.envId, g.key, page);
      return envelopeOf(data.map(this.instanceView), total, page);
    });
  }
}
