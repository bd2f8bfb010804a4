import { mulberry32 } from './graphs';

/**
 * Random ABAC worlds for the conditions oracle (docs/behaviour.md section 17): attribute schemas on users
 * and documents, user sets and resource sets (Permit's condition language: allOf / anyOf / not
 * groups over comparisons of `user.*`, `resource.*` and `context.*` attributes, `parent_id`
 * narrowing), set rules (is_role ones too), three tenant roles beside them (lead extends
 * reader), users and documents with random attributes (some missing), and questions that
 * sometimes send attributes and context.
 *
 * The same world is written for SpiceDB (the reference) as caveats in CEL. Every attribute is
 * passed to SpiceDB as two parameters, its value and whether it is present, so that the truth
 * table of docs/conditions.md (a comparison on a missing attribute is false, a negated one too;
 * `not` negates what its group answered) is written out in the caveat rather than left to CEL's
 * partial evaluation.
 */

type AttrType = 'string' | 'number' | 'bool' | 'array';
type Scope = 'user' | 'resource' | 'context';
interface AttrDef {
  scope: Scope;
  key: string;
  type: AttrType;
  /** Values drawn for users, documents or contexts. */
  values: unknown[];
}

export const ATTRIBUTES: AttrDef[] = [
  { scope: 'user', key: 'department', type: 'string', values: ['engineering', 'sales', 'ops'] },
  { scope: 'user', key: 'clearance', type: 'number', values: [1, 2, 3, 4, 5] },
  { scope: 'user', key: 'groups', type: 'array', values: [[], ['a'], ['b'], ['a', 'b'], ['b', 'c'], ['a', 'b', 'c']] },
  { scope: 'user', key: 'active', type: 'bool', values: [true, false] },
  { scope: 'resource', key: 'classification', type: 'string', values: ['public', 'internal', 'secret'] },
  { scope: 'resource', key: 'level', type: 'number', values: [0, 1, 2, 3, 4, 5] },
  { scope: 'resource', key: 'tags', type: 'array', values: [[], ['x'], ['y'], ['x', 'z'], ['x', 'y', 'z']] },
  { scope: 'resource', key: 'archived', type: 'bool', values: [true, false] },
  { scope: 'context', key: 'zone', type: 'string', values: ['office', 'home', 'vpn'] },
  { scope: 'context', key: 'mfa', type: 'bool', values: [true, false] },
];

/** A condition in Permit's language: a group `{allOf|anyOf|not: [...]}` or a comparison `{"user.clearance": {"greater-than": 3}}`. */
export type Condition = { [group: string]: Condition[] } | { [attribute: string]: { [operator: string]: unknown } };

export interface ConditionSet {
  key: string;
  type: 'userset' | 'resourceset';
  parent?: string;
  conditions: Condition;
}
/** The tenant roles of every world: lead has no permission of its own and extends reader. */
export const ROLES = ['reader', 'editor', 'lead'] as const;
export type Role = (typeof ROLES)[number];
export interface SetRule {
  /** A user set's key, or with is_role a tenant role's. */
  user_set: string;
  action: 'read' | 'write';
  resource_set: string;
  /** Permit's is_role form: the users holding the role `user_set`, or a role extending it. */
  is_role?: boolean;
}
export interface Question {
  user: string;
  action: 'read' | 'write';
  doc: string;
  /** Attributes sent with the question, over the stored ones. */
  userAttributes?: Record<string, unknown>;
  resourceAttributes?: Record<string, unknown>;
  context?: Record<string, unknown>;
}
export interface World {
  index: number;
  users: { key: string; attributes: Record<string, unknown>; roles: Role[] }[];
  docs: { key: string; attributes: Record<string, unknown> }[];
  sets: ConditionSet[];
  rules: SetRule[];
  questions: Question[];
  /** Every user, document and action once, with nothing sent: the reference for lists (stored attributes, no context). */
  plain: Question[];
}

const byScope = (scope: Scope) => ATTRIBUTES.filter((a) => a.scope === scope);

export function generateWorld(seed: number, index: number): World {
  const rnd = mulberry32(seed * 7919 + index);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const some = <T>(xs: readonly T[], p: number) => xs.filter(() => rnd() < p);
  const attributesOf = (scope: Scope, present: number) =>
    Object.fromEntries(some(byScope(scope), present).map((a) => [a.key, pick(a.values)]));

  const comparison = (scopes: Scope[]): Condition => {
    const a = pick(ATTRIBUTES.filter((x) => scopes.includes(x.scope)));
    const ref = `${a.scope}.${a.key}`;
    switch (a.type) {
      case 'string': {
        const op = pick(['equals', 'not-equals', 'contains']);
        const value = op === 'contains' ? pick(['en', 'al', 'o', 'ret', 'zz']) : pick(a.values);
        return { [ref]: { [op]: value } };
      }
      case 'number':
        return {
          [ref]: { [pick(['equals', 'not-equals', 'greater-than', 'greater-than-equals', 'less-than', 'less-than-equals'])]: int(0, 5) },
        };
      case 'bool':
        return { [ref]: { [pick(['equals', 'not-equals'])]: rnd() < 0.5 } };
      case 'array': {
        const universe = a.key === 'groups' ? ['a', 'b', 'c'] : ['x', 'y', 'z'];
        return rnd() < 0.6
          ? { [ref]: { array_contains: pick(universe) } }
          : { [ref]: { array_intersect: some(universe, 0.5).length ? some(universe, 0.5) : [pick(universe)] } };
      }
    }
  };
  const group = (scopes: Scope[], depth: number): Condition => {
    const kind = depth === 0 ? pick(['allOf', 'anyOf']) : pick(['allOf', 'anyOf', 'not']);
    const n = kind === 'not' ? 1 : int(1, 3);
    const items = Array.from({ length: n }, () => (depth < 1 && rnd() < 0.35 ? group(scopes, depth + 1) : comparison(scopes)));
    return { [kind]: items };
  };

  const sets: ConditionSet[] = [];
  for (const type of ['userset', 'resourceset'] as const) {
    const own: Scope = type === 'userset' ? 'user' : 'resource';
    for (let i = 0; i < int(2, 4); i++) {
      // A set of either kind may also look at the context (a request from the office, with MFA).
      const scopes: Scope[] = rnd() < 0.3 ? [own, 'context'] : [own];
      const earlier = sets.filter((s) => s.type === type);
      const parent = earlier.length && rnd() < 0.3 ? pick(earlier).key : undefined;
      sets.push({ key: `${type === 'userset' ? 'us' : 'rs'}${index}_${i}`, type, parent, conditions: group(scopes, 0) });
    }
  }
  const usersets = sets.filter((s) => s.type === 'userset');
  const resourcesets = sets.filter((s) => s.type === 'resourceset');
  const rules = new Map<string, SetRule>();
  for (let i = 0; i < int(2, 6); i++) {
    const r: SetRule = { user_set: pick(usersets).key, action: pick(['read', 'write'] as const), resource_set: pick(resourcesets).key };
    rules.set(`${r.user_set}|${r.action}|${r.resource_set}`, r);
  }
  // is_role rules: the holders of a tenant role on a resource set. Mostly reader's, mostly write:
  // lead holds reader through extends, and reader's own permissions already give read.
  for (let i = 0; i < int(1, 2); i++) {
    const r: SetRule = {
      user_set: pick(['reader', 'reader', 'editor', 'lead'] as const),
      action: rnd() < 0.7 ? 'write' : 'read',
      resource_set: pick(resourcesets).key,
      is_role: true,
    };
    rules.set(`role:${r.user_set}|${r.action}|${r.resource_set}`, r);
  }

  const users = Array.from({ length: int(5, 9) }, (_, i) => ({
    key: `w${index}_u${i}`,
    attributes: attributesOf('user', 0.8),
    roles: some(ROLES, 0.15),
  }));
  const docs = Array.from({ length: int(5, 10) }, (_, i) => ({ key: `w${index}_d${i}`, attributes: attributesOf('resource', 0.8) }));
  const questions: Question[] = [];
  for (const u of users) {
    for (const d of docs) {
      for (const action of ['read', 'write'] as const) {
        const q: Question = { user: u.key, action, doc: d.key };
        if (rnd() < 0.7) q.context = attributesOf('context', 0.7);
        if (rnd() < 0.15) q.userAttributes = attributesOf('user', 0.4);
        if (rnd() < 0.15) q.resourceAttributes = attributesOf('resource', 0.4);
        questions.push(q);
      }
    }
  }
  const plain = users.flatMap((u) =>
    docs.flatMap((d) => (['read', 'write'] as const).map((action) => ({ user: u.key, action, doc: d.key }))),
  );
  return { index, users, docs, sets, rules: [...rules.values()], questions, plain };
}

// ---- The reference: the world in SpiceDB, caveats in CEL ----

const param = (scope: Scope, key: string) => `${scope === 'resource' ? 'r' : scope[0]}_${key}`;
const CEL_TYPES: Record<AttrType, string> = { string: 'string', number: 'double', bool: 'bool', array: 'list<string>' };
const celValue = (v: unknown): string =>
  typeof v === 'number' ? Number(v).toFixed(1) : Array.isArray(v) ? `[${v.map(celValue).join(', ')}]` : JSON.stringify(v);

function celOf(c: Condition): string {
  const [key, body] = Object.entries(c)[0];
  if (key === 'allOf' || key === 'anyOf' || key === 'not') {
    // `not` takes a tree or, as Permit's other groups, an array of them (negating that they all hold).
    const items = (Array.isArray(body) ? body : [body]).map((x) => celOf(x as Condition));
    if (key === 'not') return `!(${items.join(' && ')})`;
    return `(${items.join(key === 'allOf' ? ' && ' : ' || ')})`;
  }
  const [scope, attr] = key.split('.') as [Scope, string];
  const p = param(scope, attr);
  const [op, value] = Object.entries(body as Record<string, unknown>)[0];
  const test = {
    equals: `${p} == ${celValue(value)}`,
    'not-equals': `${p} != ${celValue(value)}`,
    'greater-than': `${p} > ${celValue(value)}`,
    'greater-than-equals': `${p} >= ${celValue(value)}`,
    'less-than': `${p} < ${celValue(value)}`,
    'less-than-equals': `${p} <= ${celValue(value)}`,
    contains: `${p}.contains(${celValue(value)})`,
    array_contains: `${celValue(value)} in ${p}`,
    array_intersect: `${p}.exists(x, x in ${celValue(value)})`,
  }[op];
  if (!test) throw new Error(`the oracle does not model operator ${op}`);
  return `(${p}__set && ${test})`;
}

/** A set's membership: its own conditions and its parents' (a set narrows its parent). */
function membership(world: World, key: string): string {
  const s = world.sets.find((x) => x.key === key)!;
  const own = celOf(s.conditions);
  return s.parent ? `(${membership(world, s.parent)} && ${own})` : own;
}

/** A world as test/oracle/spicedb-caveats.mjs takes it. */
export interface SpiceWorld {
  schema: string;
  relationships: { object: string; relation: string; subject: string; caveat?: string }[];
  questions: { instance: string; permission: string; user: string; context: Record<string, unknown> }[];
}

export function spicedbWorld(world: World): SpiceWorld {
  // SpiceDB refuses a caveat parameter its expression does not use: each declares its own.
  const paramsOf = (expression: string) =>
    ATTRIBUTES.flatMap((a) => {
      const p = param(a.scope, a.key);
      return new RegExp(`\\b${p}__set\\b`).test(expression) ? [`${p} ${CEL_TYPES[a.type]}`, `${p}__set bool`] : [];
    }).join(', ');
  const caveats = world.rules.map((r, i) => {
    const expression = r.is_role
      ? membership(world, r.resource_set)
      : `${membership(world, r.user_set)} && ${membership(world, r.resource_set)}`;
    return `caveat rule${i}(${paramsOf(expression)}) {\n  ${expression}\n}`;
  });
  const ruleRelations = world.rules.map((_, i) => `  relation rule${i}: user:* with rule${i}`);
  // An is_role rule grants to the holders of its role: holds_<role> (lead extends reader).
  const granting = (action: string) =>
    world.rules.flatMap((r, i) => (r.action !== action ? [] : r.is_role ? [`(holds_${r.user_set} & rule${i})`] : [`rule${i}`]));
  const schema = `${caveats.join('\n')}
definition user {}
definition doc {
  relation reader_role: user
  relation editor_role: user
  relation lead_role: user
${ruleRelations.join('\n')}
  permission holds_reader = reader_role + lead_role
  permission holds_editor = editor_role
  permission holds_lead = lead_role
  permission read = ${['holds_reader', 'editor_role', ...granting('read')].join(' + ')}
  permission write = ${['editor_role', ...granting('write')].join(' + ')}
}`;
  const relationships = world.docs.flatMap((d) => [
    ...world.users.flatMap((u) => u.roles.map((role) => ({ object: `doc:${d.key}`, relation: `${role}_role`, subject: `user:${u.key}` }))),
    ...world.rules.map((_, i) => ({ object: `doc:${d.key}`, relation: `rule${i}`, subject: 'user:*', caveat: `rule${i}` })),
  ]);
  const contextOf = (q: Question) => {
    const user = { ...world.users.find((u) => u.key === q.user)!.attributes, ...q.userAttributes };
    const resource = { ...world.docs.find((d) => d.key === q.doc)!.attributes, ...q.resourceAttributes };
    const values: Record<Scope, Record<string, unknown>> = { user, resource, context: q.context ?? {} };
    const zero: Record<AttrType, unknown> = { string: '', number: 0, bool: false, array: [] };
    return Object.fromEntries(
      ATTRIBUTES.flatMap((a) => {
        const has = Object.hasOwn(values[a.scope], a.key);
        return [
          [param(a.scope, a.key), has ? values[a.scope][a.key] : zero[a.type]],
          [`${param(a.scope, a.key)}__set`, has],
        ];
      }),
    );
  };
  const questions = [...world.questions, ...world.plain].map((q) => ({
    instance: `doc:${q.doc}`,
    permission: q.action,
    user: q.user,
    context: contextOf(q),
  }));
  return { schema, relationships, questions };
}

// ---- The truth table of docs/conditions.md, row by row, as SpiceDB caveats ----

type CelType = 'string' | 'double' | 'bool' | 'list<string>';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const celTypeOf = (v: unknown): CelType | null =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'number'
      ? 'double'
      : typeof v === 'boolean'
        ? 'bool'
        : Array.isArray(v) && v.every((x) => typeof x === 'string')
          ? 'list<string>'
          : null;

/**
 * One row of the truth table (operator, the attribute's value or undefined when missing, the
 * condition's value) as a CEL test over the caveat parameter `a` (and `a__set`, whether the
 * attribute is there: a missing attribute makes the leaf false, negated operators included, as
 * the worlds' caveats write it). Null when CEL cannot say it: the values' kinds differ (CEL is
 * typed; the table answers false there), a value CEL has no type for here (an object), or an
 * order between strings that are not both ISO 8601 instants.
 */
export function celOfRow(op: string, attribute: unknown, value: unknown): { type: CelType; test: string } | null {
  const missing = attribute === undefined;
  const list = (t: CelType | null) => (Array.isArray(value) && value.every((x) => celTypeOf(x) === t) ? t : null);
  const v = celValue(value);
  switch (op) {
    case 'equals':
    case 'not-equals': {
      const type = celTypeOf(value);
      if (!type || (!missing && celTypeOf(attribute) !== type)) return null;
      return { type, test: `a ${op === 'equals' ? '==' : '!='} ${v}` };
    }
    case 'greater-than':
    case 'greater-than-equals':
    case 'less-than':
    case 'less-than-equals': {
      const sign = { 'greater-than': '>', 'greater-than-equals': '>=', 'less-than': '<', 'less-than-equals': '<=' }[op];
      if (typeof value === 'number' && (missing || typeof attribute === 'number')) return { type: 'double', test: `a ${sign} ${v}` };
      const instant = (x: unknown) => typeof x === 'string' && ISO_INSTANT.test(x);
      if (instant(value) && (missing || instant(attribute))) return { type: 'string', test: `timestamp(a) ${sign} timestamp(${v})` };
      return null;
    }
    case 'contains':
    case 'not-contains':
      if (typeof value !== 'string' || (!missing && typeof attribute !== 'string')) return null;
      return { type: 'string', test: `${op === 'contains' ? '' : '!'}a.contains(${v})` };
    case 'in':
    case 'not-in': {
      const type = missing ? (list('string') ?? list('double')) : list(celTypeOf(attribute));
      if (!type || type === 'list<string>' || !Array.isArray(value)) return null;
      return { type, test: `${op === 'in' ? '' : '!'}(a in ${v})` };
    }
    case 'array_contains':
    case 'array_not_contains':
      if (typeof value !== 'string' || (!missing && celTypeOf(attribute) !== 'list<string>')) return null;
      return { type: 'list<string>', test: `${op === 'array_contains' ? '' : '!'}(${v} in a)` };
    case 'array_subset':
    case 'array_superset':
    case 'array_intersect': {
      if (celTypeOf(value) !== 'list<string>' || (!missing && celTypeOf(attribute) !== 'list<string>')) return null;
      const test = {
        array_subset: `a.all(x, x in ${v})`,
        array_superset: `${v}.all(x, x in a)`,
        array_intersect: `a.exists(x, x in ${v})`,
      }[op];
      return { type: 'list<string>', test };
    }
    default:
      return null;
  }
}

/**
 * The truth table's rows that CEL can say, as one SpiceDB world: a caveat and a caveated relation
 * per row, one question per row with the row's attribute in the context. `rows[i]` is the table's
 * row behind `questions[i]` (its expected answer is the row's result).
 */
export function truthTableWorld(table: string[][], cellValue: (cell: string) => unknown) {
  const rows = table.flatMap(([op, attribute, value, result]) => {
    const cel = celOfRow(op, cellValue(attribute), cellValue(value));
    return cel ? [{ op, attribute: cellValue(attribute), value: cellValue(value), result: result === 'true', cel }] : [];
  });
  const zero: Record<CelType, unknown> = { string: '', double: 0, bool: false, 'list<string>': [] };
  const schema = `${rows.map((r, i) => `caveat row${i}(a ${r.cel.type}, a__set bool) {\n  a__set && ${r.cel.test}\n}`).join('\n')}
definition user {}
definition doc {
${rows.map((_, i) => `  relation row${i}: user:* with row${i}`).join('\n')}
}`;
  const world: SpiceWorld = {
    schema,
    relationships: rows.map((_, i) => ({ object: 'doc:table', relation: `row${i}`, subject: 'user:*', caveat: `row${i}` })),
    questions: rows.map((r, i) => ({
      instance: 'doc:table',
      permission: `row${i}`,
      user: 'u',
      context: { a: r.attribute === undefined ? zero[r.cel.type] : r.attribute, a__set: r.attribute !== undefined },
    })),
  };
  return { rows, world };
}
