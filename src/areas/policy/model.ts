import { type ElementsType, LEVELS, type Level } from '../elements/schemas';
import type { PolicyFile } from './format';

/**
 * A policy as the service compares it: every default filled in (a name is its key when not
 * given, a description null), lists as sorted sets. Both the environment's schema (read from the
 * graph, managed parts left out: ./managed.ts) and a policy file become one, and the plan is the
 * difference of the two (./plan.ts).
 */
export interface RoleModel {
  name: string;
  description: string | null;
  permissions: string[];
  extends: string[];
}
export interface ActionModel {
  name: string;
  description: string | null;
}
/** An action group (docs/behaviour.md section 23): its actions a sorted set. */
export interface ActionGroupModel {
  name: string;
  description: string | null;
  actions: string[];
}
export interface DerivationModel {
  role: string;
  on_resource: string;
  from_role: string;
  linked_by_relation: string;
  no_direct_roles_on_object: boolean;
}
export interface ResourceModel {
  name: string;
  description: string | null;
  /** Canonical JSON of the attributes ('{}' when none). */
  attributes: string;
  actions: Record<string, ActionModel>;
  action_groups: Record<string, ActionGroupModel>;
  /** relation key -> subject resource key */
  relations: Record<string, string>;
  roles: Record<string, RoleModel>;
  derivations: DerivationModel[];
}
/** An elements config as a policy carries it (its webhook is not in files). */
export interface ConfigModel {
  name: string;
  elements_type: ElementsType;
  /** The governed resources, a sorted set. */
  resources: string[];
  /** Every level, each a sorted set of tenant role keys. */
  roles_to_levels: Record<Level, string[]>;
}
export interface PolicyModel {
  resources: Record<string, ResourceModel>;
  roles: Record<string, RoleModel>;
  configs: Record<string, ConfigModel>;
}

const sorted = (xs: readonly string[] | null | undefined) => [...new Set(xs ?? [])].sort();

/** JSON with object keys sorted, so that two equal attribute maps compare equal. */
export function canonicalJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sortKeys(value ?? {}));
}

export const derivationKey = (resource: string, d: Omit<DerivationModel, 'no_direct_roles_on_object'>) =>
  `${resource}#${d.role} <- ${d.on_resource}#${d.from_role} (${d.linked_by_relation})`;

const roleModel = (
  key: string,
  r: { name?: string | null; description?: string | null; permissions?: string[] | null; extends?: string[] | null },
): RoleModel => ({
  name: r.name ?? key,
  description: r.description ?? null,
  permissions: sorted(r.permissions),
  extends: sorted(r.extends),
});

/** A policy file (validated by its JSON Schema) with its defaults filled in. */
export function modelOfFile(file: PolicyFile): PolicyModel {
  const resources: Record<string, ResourceModel> = Object.create(null);
  for (const [key, r] of Object.entries(file.resources ?? {})) {
    const actions: Record<string, ActionModel> = Object.create(null);
    if (Array.isArray(r.actions)) for (const a of r.actions) actions[a] = { name: a, description: null };
    else for (const [a, b] of Object.entries(r.actions ?? {})) actions[a] = { name: b.name ?? a, description: b.description ?? null };
    const roles: Record<string, RoleModel> = Object.create(null);
    for (const [k, role] of Object.entries(r.roles ?? {})) roles[k] = roleModel(k, role);
    const groups: Record<string, ActionGroupModel> = Object.create(null);
    for (const [k, g] of Object.entries(r.action_groups ?? {}))
      groups[k] = { name: g.name ?? k, description: g.description ?? null, actions: sorted(g.actions) };
    resources[key] = {
      name: r.name ?? key,
      description: r.description ?? null,
      attributes: canonicalJson(r.attributes ?? {}),
      actions,
      action_groups: groups,
      relations: Object.assign(Object.create(null), r.relations ?? {}),
      roles,
      derivations: (r.derivations ?? []).map((d) => ({ ...d, no_direct_roles_on_object: d.when?.no_direct_roles_on_object ?? false })),
    };
  }
  const roles: Record<string, RoleModel> = Object.create(null);
  for (const [k, role] of Object.entries(file.roles ?? {})) roles[k] = roleModel(k, role);
  const configs: Record<string, ConfigModel> = Object.create(null);
  for (const [k, c] of Object.entries(file.elements_configs ?? {}))
    configs[k] = configModel(k, c.name, c.elements_type, c.settings?.resources, c.roles_to_levels);
  return { resources, roles, configs };
}

const configModel = (
  key: string,
  name: string | null | undefined,
  type: string | null | undefined,
  resources: string[] | null | undefined,
  levels: Partial<Record<string, string[]>> | null | undefined,
): ConfigModel => ({
  name: name ?? key,
  // A config written before access requests existed is an operation approval flow.
  elements_type: type === 'access_request' ? 'access_request' : 'operation_approval',
  resources: sorted(resources),
  roles_to_levels: Object.fromEntries(LEVELS.map((l) => [l, sorted(levels?.[l])])) as Record<Level, string[]>,
});

/** A proxy config as readSchema.cypher answers it (./proxyConfigs.ts). */
export interface ProxyConfigRow {
  key: string;
  name: string;
  auth_mechanism: string | null;
  mapping_rules_json: string | null;
}

/** The schema as readSchema.cypher answers it. */
export interface SchemaRows {
  resources: {
    key: string;
    name: string | null;
    description: string | null;
    actions: string[] | null;
    actions_json: string | null;
    attributes_json: string | null;
    roles: { key: string; name: string | null; description: string | null; permissions: string[] | null; extends: string[] }[];
    relations: { key: string; subject_resource: string }[];
    derivations: { role: string; on_resource: string; from_role: string; relation: string; no_direct_roles_on_object: boolean | null }[];
    action_groups: { key: string; name: string | null; description: string | null; actions: string[] | null }[];
  }[];
  roles: { key: string; name: string | null; description: string | null; permissions: string[] | null; extends: string[] }[];
  groupTypes: string[];
  governed: string[];
  configs: {
    id: string;
    key: string;
    name: string | null;
    elements_type: string | null;
    resources: string[] | null;
    roles_to_levels_json: string | null;
  }[];
  proxyConfigs: ProxyConfigRow[];
}

/** The graph's schema, everything included (managed parts are taken out by ./managed.ts). */
export function modelOfGraph(rows: SchemaRows): PolicyModel {
  const resources: Record<string, ResourceModel> = Object.create(null);
  for (const r of rows.resources) {
    const blocks = (r.actions_json ? JSON.parse(r.actions_json) : {}) as Record<string, { name?: string; description?: string | null }>;
    const actions: Record<string, ActionModel> = Object.create(null);
    for (const a of r.actions ?? []) {
      const b = Object.hasOwn(blocks, a) ? blocks[a] : {};
      actions[a] = { name: b.name ?? a, description: b.description ?? null };
    }
    const roles: Record<string, RoleModel> = Object.create(null);
    for (const role of r.roles) roles[role.key] = roleModel(role.key, role);
    const groups: Record<string, ActionGroupModel> = Object.create(null);
    for (const g of r.action_groups ?? [])
      groups[g.key] = { name: g.name ?? g.key, description: g.description ?? null, actions: sorted(g.actions) };
    resources[r.key] = {
      name: r.name ?? r.key,
      description: r.description ?? null,
      attributes: canonicalJson(r.attributes_json ? JSON.parse(r.attributes_json) : {}),
      actions,
      action_groups: groups,
      relations: Object.assign(Object.create(null), Object.fromEntries(r.relations.map((rel) => [rel.key, rel.subject_resource]))),
      roles,
      derivations: r.derivations.map((d) => ({
        role: d.role,
        on_resource: d.on_resource,
        from_role: d.from_role,
        linked_by_relation: d.relation,
        no_direct_roles_on_object: d.no_direct_roles_on_object ?? false,
      })),
    };
  }
  const roles: Record<string, RoleModel> = Object.create(null);
  for (const role of rows.roles) roles[role.key] = roleModel(role.key, role);
  const configs: Record<string, ConfigModel> = Object.create(null);
  for (const c of rows.configs)
    configs[c.key] = configModel(
      c.key,
      c.name,
      c.elements_type,
      c.resources,
      c.roles_to_levels_json ? (JSON.parse(c.roles_to_levels_json) as Partial<Record<string, string[]>>) : {},
    );
  return { resources, roles, configs };
}

/** The policy file a model writes out (export): defaults left out, so it reads like one written by hand. */
export function fileOfModel(model: PolicyModel): PolicyFile {
  const role = (key: string, r: RoleModel) => ({
    ...(r.name !== key ? { name: r.name } : {}),
    ...(r.description !== null ? { description: r.description } : {}),
    permissions: r.permissions,
    ...(r.extends.length ? { extends: r.extends } : {}),
  });
  const resources: NonNullable<PolicyFile['resources']> = {};
  for (const key of Object.keys(model.resources).sort()) {
    const r = model.resources[key];
    const plain = Object.entries(r.actions).every(([a, b]) => b.name === a && b.description === null);
    resources[key] = {
      ...(r.name !== key ? { name: r.name } : {}),
      ...(r.description !== null ? { description: r.description } : {}),
      ...(r.attributes !== '{}' ? { attributes: JSON.parse(r.attributes) as Record<string, unknown> } : {}),
      actions: plain
        ? Object.keys(r.actions).sort()
        : Object.fromEntries(
            Object.keys(r.actions)
              .sort()
              .map((a) => {
                const b = r.actions[a];
                return [
                  a,
                  { ...(b.name !== a ? { name: b.name } : {}), ...(b.description !== null ? { description: b.description } : {}) },
                ];
              }),
          ),
      ...(Object.keys(r.action_groups).length
        ? {
            action_groups: Object.fromEntries(
              Object.keys(r.action_groups)
                .sort()
                .map((k) => {
                  const g = r.action_groups[k];
                  return [
                    k,
                    {
                      ...(g.name !== k ? { name: g.name } : {}),
                      ...(g.description !== null ? { description: g.description } : {}),
                      actions: g.actions,
                    },
                  ];
                }),
            ),
          }
        : {}),
      ...(Object.keys(r.relations).length
        ? {
            relations: Object.fromEntries(
              Object.keys(r.relations)
                .sort()
                .map((k) => [k, r.relations[k]]),
            ),
          }
        : {}),
      ...(Object.keys(r.roles).length
        ? {
            roles: Object.fromEntries(
              Object.keys(r.roles)
                .sort()
                .map((k) => [k, role(k, r.roles[k])]),
            ),
          }
        : {}),
      ...(r.derivations.length
        ? {
            derivations: r.derivations.map((d) => ({
              role: d.role,
              on_resource: d.on_resource,
              from_role: d.from_role,
              linked_by_relation: d.linked_by_relation,
              ...(d.no_direct_roles_on_object ? { when: { no_direct_roles_on_object: true } } : {}),
            })),
          }
        : {}),
    };
  }
  const roles = Object.fromEntries(
    Object.keys(model.roles)
      .sort()
      .map((k) => [k, role(k, model.roles[k])]),
  );
  const configs = Object.keys(model.configs).sort();
  return {
    resources,
    roles,
    ...(configs.length
      ? {
          elements_configs: Object.fromEntries(
            configs.map((k) => {
              const c = model.configs[k];
              const levels = LEVELS.filter((l) => c.roles_to_levels[l].length);
              return [
                k,
                {
                  name: c.name,
                  elements_type: c.elements_type,
                  settings: { resources: c.resources },
                  roles_to_levels: Object.fromEntries(levels.map((l) => [l, c.roles_to_levels[l]])),
                },
              ];
            }),
          ),
        }
      : {}),
  };
}
