/**
 * Change events (CONTRACT section 12) told from each write statement's name, parameters and
 * answer, so that no statement has to call anything to be recorded. The conventions:
 *
 * - The verb the statement's name starts with is the operation (`OPS`: delete, remove, unassign,
 *   detach ... delete; update, replace, set ... update; create, add, assign ... create); the rest
 *   of the name is the record kind (`KIND_NAMES`, `KIND_OF_STATEMENT` where the name says another).
 * - A list column `changed` of `{before?, after?, key?, kind?}`: one event per element, with the
 *   element's states (the statement reads each record before it changes it). `key` defaults to
 *   the key of the state (`after`, else `before`), `kind` to the statement's; an empty list is
 *   no change. Bulk deletes (`before` only) and bulk replaces (`before` absent for a record the
 *   statement created) answer this, next to the count their callers read:
 *   `RETURN size(found) AS removed, [f IN found | {key: f.key, before: f.before}] AS changed`.
 * - Else a list column `deleted`: one delete event per element, the element being its `before`.
 * - Else a list parameter (`$items`, `$refs`, `$keys`, or any list of a plural kind): one event
 *   per item, the item being its state.
 * - Else one event: the `before` / `after` columns of a single row (`WITH n, n {.*} AS before SET
 *   ... RETURN before, n {.*} AS after`), else the record map it answered, else the fields it was
 *   given.
 * - A count column (`deleted`, `removed`, `created` ...) at 0, or `won: false`, is no change.
 *
 * States never hold secrets (`SECRET_FIELD`).
 */
import type { Params, Row } from '../../db/db';

export type ChangeOp = 'create' | 'update' | 'delete';

/** One changed record, before it gets its revision: `kind` of record, its `key`, and its state. */
export interface ChangeDraft {
  env: string;
  /** In the changes feed (at a revision); false: a security event for the audit log only (keys, sessions). */
  feed: boolean;
  op: ChangeOp;
  kind: string;
  key: string;
  before?: unknown;
  after?: unknown;
}

/** The verb a statement's name starts with says what it does to its record. */
const OPS: [RegExp, ChangeOp][] = [
  [/^(create|add|assign|attach|ensure|redeem)/, 'create'],
  [/^(delete|remove|unassign|detach|clear|revoke)/, 'delete'],
  [/^(update|replace|set|change|transition|govern|rotate)/, 'update'],
];

/** Statements that only take locks or maintain internal state: no record of the API changes. */
const NOT_CHANGES = new Set(['changes/recordAuditEvents', 'groups/lockGroups', 'elements/lockResources', 'revisions/bumpRevision', 'changes/recordChanges', 'assignments/createImplicitInstances', 'approvals/ensureInstance']);

/**
 * Writes that change no decision (`// @invalidates none`) are records of the API only in these
 * areas; elsewhere (sessions, login codes, keys, logs, migrations) they are not graph changes.
 */
const RECORD_AREAS_WITHOUT_INVALIDATION = new Set(['approvals', 'elements', 'accessRequests', 'access_requests']);

/** Security events that change no record of the graph API: keys and sessions (the audit log's). */
const AUDIT_ONLY = /ApiKey|Session|LoginCode/;

/** Record kinds whose name in the statement differs from the API's (`Derivation` -> role_derivation ...). */
const KIND_NAMES: Record<string, string> = {
  api_key: 'api_key', session: 'session', login_code: 'login_code', tenant_user: 'tenant_user', instance: 'resource_instance', instances: 'resource_instance', instances_by_ref: 'resource_instance',
  tenant_roles: 'role_assignment', instance_roles: 'role_assignment', roles: 'role_assignment', tuples: 'relationship_tuple',
  derivation: 'role_derivation', derivations: 'role_derivation', role_derivations: 'role_derivation', derivation_conditions: 'role_derivation',
  role_parent: 'role_parent', role_parents: 'role_parent', role_permissions: 'role', config: 'elements_config', resources: 'resource',
  user: 'user', group: 'group', approval: 'operation_approval', approvals: 'operation_approval', reviewer_comment: 'operation_approval',
};

/** Statements whose name does not say the API's record kind. */
const KIND_OF_STATEMENT: Record<string, string> = {
  'groups/addUser': 'group_member', 'groups/removeUser': 'group_member',
  'groups/assignRole': 'group_role', 'groups/removeRole': 'group_role',
  'groups/assignGroup': 'group_nesting', 'groups/unassignGroup': 'group_nesting',
  'groups/attachInstance': 'group_resource', 'groups/detachInstance': 'group_resource',
  'facts/addTenantUser': 'tenant_user', 'facts/removeTenantUser': 'tenant_user',
  // A login code's redemption opens a session.
  'sessions/redeemLoginCode': 'session',
};

/** A count column of the answer at 0 means the statement matched nothing: no change. */
const COUNTS = ['deleted', 'removed', 'created', 'updated', 'added'];

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const PARAM_NOISE = new Set(['env', 'envId', 'now', 'nowIso', 'nowMs', 'id', 'set', 'hash', 'secret', 'token', 'code', 'attributes', 'attributes_json', 'actions', 'actions_json', 'description', 'name']);

/** A key for a record from its fields: its own key or id, else the references that identify it (user/role/tenant). */
function keyOf(src: Record<string, unknown>, fallback?: Record<string, unknown>): string {
  for (const f of ['key', 'id']) if (typeof src[f] === 'string') return src[f] as string;
  const parts = Object.entries(src).filter(([k, v]) => !PARAM_NOISE.has(k) && (typeof v === 'string' || typeof v === 'number')).map(([, v]) => String(v));
  if (parts.length) return parts.join('/');
  return fallback ? keyOf(fallback) : '';
}

/** The records a bulk statement changed: the ones it answers deleted, else its list parameter. */
function listOf(rows: Row[], params: Params, plural: boolean): unknown[] | undefined {
  if (Array.isArray(rows[0]?.deleted)) return rows[0].deleted as unknown[];
  for (const name of ['items', 'refs', 'keys']) if (Array.isArray(params[name])) return params[name] as unknown[];
  if (plural) return Object.values(params).find(Array.isArray) as unknown[] | undefined;
  return undefined;
}

const SECRET_OR_NOISE = new Set(['env', 'envId', 'now', 'nowIso', 'nowMs', 'set', 'hash', 'secret', 'token', 'code']);

/** The fields a statement was given, without the environment, the clock and the JSON copies. */
function fieldsOf(params: Params): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(params).filter(([k, v]) => v !== null && v !== undefined && !SECRET_OR_NOISE.has(k) && !k.endsWith('_json')));
  return Object.keys(out).length ? out : undefined;
}

/** The record a statement answered, when it answered one (`RETURN t {.*} AS tenant`). */
function recordOf(rows: Row[]): Record<string, unknown> | undefined {
  const first = rows[0];
  if (!first) return undefined;
  return Object.values(first).find(isRecord);
}

/** Stored fields that are secrets (webhook secrets and bearer tokens, key hashes): never in an event. */
const SECRET_FIELD = /secret|token|hash|password/i;

/** A record's state as an event shows it: its fields without the secrets. */
function withoutSecrets(v: unknown): unknown {
  return isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => !SECRET_FIELD.test(k))) : v;
}

/**
 * The state a statement answered in its `before` / `after` columns (update and delete statements
 * read the record before they change it: `WITH n, n {.*} AS before SET ... RETURN before, n {.*} AS after`).
 */
function statesOf(rows: Row[]): { before?: unknown; after?: unknown } | undefined {
  const first = rows[0];
  if (rows.length !== 1 || !first || !(isRecord(first.before) || isRecord(first.after))) return undefined;
  return {
    ...(isRecord(first.before) ? { before: withoutSecrets(first.before) } : {}),
    ...(isRecord(first.after) ? { after: withoutSecrets(first.after) } : {}),
  };
}

/**
 * The changes a statement answered one by one in its `changed` list column, each with its states
 * (`{before?, after?}`) and, when the state's own key is not the event's, its `key` and `kind`.
 * Undefined when no row has that column.
 */
function changedOf(rows: Row[]): { kind?: string; key?: string; before?: unknown; after?: unknown }[] | undefined {
  if (!rows.some((r) => Array.isArray(r.changed))) return undefined;
  return rows.flatMap((r) => (Array.isArray(r.changed) ? r.changed : [])).filter(isRecord).map((c) => ({
    ...(typeof c.kind === 'string' ? { kind: c.kind } : {}),
    ...(typeof c.key === 'string' ? { key: c.key } : {}),
    ...(isRecord(c.before) ? { before: withoutSecrets(c.before) } : {}),
    ...(isRecord(c.after) ? { after: withoutSecrets(c.after) } : {}),
  }));
}

/**
 * What a write statement changed, told from its name, parameters and answer (no statement has to
 * say more; the conventions are in this file's header): the verb of its name gives the operation,
 * the rest the record kind; a `changed` list column is one change per element with its states; a
 * list parameter `$items` is one change per item; a returned record map is the record's state.
 */
export function describeChanges(name: string, envParam: string | null, params: Params, rows: Row[]): ChangeDraft[] {
  if (NOT_CHANGES.has(name)) return [];
  const feed = envParam !== null || RECORD_AREAS_WITHOUT_INVALIDATION.has(name.split('/')[0]);
  if (!feed && !AUDIT_ONLY.test(name)) return [];
  const env = (envParam ? params[envParam] : undefined) ?? params.env ?? params.envId;
  if (typeof env !== 'string') return [];
  const verbAndKind = name.split('/')[1] ?? name;
  const found = OPS.find(([re]) => re.test(verbAndKind));
  if (!found) return [];
  const [re, op] = found;
  const rawKind = snake(verbAndKind.replace(re, '').replace(/^[A-Z]/, (c) => c.toLowerCase()));
  const kind = KIND_OF_STATEMENT[name] ?? KIND_NAMES[rawKind || name.split('/')[0]] ?? (rawKind || name.split('/')[0]).replace(/s$/, '');
  const changed = changedOf(rows);
  if (changed) {
    return changed.map(({ kind: own, key, ...states }) => ({
      env, feed, op, kind: own ?? kind, key: key ?? keyOf((states.after ?? states.before ?? {}) as Record<string, unknown>), ...states,
    }));
  }
  if (rows.length === 1 && COUNTS.some((c) => rows[0][c] === 0)) return [];
  if (rows.length === 1 && rows[0].won === false) return [];
  const state = (s: unknown) => (op === 'delete' ? { before: withoutSecrets(s) } : { after: withoutSecrets(s) });
  const items = listOf(rows, params, rawKind.endsWith('s'));
  if (items) {
    return items.map((it) => (isRecord(it) ? { env, feed, op, kind, key: keyOf(it), ...state(it) } : { env, feed, op, kind, key: String(it) }));
  }
  // The record's states when the statement answered them, else the record it answered.
  const states = statesOf(rows);
  const record = states ? ((states.after ?? states.before) as Record<string, unknown>) : recordOf(rows);
  // Without a record in the answer, a create or an update is told by the fields it was given.
  const given = op === 'delete' ? undefined : fieldsOf(params);
  const told = states ?? (record ? state(record) : given ? { after: given } : {});
  return [{ env, feed, op, kind, key: keyOf(record ?? {}, params), ...told }];
}
