/**
 * Change events (docs/behaviour.md section 12) of each write statement, from what the statement declares it
 * changes (its `// @changes <kind>:<op>` header, src/db/cypherRegistry.ts), its parameters and its
 * answer, so that no statement has to call anything to be recorded. The conventions:
 *
 * - The declaration gives the operation and the record kind; `@changes none` records nothing
 *   (locks, internal state, logs, sessions' housekeeping); `audit` marks a security event for the
 *   audit log only (keys, sessions, login codes), not the changes feed.
 * - A list column `changed` of `{before?, after?, key?, kind?}`: one event per element, with the
 *   element's states (the statement reads each record before it changes it). `key` defaults to
 *   the key of the state (`after`, else `before`), `kind` to the statement's; an empty list is
 *   no change. Bulk deletes (`before` only) and bulk replaces (`before` absent for a record the
 *   statement created) answer this, next to the count their callers read:
 *   `RETURN size(found) AS removed, [f IN found | {key: f.key, before: f.before}] AS changed`.
 * - Else a list column `deleted`: one delete event per element, the element being its `before`.
 * - Else a list parameter (`$items`, `$refs`, `$keys`, or the one the declaration names with
 *   `each $<parameter>`): one event per item, the item being its state.
 * - Else one event: the `before` / `after` columns of a single row (`WITH n, n {.*} AS before SET
 *   ... RETURN before, n {.*} AS after`), else the record map it answered, else the fields it was
 *   given.
 * - A count column (`deleted`, `removed`, `created` ...) at 0, or `won: false`, is no change.
 *
 * States never hold secrets (`SECRET_FIELD`).
 */
import type { DeclaredChange } from '../../db/cypherRegistry';
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

/** A count column of the answer at 0 means the statement matched nothing: no change. */
const COUNTS = ['deleted', 'removed', 'created', 'updated', 'added'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const PARAM_NOISE = new Set([
  'env',
  'envId',
  'now',
  'nowIso',
  'nowMs',
  'id',
  'set',
  'hash',
  'secret',
  'token',
  'code',
  'attributes',
  'attributes_json',
  'actions',
  'actions_json',
  'description',
  'name',
]);

/** A key for a record from its fields: its own key or id, else the references that identify it (user/role/tenant). */
function keyOf(src: Record<string, unknown>, fallback?: Record<string, unknown>): string {
  if (typeof src.key === 'string') return src.key;
  if (typeof src.id === 'string') return src.id;
  // One pass, no intermediate arrays: a bulk of 1,000 items makes 1,000 keys.
  let key: string | undefined;
  for (const k of Object.keys(src)) {
    const v = src[k];
    if ((typeof v !== 'string' && typeof v !== 'number') || PARAM_NOISE.has(k)) continue;
    key = key === undefined ? String(v) : `${key}/${v}`;
  }
  if (key !== undefined) return key;
  return fallback ? keyOf(fallback) : '';
}

/** The records a bulk statement changed: the ones it answers deleted, else its list parameter. */
function listOf(rows: Row[], params: Params, each: string | null): unknown[] | undefined {
  if (Array.isArray(rows[0]?.deleted)) return rows[0].deleted as unknown[];
  for (const name of ['items', 'refs', 'keys']) if (Array.isArray(params[name])) return params[name] as unknown[];
  if (each !== null && Array.isArray(params[each])) return params[each] as unknown[];
  return undefined;
}

const SECRET_OR_NOISE = new Set(['env', 'envId', 'now', 'nowIso', 'nowMs', 'set', 'hash', 'secret', 'token', 'code']);

/** The fields a statement was given, without the environment, the clock and the JSON copies. */
function fieldsOf(params: Params): Record<string, unknown> | undefined {
  const out = Object.fromEntries(
    Object.entries(params).filter(([k, v]) => v !== null && v !== undefined && !SECRET_OR_NOISE.has(k) && !k.endsWith('_json')),
  );
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

/**
 * A record's state as an event shows it: its fields without the secrets. A record without a
 * secret field is its own state (not copied: its JSON is taken when the transaction records its
 * events, and nothing changes a written item before that).
 */
function withoutSecrets(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  if (!keys.some((k) => SECRET_FIELD.test(k))) return v;
  return Object.fromEntries(keys.filter((k) => !SECRET_FIELD.test(k)).map((k) => [k, v[k]]));
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
  return rows
    .flatMap((r) => (Array.isArray(r.changed) ? r.changed : []))
    .filter(isRecord)
    .map((c) => ({
      ...(typeof c.kind === 'string' ? { kind: c.kind } : {}),
      ...(typeof c.key === 'string' ? { key: c.key } : {}),
      ...(isRecord(c.before) ? { before: withoutSecrets(c.before) } : {}),
      ...(isRecord(c.after) ? { after: withoutSecrets(c.after) } : {}),
    }));
}

/**
 * What a write statement changed: `declared` is its `// @changes` header (null: none), `envParam`
 * its `// @invalidates` parameter; the events come from its answer and parameters as this file's
 * header says: a `changed` list column is one change per element with its states; a list
 * parameter `$items` (or the declared `each`) is one change per item; a returned record map is the
 * record's state.
 */
export function describeChanges(declared: DeclaredChange | null, envParam: string | null, params: Params, rows: Row[]): ChangeDraft[] {
  if (declared === null) return [];
  const { kind, op, each, feed } = declared;
  const env = (envParam ? params[envParam] : undefined) ?? params.env ?? params.envId;
  if (typeof env !== 'string') return [];
  const changed = changedOf(rows);
  if (changed) {
    return changed.map(({ kind: own, key, ...states }) => ({
      env,
      feed,
      op,
      kind: own ?? kind,
      key: key ?? keyOf((states.after ?? states.before ?? {}) as Record<string, unknown>),
      ...states,
    }));
  }
  if (rows.length === 1 && COUNTS.some((c) => rows[0][c] === 0)) return [];
  if (rows.length === 1 && rows[0].won === false) return [];
  const state = (s: unknown) => (op === 'delete' ? { before: withoutSecrets(s) } : { after: withoutSecrets(s) });
  const items = listOf(rows, params, each);
  if (items) {
    const deletes = op === 'delete';
    return items.map((it): ChangeDraft => {
      if (!isRecord(it)) return { env, feed, op, kind, key: String(it) };
      const s = withoutSecrets(it);
      return deletes ? { env, feed, op, kind, key: keyOf(it), before: s } : { env, feed, op, kind, key: keyOf(it), after: s };
    });
  }
  // The record's states when the statement answered them, else the record it answered.
  const states = statesOf(rows);
  const record = states ? ((states.after ?? states.before) as Record<string, unknown>) : recordOf(rows);
  // Without a record in the answer, a create or an update is told by the fields it was given.
  const given = op === 'delete' ? undefined : fieldsOf(params);
  const told = states ?? (record ? state(record) : given ? { after: given } : {});
  return [{ env, feed, op, kind, key: keyOf(record ?? {}, params), ...told }];
}
