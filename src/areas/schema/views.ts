import { scoped, type Scope } from '../../auth/types';
import type { DerivationNode, RelationNode, ResourceNode, ResourceRoleNode, RoleNode } from './store';

/** API shapes of schema records, after Permit's *Read models. */

export interface ActionBlock {
  id?: string;
  name?: string;
  description?: string | null;
}

export function actionsOf(
  r: Pick<ResourceNode, 'actions' | 'actions_json'>,
): Record<string, { key: string; id?: string; name: string; description: string | null }> {
  const blocks = (r.actions_json ? JSON.parse(r.actions_json) : {}) as Record<string, ActionBlock>;
  const out: Record<string, { key: string; id?: string; name: string; description: string | null }> = {};
  for (const key of r.actions ?? Object.keys(blocks)) {
    const b = blocks[key] ?? {};
    out[key] = { ...(b.id ? { id: b.id } : {}), key, name: b.name ?? key, description: b.description ?? null };
  }
  return out;
}

/** A derivation as Permit's DerivedRoleRuleRead: `role` is the role required on `on_resource`, with the ids of what it names. */
export const ruleView = (d: DerivationNode) => ({
  role_id: d.role_id ?? null,
  resource_id: d.resource_id ?? null,
  relation_id: d.relation_id ?? null,
  role: d.from_role,
  on_resource: d.on_resource,
  linked_by_relation: d.relation,
  ...(d.no_direct_roles_on_object ? { when: { no_direct_roles_on_object: true } } : {}),
});

/**
 * Permit's DerivedRoleBlockRead: the rules, and `when` when every rule carries it. Its `id` (Permit:
 * "the id of the derived role") is the id of the role the block belongs to: one block per role.
 */
const grantedToView = (roleId: string, ds: DerivationNode[]) => ({
  id: roleId,
  users_with_role: ds.map(ruleView),
  ...(ds.length && ds.every((d) => d.no_direct_roles_on_object) ? { when: { no_direct_roles_on_object: true } } : {}),
});

export const derivationView = (scope: Scope, d: DerivationNode) => ({
  id: d.id,
  ...ruleView(d),
  resource: d.resource,
  resource_role: d.role,
  ...scoped(scope),
  created_at: d.created_at ?? null,
});

export const resourceRoleView = (scope: Scope, rr: ResourceRoleNode, resourceId?: string) => ({
  id: rr.id,
  key: rr.key,
  name: rr.name ?? rr.key,
  description: rr.description ?? null,
  // As written (docs/behaviour.md section 23): an action group stays a group here.
  permissions: rr.declared_permissions ?? rr.permissions ?? [],
  granted_to: grantedToView(rr.id, rr.derivations ?? []),
  resource: rr.resource,
  resource_id: resourceId ?? rr.resource_id ?? null,
  ...scoped(scope),
  created_at: rr.created_at ?? null,
  updated_at: rr.updated_at ?? null,
});

export const relationView = (scope: Scope, rel: RelationNode) => ({
  id: rel.id,
  key: rel.key,
  name: rel.name ?? rel.key,
  description: rel.description ?? null,
  subject_resource: rel.subject_resource,
  subject_resource_id: rel.subject_resource_id ?? null,
  object_resource: rel.resource,
  object_resource_id: rel.object_resource_id ?? null,
  ...scoped(scope),
  created_at: rel.created_at ?? null,
  updated_at: rel.updated_at ?? null,
});

export const resourceView = (scope: Scope, r: ResourceNode) => ({
  id: r.id,
  key: r.key,
  name: r.name ?? r.key,
  description: r.description ?? null,
  actions: actionsOf(r),
  attributes: r.attributes_json ? JSON.parse(r.attributes_json) : {},
  relations: Object.fromEntries(
    (r.relations ?? []).map((rel) => [
      rel.key,
      {
        key: rel.key,
        name: rel.name ?? rel.key,
        description: rel.description ?? null,
        resource: rel.subject_resource,
        resource_id: rel.subject_resource_id ?? null,
      },
    ]),
  ),
  roles: Object.fromEntries((r.roles ?? []).map((rr) => [rr.key, resourceRoleView(scope, rr, r.id)])),
  ...scoped(scope),
  created_at: r.created_at ?? null,
  updated_at: r.updated_at ?? null,
});

export const roleView = (scope: Scope, t: RoleNode) => ({
  id: t.id,
  key: t.key,
  name: t.name ?? t.key,
  description: t.description ?? null,
  permissions: t.declared_permissions ?? t.permissions ?? [],
  ...scoped(scope),
  created_at: t.created_at ?? null,
  updated_at: t.updated_at ?? null,
});
