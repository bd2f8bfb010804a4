import { Neo4jError } from 'neo4j-driver';
import { AppError, notFound, unavailable } from '../errors';

/**
 * The store-error contract. Stores throw these (never public errors, never raw driver errors);
 * `publicError` below is the one place that turns them into the answers of docs/behaviour.md section 1.
 * This file is the one place that reads Neo4j error codes (never their message text).
 */
export abstract class StoreError extends Error {}

/** The addressed record does not exist. `entity` names it for the answer ("Tenant"). */
export class NotFound extends StoreError {
  constructor(
    readonly entity: string,
    readonly key?: string,
  ) {
    super(`${entity} not found`);
  }
}

/**
 * A unique constraint refused the write. The Db throws it with no entity (it does not know what
 * the statement creates); a store names it (`duplicateAs('Tenant', key)`) for the answer.
 */
export class Duplicate extends StoreError {
  constructor(
    readonly entity?: string,
    readonly key?: string,
    options?: { cause?: unknown },
  ) {
    super(entity ? `${entity} ${key ?? ''} already exists` : 'unique constraint violated', options);
  }
}

/**
 * The write kept losing to concurrent writes on the same records (deadlock, lock wait) until its
 * retries ran out. Nothing was applied, and the same request may simply be sent again.
 */
export class Conflict extends StoreError {}

/** Why the database could not serve the call. */
export type UnavailableReason = 'unreachable' | 'timeout' | 'busy';

/** The database did not serve the call: unreachable, no answer within DB_TIMEOUT_MS, or overloaded. */
export class Unavailable extends StoreError {
  constructor(
    readonly reason: UnavailableReason,
    readonly timeoutMs?: number,
    options?: { cause?: unknown },
    /** The setting that set the deadline (DB_TIMEOUT_MS; ADMIN_TIMEOUT_MS for admin operations). */
    readonly timeoutSetting = 'DB_TIMEOUT_MS',
  ) {
    super(`database ${reason}`, options);
  }
}

/** Codes of a database that cannot be reached or has no leader/database to serve us right now. */
const UNREACHABLE = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'Neo.TransientError.General.DatabaseUnavailable',
  'Neo.ClientError.Cluster.NotALeader',
  'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase',
]);
/**
 * The server gave up on the transaction because it ran past its time limit (ours or its own). A
 * transaction that reaches its limit while it waits for a lock answers LockClientStopped (a
 * ClientError in Neo4j 5, a TransientError before).
 */
const TIMED_OUT = new Set([
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
  'Neo.ClientError.Transaction.LockClientStopped',
  'Neo.TransientError.Transaction.LockClientStopped',
]);

/**
 * A statement called a procedure this Neo4j has not loaded (the walk extension, absent since the
 * service last checked: a Neo4j restarted without it). src/db/walkSelection.ts then chooses again.
 */
export function isMissingProcedure(err: unknown): boolean {
  return err instanceof Neo4jError && err.code === 'Neo.ClientError.Procedure.ProcedureNotFound';
}

/** The store error a driver error means, or undefined when it means a bug (a Cypher error, ...). */
export function storeErrorOf(err: unknown, timeoutMs?: number, timeoutSetting?: string): StoreError | undefined {
  if (err instanceof StoreError) return err;
  if (!(err instanceof Neo4jError)) return undefined;
  const code = err.code ?? '';
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') return new Duplicate(undefined, undefined, { cause: err });
  if (UNREACHABLE.has(code)) return new Unavailable('unreachable', undefined, { cause: err });
  if (TIMED_OUT.has(code)) return new Unavailable('timeout', timeoutMs, { cause: err }, timeoutSetting);
  if (code.startsWith('Neo.TransientError.Transaction.')) return new Conflict('concurrent writes conflicted', { cause: err });
  // A node or edge the statement had found was deleted by a concurrent transaction before it was read.
  if (code === 'Neo.ClientError.Statement.EntityNotFound')
    return new Conflict('a concurrent write deleted a record this one read', { cause: err });
  if (code.startsWith('Neo.TransientError.')) return new Unavailable('busy', undefined, { cause: err });
  return undefined;
}

/**
 * For a store's `catch`: a unique violation becomes `Duplicate(entity, key)`; anything else is
 * rethrown as it is. `await db.writeRows(...).catch(duplicateAs('Tenant', t.key))`.
 */
export function duplicateAs(entity: string, key: string) {
  return (err: unknown): never => {
    if (storeErrorOf(err) instanceof Duplicate) throw new Duplicate(entity, key, { cause: err });
    throw err;
  };
}

/**
 * The one mapping of store errors (and, through `storeErrorOf`, of Neo4j error codes) to the
 * answers of docs/behaviour.md section 1. Undefined for anything else (a bug: the caller answers 500).
 *
 * A write that kept conflicting with concurrent writes (a deadlock retried until the deadline)
 * is not "unreachable": it answers 503 SERVICE_UNAVAILABLE with `Retry-After: 1` and says that
 * nothing was changed, so clients retry it at once (what Permit SDKs and proxies do on a 503);
 * a 409 would tell them the request itself is wrong, which it is not.
 */
export function publicError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = storeErrorOf(err);
  if (e instanceof Duplicate) {
    return new AppError(
      409,
      'DUPLICATE_ENTITY',
      e.entity
        ? `${e.entity}${e.key === undefined ? '' : ` ${JSON.stringify(e.key)}`} already exists.`
        : 'A record with this key already exists.',
    );
  }
  if (e instanceof NotFound) return notFound(e.entity, e.key);
  if (e instanceof Conflict) {
    return unavailable(
      'The request conflicted with concurrent changes to the same records and was rolled back; nothing was changed. Retry it.',
      1,
    );
  }
  if (e instanceof Unavailable) {
    if (e.reason === 'timeout') {
      return unavailable(
        `The graph database did not answer within ${e.timeoutMs ?? 'the configured'} ms (${e.timeoutSetting}); retry later. A write may or may not have been applied.`,
        5,
      );
    }
    if (e.reason === 'busy') return unavailable('The graph database is overloaded; retry later.', 2);
    return unavailable();
  }
  return undefined;
}
