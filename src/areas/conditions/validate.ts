import { ATTRIBUTE_TYPES } from './schemas';
import { type Leaf, leavesOf, type Operator, refOf, splitAttribute, type TreeProblem } from './evaluate';

/** Permit's attribute types (AttributeType of its SDKs). */
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** Attributes every user and every resource has without declaring them. */
export const BUILT_IN: Record<'user' | 'resource', Record<string, AttributeType>> = {
  user: { key: 'string', email: 'string' },
  resource: { key: 'string', tenant: 'string', type: 'string' },
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+)?(Z|[+-]\d{2}:?\d{2})?$/;
const scalarOf: Partial<Record<AttributeType, (v: unknown) => boolean>> = {
  bool: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
  time: (v) => typeof v === 'string' && ISO_TIME.test(v) && !Number.isNaN(Date.parse(v)),
};
const ORDERED: Operator[] = ['greater-than', 'greater-than-equals', 'less-than', 'less-than-equals'];

/** Whether `op` with `value` fits an attribute of `type` (the table in docs/conditions.md); a message when not. */
export function fits(type: AttributeType, op: Operator, value: unknown): string | undefined {
  const isRef = refOf(value) !== undefined;
  const scalar = scalarOf[type];
  const allowed: Operator[] =
    type === 'bool'
      ? ['equals', 'not-equals']
      : type === 'number'
        ? ['equals', 'not-equals', ...ORDERED, 'in', 'not-in']
        : type === 'string'
          ? ['equals', 'not-equals', 'contains', 'not-contains', 'in', 'not-in']
          : type === 'time'
            ? ['equals', 'not-equals', ...ORDERED]
            : type === 'array' || type === 'object_array'
              ? ['array_contains', 'array_not_contains', 'array_subset', 'array_superset', 'array_intersect']
              : ['equals', 'not-equals'];
  if (!allowed.includes(op)) return `operator "${op}" does not apply to a ${type} attribute (it takes ${allowed.join(', ')})`;
  if (isRef) return undefined;
  if (op === 'in' || op === 'not-in')
    return Array.isArray(value) && value.every((v) => scalar!(v))
      ? undefined
      : `"${op}" on a ${type} attribute needs an array of ${type} values`;
  if (op === 'array_subset' || op === 'array_superset' || op === 'array_intersect')
    return Array.isArray(value) ? undefined : `"${op}" needs an array`;
  if (op === 'array_contains' || op === 'array_not_contains')
    return value !== null && !Array.isArray(value) ? undefined : `"${op}" needs one item (not an array, not null)`;
  if (scalar)
    return scalar(value) ? undefined : `the value ${JSON.stringify(value)} is not a ${type === 'time' ? 'time (ISO 8601)' : type}`;
  return value === null ? 'the value must not be null' : undefined;
}

export interface SetSchema {
  type: 'userset' | 'resourceset';
  /** The resource set's resource type (its declared attributes in `resourceAttributes`). */
  resource: string | null;
  userAttributes: Record<string, AttributeType>;
  resourceAttributes: Record<string, AttributeType>;
}

/**
 * Every problem of a set's conditions against the declared attributes, each naming its condition
 * (`path` under `/body/conditions`): structure, undeclared attributes, operators and values that
 * do not fit the type. Context attributes are not declared: any operator and value are accepted.
 */
export function conditionProblems(tree: unknown, schema: SetSchema): TreeProblem[] {
  const { leaves, problems } = leavesOf(tree);
  const typeOf = (name: string, where: string): AttributeType | string => {
    const split = splitAttribute(name)!;
    if (split[0] === 'context') return 'context';
    if (split[0] === 'resource' && schema.type === 'userset')
      return `"${name}": a user set has no resource; resource attributes belong in a resource set`;
    const declared = split[0] === 'user' ? schema.userAttributes : schema.resourceAttributes;
    const t = Object.hasOwn(declared, split[1]) ? declared[split[1]] : BUILT_IN[split[0]][split[1]];
    if (t) return t;
    return split[0] === 'user'
      ? `${where}"${name}" is not a declared user attribute (declare it: POST .../resources/__user/attributes)`
      : `${where}"${name}" is not a declared attribute of resource "${schema.resource}"`;
  };
  const isType = (t: string): t is AttributeType => (ATTRIBUTE_TYPES as readonly string[]).includes(t);
  for (const leaf of leaves as Leaf[]) {
    const t = typeOf(leaf.attribute, '');
    if (t === 'context') {
      const ref = refOf(leaf.value);
      if (ref) {
        const rt = typeOf(ref, 'reference ');
        if (rt !== 'context' && !isType(rt)) problems.push({ path: leaf.path, message: rt });
      }
      continue;
    }
    if (!isType(t)) {
      problems.push({ path: leaf.path, message: t });
      continue;
    }
    const ref = refOf(leaf.value);
    if (ref) {
      const rt = typeOf(ref, 'reference ');
      if (rt !== 'context' && !isType(rt)) {
        problems.push({ path: leaf.path, message: rt });
        continue;
      }
    }
    const bad = fits(t, leaf.operator, leaf.value);
    if (bad) problems.push({ path: `${leaf.path}.${leaf.operator}`, message: `${leaf.attribute}: ${bad}` });
  }
  return problems;
}

/** The attributes (`user.x`, `resource.y`) a tree names, for the 409 on deleting one. */
export function attributesNamed(tree: unknown): string[] {
  const names = new Set<string>();
  for (const leaf of leavesOf(tree).leaves) {
    names.add(leaf.attribute);
    const ref = refOf(leaf.value);
    if (ref) names.add(ref);
  }
  return [...names];
}
