import type { ErrorDetail } from '../../errors';
import { ATTRIBUTE_TYPES } from '../conditions/schemas';
import { attributesNamed, conditionProblems, type AttributeType } from '../conditions/validate';
import type { PolicyFile } from './format';
import { canonicalJson, type PolicyModel } from './model';
import type { Change } from './plan';

/**
 * What a policy file carries of conditions (docs/behaviour.md section 17): the user attributes (the
 * built-in resource `__user`'s), condition sets and set rules. Resource attributes travel in each
 * resource's `attributes`. Compared as canonical values, planned as changes of kinds
 * `user_attributes`, `condition_set` and `set_rule`, written after the schema (./service.ts).
 */
export interface SetModel {
  name: string;
  description: string | null;
  type: 'userset' | 'resourceset';
  resource: string | null;
  parent: string | null;
  /** Canonical JSON of the condition tree. */
  conditions: string;
}
export interface RuleModel {
  user_set: string;
  permission: string;
  resource_set: string;
  is_role: boolean;
  is_resource: boolean;
}
export interface ConditionsModel {
  /** Canonical JSON of {key: {type, description}} ('{}' when none). */
  userAttributes: string;
  sets: Record<string, SetModel>;
  rules: Record<string, RuleModel>;
}
export interface ConditionRows {
  user_attributes: string | null;
  sets: {
    key: string;
    name: string;
    description: string | null;
    type: string;
    resource: string | null;
    parent: string | null;
    conditions_json: string;
  }[];
  rules: { key: string; user_set: string; permission: string; resource_set: string; is_role: boolean; is_resource: boolean }[];
}

export const ruleKeyOf = (r: RuleModel) =>
  `${r.is_role ? 'role:' : ''}${r.user_set}|${r.permission}|${r.is_resource ? 'resource:' : ''}${r.resource_set}`;

/** An attribute map reduced to what a file says of each: {type, description}. */
const attributesModel = (json: string | null | undefined): string => {
  const blocks = (json ? JSON.parse(json) : {}) as Record<string, { type?: string; description?: string | null }>;
  const out: Record<string, { type: string; description: string | null }> = {};
  for (const [k, b] of Object.entries(blocks))
    if (b && typeof b.type === 'string') out[k] = { type: b.type, description: b.description ?? null };
  return canonicalJson(out);
};

export function conditionsOfGraph(rows: ConditionRows): ConditionsModel {
  const sets: Record<string, SetModel> = Object.create(null);
  for (const s of rows.sets)
    sets[s.key] = {
      name: s.name,
      description: s.description ?? null,
      type: s.type === 'resourceset' ? 'resourceset' : 'userset',
      resource: s.resource ?? null,
      parent: s.parent ?? null,
      conditions: canonicalJson(JSON.parse(s.conditions_json)),
    };
  const rules: Record<string, RuleModel> = Object.create(null);
  for (const r of rows.rules)
    rules[r.key] = {
      user_set: r.user_set,
      permission: r.permission,
      resource_set: r.resource_set,
      is_role: !!r.is_role,
      is_resource: !!r.is_resource,
    };
  return { userAttributes: attributesModel(rows.user_attributes), sets, rules };
}

export function conditionsOfFile(file: PolicyFile): ConditionsModel {
  const sets: Record<string, SetModel> = Object.create(null);
  for (const [key, s] of Object.entries(file.condition_sets ?? {}))
    sets[key] = {
      name: s.name ?? key,
      description: s.description ?? null,
      type: s.type ?? 'userset',
      resource: s.resource ?? null,
      parent: s.parent ?? null,
      conditions: canonicalJson(s.conditions ?? {}),
    };
  const rules: Record<string, RuleModel> = Object.create(null);
  for (const r of file.set_rules ?? []) {
    const m = {
      user_set: r.user_set,
      permission: r.permission,
      resource_set: r.resource_set,
      is_role: r.is_role ?? false,
      is_resource: r.is_resource ?? false,
    };
    rules[ruleKeyOf(m)] = m;
  }
  return { userAttributes: attributesModel(JSON.stringify(file.user_attributes ?? {})), sets, rules };
}

/** The file's sections (only those with content, so a file without conditions stays as it was). */
export function fileSectionsOf(m: ConditionsModel): Pick<PolicyFile, 'user_attributes' | 'condition_sets' | 'set_rules'> {
  const out: Pick<PolicyFile, 'user_attributes' | 'condition_sets' | 'set_rules'> = {};
  const attrs = JSON.parse(m.userAttributes) as Record<string, { type: AttributeType; description: string | null }>;
  if (Object.keys(attrs).length)
    out.user_attributes = Object.fromEntries(
      Object.entries(attrs).map(([k, a]) => [k, a.description === null ? { type: a.type } : { type: a.type, description: a.description }]),
    );
  if (Object.keys(m.sets).length)
    out.condition_sets = Object.fromEntries(
      Object.entries(m.sets).map(([k, s]) => [
        k,
        {
          name: s.name,
          ...(s.description === null ? {} : { description: s.description }),
          type: s.type,
          ...(s.resource === null ? {} : { resource: s.resource }),
          ...(s.parent === null ? {} : { parent: s.parent }),
          conditions: JSON.parse(s.conditions),
        },
      ]),
    );
  if (Object.keys(m.rules).length)
    out.set_rules = Object.values(m.rules).map((r) => ({
      user_set: r.user_set,
      permission: r.permission,
      resource_set: r.resource_set,
      ...(r.is_role ? { is_role: true } : {}),
      ...(r.is_resource ? { is_resource: true } : {}),
    }));
  return out;
}

/** The changes from the graph's conditions to the file's. */
export function planConditions(have: ConditionsModel, want: ConditionsModel): Change[] {
  const out: Change[] = [];
  if (have.userAttributes !== want.userAttributes) out.push({ op: 'update', kind: 'user_attributes', key: '__user' });
  for (const [k, s] of Object.entries(want.sets)) {
    const h = Object.hasOwn(have.sets, k) ? have.sets[k] : undefined;
    if (!h) out.push({ op: 'create', kind: 'condition_set', key: k });
    else if (h.type !== s.type || h.resource !== s.resource) {
      out.push({ op: 'delete', kind: 'condition_set', key: k });
      out.push({ op: 'create', kind: 'condition_set', key: k });
    } else {
      const fields = (['name', 'description', 'parent', 'conditions'] as const).filter((f) => h[f] !== s[f]);
      if (fields.length) out.push({ op: 'update', kind: 'condition_set', key: k, fields: [...fields] });
    }
  }
  for (const k of Object.keys(have.sets)) if (!Object.hasOwn(want.sets, k)) out.push({ op: 'delete', kind: 'condition_set', key: k });
  for (const k of Object.keys(want.rules)) if (!Object.hasOwn(have.rules, k)) out.push({ op: 'create', kind: 'set_rule', key: k });
  for (const k of Object.keys(have.rules)) if (!Object.hasOwn(want.rules, k)) out.push({ op: 'delete', kind: 'set_rule', key: k });
  return out;
}

const typesOf = (canonical: string): Record<string, AttributeType> =>
  Object.fromEntries(
    Object.entries(JSON.parse(canonical) as Record<string, { type: string }>)
      .filter(([, a]) => (ATTRIBUTE_TYPES as readonly string[]).includes(a.type))
      .map(([k, a]) => [k, a.type as AttributeType]),
  );

/** What the file's conditions name must exist in the file (and fit the declared types): one entry per problem. */
export function conditionsProblems(want: ConditionsModel, schema: PolicyModel): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const userAttributes = typesOf(want.userAttributes);
  for (const [k, s] of Object.entries(want.sets)) {
    const at = `/body/condition_sets/${k}`;
    if (s.type === 'resourceset' && (s.resource === null || !Object.hasOwn(schema.resources, s.resource)))
      out.push({ path: `${at}/resource`, message: `a resource set needs a resource of the file (got ${JSON.stringify(s.resource)})` });
    if (s.parent !== null) {
      const p = Object.hasOwn(want.sets, s.parent) ? want.sets[s.parent] : undefined;
      if (!p || p.type !== s.type || p.resource !== s.resource)
        out.push({ path: `${at}/parent`, message: `"${s.parent}" is not a set of the same type and resource in the file` });
    }
    const resourceAttributes =
      s.resource && Object.hasOwn(schema.resources, s.resource) ? typesOf(schema.resources[s.resource].attributes) : {};
    for (const p of conditionProblems(JSON.parse(s.conditions), { type: s.type, resource: s.resource, userAttributes, resourceAttributes }))
      out.push({ path: `${at}/conditions/${p.path}`, message: p.message });
  }
  // Parents form no cycle.
  for (const k of Object.keys(want.sets)) {
    const seen = new Set<string>();
    for (let s: string | null = k; s !== null && Object.hasOwn(want.sets, s); s = want.sets[s].parent) {
      if (seen.has(s)) {
        out.push({ path: `/body/condition_sets/${k}/parent`, message: 'the parents form a cycle' });
        break;
      }
      seen.add(s);
    }
  }
  Object.values(want.rules).forEach((r, i) => {
    const at = `/body/set_rules/${i}`;
    const [resource, action] = r.permission.split(':');
    const res = Object.hasOwn(schema.resources, resource) ? schema.resources[resource] : undefined;
    if (!res || !action || !Object.hasOwn(res.actions, action))
      out.push({ path: `${at}/permission`, message: `"${r.permission}" is not an action of a resource of the file` });
    if (r.is_role ? !Object.hasOwn(schema.roles, r.user_set) : want.sets[r.user_set]?.type !== 'userset')
      out.push({ path: `${at}/user_set`, message: `"${r.user_set}" is not a ${r.is_role ? 'tenant role' : 'user set'} of the file` });
    if (
      r.is_resource
        ? r.resource_set !== resource
        : want.sets[r.resource_set]?.type !== 'resourceset' || want.sets[r.resource_set].resource !== resource
    )
      out.push({
        path: `${at}/resource_set`,
        message: `"${r.resource_set}" is not a ${r.is_resource ? "the permission's resource type" : `resource set over "${resource}"`}`,
      });
  });
  return out;
}

/**
 * The attributes a file retypes or removes that condition sets name, where the environment has
 * those sets and the file keeps them: per resource (`__user` for the user attributes), the
 * attributes and the sets. As the attribute routes answer 409 for such a change, apply refuses it
 * unless prune (./service.ts). (A removal that a kept set still names never gets here: the file's
 * conditions are checked against its own attributes first, 422.)
 */
export function attributesInUse(
  have: ConditionsModel,
  want: ConditionsModel,
  current: PolicyModel,
  desired: PolicyModel,
): { resource: string; attributes: string[]; sets: string[] }[] {
  const out: { resource: string; attributes: string[]; sets: string[] }[] = [];
  const attributesOf = (m: PolicyModel, r: string) => (Object.hasOwn(m.resources, r) ? m.resources[r].attributes : '{}');
  const kept = Object.keys(have.sets).filter((k) => Object.hasOwn(want.sets, k));
  const resources = [...new Set([USER, ...Object.keys(current.resources)])];
  for (const resource of resources) {
    const was = typesOf(resource === USER ? have.userAttributes : attributesOf(current, resource));
    const next = typesOf(resource === USER ? want.userAttributes : attributesOf(desired, resource));
    const changed = Object.keys(was).filter((k) => !Object.hasOwn(next, k) || next[k] !== was[k]);
    if (!changed.length) continue;
    const named = (k: string) =>
      (resource === USER ? changed.map((a) => `user.${a}`) : changed.map((a) => `resource.${a}`)).filter((a) =>
        attributesNamed(JSON.parse(have.sets[k].conditions)).includes(a),
      );
    const sets = kept.filter((k) => (resource === USER || have.sets[k].resource === resource) && named(k).length > 0);
    if (sets.length)
      out.push({
        resource,
        attributes: changed.filter((a) => sets.some((k) => named(k).includes(`${resource === USER ? 'user' : 'resource'}.${a}`))),
        sets,
      });
  }
  return out;
}
const USER = '__user';

/** Sets ordered parents first (for creating), or children first (reversed, for deleting). */
export function parentsFirst(sets: Record<string, SetModel>, keys: string[]): string[] {
  const depth = (k: string) => {
    let d = 0;
    for (let s = sets[k]; s?.parent && d < 100; s = sets[s.parent]) d++;
    return d;
  };
  return [...keys].sort((a, b) => depth(a) - depth(b));
}
