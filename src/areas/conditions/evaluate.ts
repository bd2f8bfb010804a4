/**
 * The condition language of Permit's condition sets (docs/behaviour.md section 17), as one pure evaluator:
 * a condition tree and the attributes of a question in, the result and what each condition found
 * out. No `eval`, no code or Cypher built from condition text: the tree is data, walked here.
 *
 * A tree is `{}` (holds for everyone), `{allOf: [tree...]}`, `{anyOf: [tree...]}`, `{not: tree}`,
 * or a leaf `{"<namespace>.<attribute>": {"<operator>": value}}`, where the namespace is `user`,
 * `resource` or `context`, and a value may be `{ref: "<namespace>.<attribute>"}` (compared with
 * that attribute's value). What each operator answers is the truth table in docs/conditions.md;
 * the unit tests are read from that table.
 */

export const OPERATORS = [
  'equals',
  'not-equals',
  'greater-than',
  'greater-than-equals',
  'less-than',
  'less-than-equals',
  'contains',
  'not-contains',
  'in',
  'not-in',
  'array_contains',
  'array_not_contains',
  'array_subset',
  'array_superset',
  'array_intersect',
] as const;
export type Operator = (typeof OPERATORS)[number];
export const NAMESPACES = ['user', 'resource', 'context'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type AttributeBag = Record<string, unknown>;
export interface QuestionAttributes {
  user: AttributeBag;
  resource: AttributeBag;
  context: AttributeBag;
}

/** One leaf of a tree, as validation and the trace name it. */
export interface Leaf {
  /** Where in the tree: `allOf[0].anyOf[1]`. */
  path: string;
  /** `user.department` */
  attribute: string;
  operator: Operator;
  value: unknown;
}

export interface LeafTrace extends Leaf {
  /** The attribute's value found (undefined: missing). */
  actual: unknown;
  held: boolean;
}

export interface TreeProblem {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k);

/** `{ref: "user.email"}`: a value naming another attribute. */
export const refOf = (v: unknown): string | undefined =>
  isObject(v) && Object.keys(v).length === 1 && typeof v.ref === 'string' ? (v.ref as string) : undefined;

/** `user.department` -> ['user', 'department']; undefined when the namespace is unknown or the name empty. */
export function splitAttribute(name: string): [Namespace, string] | undefined {
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1) return undefined;
  const ns = name.slice(0, dot);
  return (NAMESPACES as readonly string[]).includes(ns) ? [ns as Namespace, name.slice(dot + 1)] : undefined;
}

/** Checks a tree's structure, and lists its leaves (for the type checks of the writer). */
export function leavesOf(tree: unknown, path = ''): { leaves: Leaf[]; problems: TreeProblem[] } {
  const leaves: Leaf[] = [];
  const problems: TreeProblem[] = [];
  const at = (p: string) => p || '(root)';
  const walk = (node: unknown, p: string, depth: number) => {
    if (depth > 16) return void problems.push({ path: at(p), message: 'conditions are nested deeper than 16 levels' });
    if (!isObject(node)) return void problems.push({ path: at(p), message: 'must be an object' });
    const keys = Object.keys(node);
    if (keys.length === 0) return; // {}: holds
    if (keys.length !== 1)
      return void problems.push({
        path: at(p),
        message: `must have exactly one key (allOf, anyOf, not or an attribute), found ${keys.join(', ')}`,
      });
    const [k] = keys;
    const child = (suffix: string) => (p ? `${p}.${suffix}` : suffix);
    if (k === 'allOf' || k === 'anyOf') {
      const items = node[k];
      if (!Array.isArray(items)) return void problems.push({ path: child(k), message: 'must be an array of conditions' });
      items.forEach((item, i) => walk(item, `${child(k)}[${i}]`, depth + 1));
      return;
    }
    if (k === 'not') {
      // Permit writes every logical operator with an array: `not: [c...]` negates that they all hold.
      if (Array.isArray(node.not)) return void node.not.forEach((item, i) => walk(item, `${child('not')}[${i}]`, depth + 1));
      return walk(node.not, child('not'), depth + 1);
    }
    if (!splitAttribute(k))
      return void problems.push({
        path: child(k),
        message: `"${k}" is neither allOf, anyOf, not nor an attribute named user.<key>, resource.<key> or context.<key>`,
      });
    const comparison = node[k];
    if (!isObject(comparison) || Object.keys(comparison).length !== 1)
      return void problems.push({ path: child(k), message: 'must be an object with exactly one operator, e.g. {"equals": "x"}' });
    const [op] = Object.keys(comparison);
    if (!(OPERATORS as readonly string[]).includes(op))
      return void problems.push({ path: `${child(k)}.${op}`, message: `unknown operator "${op}"; known: ${OPERATORS.join(', ')}` });
    const value = comparison[op];
    const ref = refOf(value);
    if (isObject(value) && ref === undefined && own(value, 'ref'))
      return void problems.push({ path: `${child(k)}.${op}`, message: 'a reference is {"ref": "<namespace>.<attribute>"}' });
    if (ref !== undefined && !splitAttribute(ref))
      return void problems.push({
        path: `${child(k)}.${op}`,
        message: `reference "${ref}" must name user.<key>, resource.<key> or context.<key>`,
      });
    leaves.push({ path: child(k), attribute: k, operator: op as Operator, value });
  };
  walk(tree, path, 0);
  return { leaves, problems };
}

/** The value of `user.department` in the question's attributes; undefined (missing) for null or absent. */
export function lookup(attrs: QuestionAttributes, name: string): unknown {
  const split = splitAttribute(name);
  if (!split) return undefined;
  const bag = attrs[split[0]];
  if (!bag || !own(bag, split[1])) return undefined;
  const v = bag[split[1]];
  return v === null ? undefined : v;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+)?(Z|[+-]\d{2}:?\d{2})?$/;
const timeOf = (v: unknown): number | undefined => {
  if (typeof v !== 'string' || !ISO_TIME.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
};
const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => own(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
const has = (list: unknown[], v: unknown) => list.some((x) => deepEqual(x, v));
/** Same kind: both scalars of one JS type, both arrays, or both objects. */
const sameKind = (a: unknown, b: unknown) =>
  (isScalar(a) && typeof a === typeof b) || (Array.isArray(a) && Array.isArray(b)) || (isObject(a) && isObject(b));

/** a < b as numbers, or as ISO 8601 instants; undefined when they do not compare (a type mismatch). */
function order(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ta = timeOf(a);
  const tb = timeOf(b);
  return ta !== undefined && tb !== undefined ? ta - tb : undefined;
}

/**
 * One comparison: `actual` is the attribute's value (undefined: missing), `expected` the
 * condition's value (a reference already resolved). A missing value on either side, or values
 * of kinds the operator does not compare, answer false, negated operators included.
 */
export function compare(operator: Operator, actual: unknown, expected: unknown): boolean {
  if (actual === undefined || actual === null || expected === undefined || expected === null) return false;
  switch (operator) {
    case 'equals':
      return sameKind(actual, expected) && deepEqual(actual, expected);
    case 'not-equals':
      return sameKind(actual, expected) && !deepEqual(actual, expected);
    case 'greater-than': {
      const d = order(actual, expected);
      return d !== undefined && d > 0;
    }
    case 'greater-than-equals': {
      const d = order(actual, expected);
      return d !== undefined && d >= 0;
    }
    case 'less-than': {
      const d = order(actual, expected);
      return d !== undefined && d < 0;
    }
    case 'less-than-equals': {
      const d = order(actual, expected);
      return d !== undefined && d <= 0;
    }
    case 'contains':
      return typeof actual === 'string' && typeof expected === 'string' && actual.includes(expected);
    case 'not-contains':
      return typeof actual === 'string' && typeof expected === 'string' && !actual.includes(expected);
    case 'in':
      return isScalar(actual) && Array.isArray(expected) && has(expected, actual);
    case 'not-in':
      return isScalar(actual) && Array.isArray(expected) && !has(expected, actual);
    case 'array_contains':
      return Array.isArray(actual) && !Array.isArray(expected) && has(actual, expected);
    case 'array_not_contains':
      return Array.isArray(actual) && !Array.isArray(expected) && !has(actual, expected);
    case 'array_subset':
      return Array.isArray(actual) && Array.isArray(expected) && actual.every((a) => has(expected, a));
    case 'array_superset':
      return Array.isArray(actual) && Array.isArray(expected) && expected.every((e) => has(actual, e));
    case 'array_intersect':
      return Array.isArray(actual) && Array.isArray(expected) && actual.some((a) => has(expected, a));
  }
}

/**
 * Evaluates a tree (already checked by `leavesOf` when it was written) against the question's
 * attributes: `{}` and `allOf: []` hold, `anyOf: []` does not. The trace has every leaf
 * evaluated, in order (`anyOf` and `allOf` evaluate every child, so the trace is complete).
 */
export function evaluate(tree: unknown, attrs: QuestionAttributes): { result: boolean; trace: LeafTrace[] } {
  const trace: LeafTrace[] = [];
  const walk = (node: unknown, p: string): boolean => {
    if (!isObject(node)) return false;
    const keys = Object.keys(node);
    if (keys.length === 0) return true;
    const [k] = keys;
    const child = (suffix: string) => (p ? `${p}.${suffix}` : suffix);
    if (k === 'allOf' || k === 'anyOf') {
      const items = Array.isArray(node[k]) ? (node[k] as unknown[]) : [];
      const results = items.map((item, i) => walk(item, `${child(k)}[${i}]`));
      return k === 'allOf' ? results.every(Boolean) : results.some(Boolean);
    }
    if (k === 'not') {
      if (!Array.isArray(node.not)) return !walk(node.not, child('not'));
      return !node.not.map((item, i) => walk(item, `${child('not')}[${i}]`)).every(Boolean);
    }
    const comparison = node[k];
    if (!isObject(comparison)) return false;
    const [op] = Object.keys(comparison);
    if (!(OPERATORS as readonly string[]).includes(op)) return false;
    const value = comparison[op];
    const ref = refOf(value);
    const expected = ref === undefined ? value : lookup(attrs, ref);
    const actual = lookup(attrs, k);
    const held = compare(op as Operator, actual, expected);
    trace.push({ path: child(k), attribute: k, operator: op as Operator, value, actual, held });
    return held;
  };
  const result = walk(tree, '');
  return { result, trace };
}
