import type { ErrorDetail } from '../../errors';
import { LEVELS } from '../elements/schemas';
import type { PolicyFile } from './format';
import type { Managed } from './managed';
import { type ConfigModel, derivationKey, type DerivationModel, type PolicyModel, type ResourceModel, type RoleModel } from './model';

export type ChangeKind =
  | 'resource'
  | 'action'
  | 'action_group'
  | 'relation'
  | 'resource_role'
  | 'role'
  | 'derivation'
  | 'user_attributes'
  | 'condition_set'
  | 'set_rule'
  | 'elements_config'
  | 'proxy_config';
/** One difference between the environment's own schema and a policy file. */
export interface Change {
  op: 'create' | 'update' | 'delete';
  kind: ChangeKind;
  /** `repo`, `repo:push` (action), `repo:pushers` (action group), `repo#editor` (resource role), `repo.parent` (relation), `admin` (tenant role), an elements config's or proxy config's key, or a derivation's text. */
  key: string;
  /** The resource it belongs to (all but tenant roles). */
  resource?: string;
  /** The record's own key inside the resource (action, relation, role). */
  name?: string;
  /** Updates: the fields that differ. */
  fields?: string[];
  /** Deletions of records that facts use: how many, and which (filled by the service). */
  in_use?: { facts: number; what: string };
}

const empty = (key: string): ResourceModel => ({
  name: key,
  description: null,
  attributes: '{}',
  actions: {},
  action_groups: {},
  relations: {},
  roles: {},
  derivations: [],
});
const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function roleFields(a: RoleModel, b: RoleModel): string[] {
  const out: string[] = [];
  if (a.name !== b.name) out.push('name');
  if (a.description !== b.description) out.push('description');
  if (!same(a.permissions, b.permissions)) out.push('permissions');
  if (!same(a.extends, b.extends)) out.push('extends');
  return out;
}

/**
 * The changes that make `current` (the environment's own schema) equal to `desired` (the file's),
 * managed schema left out of both. `exists`: every resource key in the graph (a managed group type
 * without parts of its own exists though `current` does not list it).
 */
export function planOf(current: PolicyModel, desired: PolicyModel, exists: Set<string>, managed: Managed): Change[] {
  const out: Change[] = [];
  for (const [key, want] of Object.entries(desired.resources)) {
    const isNew = !exists.has(key);
    const have = current.resources[key] ?? empty(key);
    if (isNew) out.push({ op: 'create', kind: 'resource', key, resource: key });
    else {
      const fields = (['name', 'description', 'attributes'] as const).filter((f) => have[f] !== want[f]);
      if (fields.length) out.push({ op: 'update', kind: 'resource', key, resource: key, fields });
    }
    for (const a of Object.keys(want.actions)) {
      if (!Object.hasOwn(have.actions, a)) {
        if (!isNew) out.push({ op: 'create', kind: 'action', key: `${key}:${a}`, resource: key, name: a });
      } else {
        const fields = (['name', 'description'] as const).filter((f) => have.actions[a][f] !== want.actions[a][f]);
        if (fields.length) out.push({ op: 'update', kind: 'action', key: `${key}:${a}`, resource: key, name: a, fields });
      }
    }
    for (const a of Object.keys(have.actions))
      if (!Object.hasOwn(want.actions, a)) out.push({ op: 'delete', kind: 'action', key: `${key}:${a}`, resource: key, name: a });
    for (const [g, group] of Object.entries(want.action_groups)) {
      if (!Object.hasOwn(have.action_groups, g))
        out.push({ op: 'create', kind: 'action_group', key: `${key}:${g}`, resource: key, name: g });
      else {
        const was = have.action_groups[g];
        const fields = [
          ...(was.name !== group.name ? ['name'] : []),
          ...(was.description !== group.description ? ['description'] : []),
          ...(!same(was.actions, group.actions) ? ['actions'] : []),
        ];
        if (fields.length) out.push({ op: 'update', kind: 'action_group', key: `${key}:${g}`, resource: key, name: g, fields });
      }
    }
    for (const g of Object.keys(have.action_groups))
      if (!Object.hasOwn(want.action_groups, g))
        out.push({ op: 'delete', kind: 'action_group', key: `${key}:${g}`, resource: key, name: g });
    for (const [rel, subject] of Object.entries(want.relations)) {
      if (Object.hasOwn(have.relations, rel) && have.relations[rel] === subject) continue;
      if (Object.hasOwn(have.relations, rel)) out.push({ op: 'delete', kind: 'relation', key: `${key}.${rel}`, resource: key, name: rel });
      out.push({ op: 'create', kind: 'relation', key: `${key}.${rel}`, resource: key, name: rel });
    }
    for (const rel of Object.keys(have.relations))
      if (!Object.hasOwn(want.relations, rel)) out.push({ op: 'delete', kind: 'relation', key: `${key}.${rel}`, resource: key, name: rel });
    for (const [k, role] of Object.entries(want.roles)) {
      if (!Object.hasOwn(have.roles, k)) out.push({ op: 'create', kind: 'resource_role', key: `${key}#${k}`, resource: key, name: k });
      else {
        const fields = roleFields(have.roles[k], role);
        if (fields.length) out.push({ op: 'update', kind: 'resource_role', key: `${key}#${k}`, resource: key, name: k, fields });
      }
    }
    for (const k of Object.keys(have.roles))
      if (!Object.hasOwn(want.roles, k)) out.push({ op: 'delete', kind: 'resource_role', key: `${key}#${k}`, resource: key, name: k });
    const haveD = new Map(have.derivations.map((d) => [derivationKey(key, d), d]));
    const wantD = new Map(want.derivations.map((d) => [derivationKey(key, d), d]));
    for (const [dk, d] of wantD) {
      const h = haveD.get(dk);
      if (!h) out.push({ op: 'create', kind: 'derivation', key: dk, resource: key });
      else if (h.no_direct_roles_on_object !== d.no_direct_roles_on_object)
        out.push({ op: 'update', kind: 'derivation', key: dk, resource: key, fields: ['when'] });
    }
    for (const dk of haveD.keys()) if (!wantD.has(dk)) out.push({ op: 'delete', kind: 'derivation', key: dk, resource: key });
  }
  for (const key of Object.keys(current.resources)) {
    if (!Object.hasOwn(desired.resources, key) && !managed.resource(key)) out.push({ op: 'delete', kind: 'resource', key, resource: key });
  }
  for (const [k, role] of Object.entries(desired.roles)) {
    if (!Object.hasOwn(current.roles, k)) out.push({ op: 'create', kind: 'role', key: k, name: k });
    else {
      const fields = roleFields(current.roles[k], role);
      if (fields.length) out.push({ op: 'update', kind: 'role', key: k, name: k, fields });
    }
  }
  for (const k of Object.keys(current.roles))
    if (!Object.hasOwn(desired.roles, k)) out.push({ op: 'delete', kind: 'role', key: k, name: k });
  out.push(...planConfigs(current.configs, desired.configs));
  return out;
}

/**
 * Elements configs: made, changed (name, governed resources, levels) or removed. A config whose
 * elements_type differs is removed and made again (the elements API cannot change a type).
 */
function planConfigs(have: Record<string, ConfigModel>, want: Record<string, ConfigModel>): Change[] {
  const out: Change[] = [];
  const at = (op: Change['op'], key: string, fields?: string[]): Change => ({
    op,
    kind: 'elements_config',
    key,
    name: key,
    ...(fields ? { fields } : {}),
  });
  for (const [k, c] of Object.entries(want)) {
    const h = Object.hasOwn(have, k) ? have[k] : undefined;
    if (!h) out.push(at('create', k));
    else if (h.elements_type !== c.elements_type) out.push(at('delete', k), at('create', k));
    else {
      const fields: string[] = [];
      if (h.name !== c.name) fields.push('name');
      if (!same(h.resources, c.resources)) fields.push('settings');
      if (LEVELS.some((l) => !same(h.roles_to_levels[l], c.roles_to_levels[l]))) fields.push('roles_to_levels');
      if (fields.length) out.push(at('update', k, fields));
    }
  }
  for (const k of Object.keys(have)) if (!Object.hasOwn(want, k)) out.push(at('delete', k));
  return out;
}

/**
 * What the file's elements configs name must be in the policy, as the elements API requires of a
 * config (422, one entry per problem, at the file's own index): each level's roles are tenant
 * roles of the file; each governed resource is a resource of the file (or a managed one that exists).
 */
export function configProblems(file: PolicyFile, desired: PolicyModel, graph: PolicyModel, managed: Managed): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [key, c] of Object.entries(file.elements_configs ?? {})) {
    const base = `/body/elements_configs/${key}`;
    for (const l of LEVELS) {
      ((c.roles_to_levels as Partial<Record<string, string[]>> | undefined)?.[l] ?? []).forEach((role, i) => {
        if (!Object.hasOwn(desired.roles, role))
          problems.push({
            path: `${base}/roles_to_levels/${l}/${i}`,
            message: `${JSON.stringify(role)} is not a tenant role of the policy`,
          });
      });
    }
    (c.settings?.resources ?? []).forEach((r, i) => {
      const exists = Object.hasOwn(desired.resources, r) || (managed.resource(r) && Object.hasOwn(graph.resources, r));
      if (!exists)
        problems.push({ path: `${base}/settings/resources/${i}`, message: `${JSON.stringify(r)} is not a resource of the policy` });
    });
  }
  return problems;
}

/** The derivation a change names, from the model that has it. */
export function derivationOf(model: PolicyModel, c: Change): DerivationModel | undefined {
  return model.resources[c.resource!]?.derivations.find((d) => derivationKey(c.resource!, d) === c.key);
}

/**
 * What a file names must exist once it is applied: permissions name actions, `extends` and
 * derivations name roles, relations name resources. `graph` is the environment's whole schema
 * (managed parts included: a file may name a group type or an approval action). `managed`: as it
 * will be after the apply (the file's elements configs govern the resources they name).
 */
export function problemsOf(desired: PolicyModel, graph: PolicyModel, managed: Managed): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const at = (path: string, message: string) => problems.push({ path: `/body${path}`, message });
  const resourceExists = (r: string) => Object.hasOwn(desired.resources, r) || (managed.resource(r) && Object.hasOwn(graph.resources, r));
  const actionsOf = (r: string) =>
    new Set([
      ...Object.keys(desired.resources[r]?.actions ?? {}),
      ...managed.approvalActions(r),
      ...Object.keys(graph.resources[r]?.actions ?? {}).filter(
        (a) => managed.action(r, a) || (!Object.hasOwn(desired.resources, r) && managed.resource(r)),
      ),
    ]);
  const rolesOf = (r: string) =>
    new Set([
      ...Object.keys(desired.resources[r]?.roles ?? {}),
      ...managed.approvalRoles(r),
      ...Object.keys(graph.resources[r]?.roles ?? {}).filter(
        (k) => managed.role(r, k) || (!Object.hasOwn(desired.resources, r) && managed.resource(r)),
      ),
    ]);
  const groupsOf = (r: string) => new Set(Object.keys(desired.resources[r]?.action_groups ?? {}));
  for (const [key, r] of Object.entries(desired.resources)) {
    const base = `/resources/${key}`;
    if (key.startsWith('__')) at(base, `${JSON.stringify(key)} is a built-in resource, managed by the service`);
    const actions = actionsOf(key);
    for (const [g, group] of Object.entries(r.action_groups)) {
      if (actions.has(g))
        at(
          `${base}/action_groups/${g}`,
          `${JSON.stringify(g)} is an action of resource ${JSON.stringify(key)}: a group and an action never share a key`,
        );
      group.actions.forEach((a, i) => {
        if (!actions.has(a))
          at(`${base}/action_groups/${g}/actions/${i}`, `${JSON.stringify(a)} is not an action of resource ${JSON.stringify(key)}`);
      });
    }
    for (const [k, role] of Object.entries(r.roles)) {
      role.permissions.forEach((p, i) => {
        if (!actions.has(p) && !groupsOf(key).has(p))
          at(`${base}/roles/${k}/permissions/${i}`, `${JSON.stringify(p)} is not an action of resource ${JSON.stringify(key)}`);
      });
      const roles = rolesOf(key);
      role.extends.forEach((p, i) => {
        if (!roles.has(p)) at(`${base}/roles/${k}/extends/${i}`, `${JSON.stringify(p)} is not a role of resource ${JSON.stringify(key)}`);
      });
    }
    for (const [rel, subject] of Object.entries(r.relations)) {
      if (!resourceExists(subject)) at(`${base}/relations/${rel}`, `subject resource ${JSON.stringify(subject)} is not in the policy`);
    }
    r.derivations.forEach((d, i) => {
      const p = `${base}/derivations/${i}`;
      const subject = Object.hasOwn(r.relations, d.linked_by_relation) ? r.relations[d.linked_by_relation] : undefined;
      if (subject === undefined)
        at(`${p}/linked_by_relation`, `${JSON.stringify(d.linked_by_relation)} is not a relation of resource ${JSON.stringify(key)}`);
      else if (subject !== d.on_resource)
        at(
          `${p}/on_resource`,
          `relation ${JSON.stringify(d.linked_by_relation)} links a ${JSON.stringify(subject)}, not a ${JSON.stringify(d.on_resource)}`,
        );
      if (!rolesOf(key).has(d.role) && !Object.hasOwn(desired.roles, d.role))
        at(`${p}/role`, `${JSON.stringify(d.role)} is neither a role of ${JSON.stringify(key)} nor a tenant role`);
      if (!rolesOf(d.on_resource).has(d.from_role) && !Object.hasOwn(desired.roles, d.from_role)) {
        at(`${p}/from_role`, `${JSON.stringify(d.from_role)} is neither a role of ${JSON.stringify(d.on_resource)} nor a tenant role`);
      }
    });
  }
  for (const [k, role] of Object.entries(desired.roles)) {
    role.permissions.forEach((p, i) => {
      const [r, a] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
      if (!resourceExists(r) || !(actionsOf(r).has(a) || groupsOf(r).has(a)))
        at(`/roles/${k}/permissions/${i}`, `${JSON.stringify(p)} names no action of a resource in the policy`);
    });
    role.extends.forEach((p, i) => {
      if (!Object.hasOwn(desired.roles, p)) at(`/roles/${k}/extends/${i}`, `${JSON.stringify(p)} is not a tenant role of the policy`);
    });
  }
  return problems;
}
