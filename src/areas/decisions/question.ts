/**
 * One question type for every decision endpoint (docs/decisions.md): `/allowed` and its bulk,
 * explain, all-tenants, user-permissions, authorized users, list-objects, the console's "Why?",
 * the approvals' reviewer checks. Each route turns its body into a `Question` (or the parts of one
 * an enumeration takes) here, once, at its boundary; nothing below it reads a request body.
 */
export type Bag = Record<string, unknown>;

/**
 * Without `consistency` (and with `fully_consistent` or `{at_least}`) an answer includes every
 * write acknowledged by any replica before the question arrived (read-your-revoke,
 * docs/consistency.md). `minimize_latency`, only when asked for, may answer from a state up to
 * REVISION_POLL_MS old. `fully_consistent` never uses the cache.
 */
export type Consistency = 'minimize_latency' | 'fully_consistent' | { at_least: string };

/** A user as requests name one: a key, or Permit's user object (its `attributes` overlay the stored ones). */
export type UserRef = string | { key: string; attributes?: Bag | null };

/** A resource as requests name one: `id` is Permit's other name for the instance's key (its SDKs send either). */
export interface ResourceRef {
  type: string;
  key?: string | null;
  id?: string | null;
  tenant?: string | null;
  attributes?: Bag | null;
  context?: Bag | null;
}

/** What a check request carries (`/allowed`, bulk items, all-tenants, authorized users' resource part). */
export interface QuestionBody {
  user: UserRef;
  action: string;
  resource: ResourceRef;
  context?: Bag | null;
  consistency?: Consistency;
}

/** The user a question is about: its key and the attributes sent with it (null: none sent). */
export interface Asker {
  user: string;
  userAttributes: Bag | null;
}

/**
 * A permission question, normalised: the user with the attributes it sent, the action, the
 * resource (by key, or a type alone when `key` is null; `tenant` narrows) with the attributes it
 * sent, and the context (the resource's `context` overlaid by the question's).
 */
export interface Question extends Asker {
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  resourceAttributes: Bag | null;
  context: Bag;
}

/** The users allowed an action on a resource (authorized users), with what grants each. */
export interface UsersQuery {
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  resourceAttributes: Bag | null;
  context: Bag;
}
/** The instances of a type a user may act on (list-objects): one page in key order. */
export interface ObjectsQuery extends Asker {
  action: string;
  type: string;
  tenant: string | null;
  after: string | null;
  limit: number;
  context: Bag;
}
/** What a user may do (user-permissions): `resources` names types (`"doc"`) or instances (`"doc:a"`); null: all. */
export interface PermissionsQuery extends Asker {
  tenants: string[] | null;
  resources: string[] | null;
  context: Bag;
}
export const askerOf = (u: UserRef): Asker =>
  typeof u === 'string' ? { user: u, userAttributes: null } : { user: u.key, userAttributes: u.attributes ?? null };

/** The instance a request names: by `key`, else by `id`. */
export const instanceKeyOf = (resource: { key?: string | null; id?: string | null }): string | null => resource.key ?? resource.id ?? null;

const contextOf = (resource: ResourceRef | undefined, context: Bag | null | undefined): Bag =>
  resource?.context || context ? Object.assign({}, resource?.context, context) : {};

/**
 * Every question is built field by field, never as `{ ...askerOf(user), action, ... }`: on Node
 * 20's V8 a literal that spreads an object and then adds properties costs microseconds, a
 * hundred times a plain literal (docs/benchmarks.md, "Object spreads"); a bulk makes 100.
 */
export function questionOf(b: QuestionBody): Question {
  const u = b.user;
  return {
    user: typeof u === 'string' ? u : u.key,
    userAttributes: typeof u === 'string' ? null : (u.attributes ?? null),
    action: b.action,
    type: b.resource.type,
    key: instanceKeyOf(b.resource),
    tenant: b.resource.tenant ?? null,
    resourceAttributes: b.resource.attributes ?? null,
    context: contextOf(b.resource, b.context),
  };
}

/** The context a request sends outside a resource (user-permissions, list-objects). */
export const plainContextOf = (context: Bag | null | undefined): Bag => contextOf(undefined, context);

/** Whether a question sent attributes or context: then the conditions read them. */
export const sendsValues = (q: Question): boolean =>
  q.userAttributes !== null || q.resourceAttributes !== null || Object.keys(q.context).length > 0;

/**
 * The consistency a batch of questions is answered at: `fully_consistent` if one asks it, else the
 * largest `at_least` token (the answers include every write any of them has seen), else
 * `minimize_latency` when every question asks it, else none (the default).
 */
export function strictest(cs: (Consistency | undefined)[]): Consistency | undefined {
  if (cs.includes('fully_consistent')) return 'fully_consistent';
  const tokens = cs
    .flatMap((c) => (typeof c === 'object' ? [c] : []))
    .sort((a, b) => (Number(b.at_least) || 0) - (Number(a.at_least) || 0));
  return tokens[0] ?? (cs.length > 0 && cs.every((c) => c === 'minimize_latency') ? 'minimize_latency' : undefined);
}

/** Authorized users' request: the resource and action of a question, its resource attributes and context. */
export function usersQueryOf(b: { action: string; resource: ResourceRef; context?: Bag | null }): UsersQuery {
  const q = questionOf({ user: '', action: b.action, resource: b.resource, context: b.context });
  return { action: q.action, type: q.type, key: q.key, tenant: q.tenant, resourceAttributes: q.resourceAttributes, context: q.context };
}

/** User-permissions' request: `resources` and `resource_types` together (null when neither names anything). */
export function permissionsQueryOf(b: {
  user: UserRef;
  tenants?: string[] | null;
  resources?: string[] | null;
  resource_types?: string[] | null;
  context?: Bag | null;
}): PermissionsQuery {
  const wanted = [...(b.resources ?? []), ...(b.resource_types ?? [])];
  const { user, userAttributes } = askerOf(b.user);
  return {
    user,
    userAttributes,
    tenants: b.tenants?.length ? b.tenants : null,
    resources: wanted.length ? wanted : null,
    context: plainContextOf(b.context),
  };
}
