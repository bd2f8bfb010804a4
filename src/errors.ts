import { Conflict, Duplicate, NotFound, storeErrorOf, Unavailable } from './db/storeErrors';

/**
 * Public errors (CONTRACT section 1). Domain code throws these; stores throw store errors
 * (src/db/storeErrors.ts), which `publicError` below maps; one middleware renders them.
 * Anything else becomes UNEXPECTED_ERROR with a generic message.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export type ErrorCode =
  | 'INVALID_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN_ACCESS'
  | 'NOT_FOUND'
  | 'USER_NOT_FOUND'
  | 'TENANT_NOT_FOUND'
  | 'DUPLICATE_ENTITY'
  | 'INVALID_STATE'
  | 'MISMATCH_RESOURCE_INSTANCES_TENANTS'
  | 'PAGINATION_SIZE_OVERREACHED'
  | 'GROUP_CYCLE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'UNEXPECTED_ERROR';

const TITLES: Record<ErrorCode, string> = {
  INVALID_INPUT: 'Invalid input',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN_ACCESS: 'Forbidden',
  NOT_FOUND: 'Not found',
  USER_NOT_FOUND: 'User not found',
  TENANT_NOT_FOUND: 'Tenant not found',
  DUPLICATE_ENTITY: 'Duplicate entity',
  INVALID_STATE: 'Invalid state',
  MISMATCH_RESOURCE_INSTANCES_TENANTS: 'Resource instance belongs to another tenant',
  PAGINATION_SIZE_OVERREACHED: 'Page size too large',
  GROUP_CYCLE: 'Group cycle',
  TOO_MANY_REQUESTS: 'Too many requests',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  UNEXPECTED_ERROR: 'Unexpected error',
};

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Seconds a client should wait before retrying (the `Retry-After` header), for 429s and 503s. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
  get title(): string {
    return TITLES[this.code];
  }
}

export const badRequest = (message: string) => new AppError(400, 'INVALID_INPUT', message);
export const invalidInput = (message: string, details?: ErrorDetail[]) => new AppError(422, 'INVALID_INPUT', message, details);
export const unauthorized = (message = 'A valid API key is required: send "Authorization: Bearer <key>".') =>
  new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN_ACCESS', message);
export const notFound = (what: string, key?: string) =>
  new AppError(404, 'NOT_FOUND', key === undefined ? `${what} not found.` : `${what} ${JSON.stringify(key)} not found.`);
export const duplicate = (what: string, key: string) =>
  new AppError(409, 'DUPLICATE_ENTITY', `${what} ${JSON.stringify(key)} already exists.`);
export const invalidState = (message: string) => new AppError(409, 'INVALID_STATE', message);
/** A batch that checked out did not write whole: something it names changed while it ran. */
export const concurrentChange = () =>
  invalidState('A user, tenant, instance, resource or role this request names changed while it ran; retry.');
export const tenantMismatch = (message: string) => new AppError(409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS', message);
export const pageTooLarge = (max: number) =>
  new AppError(422, 'PAGINATION_SIZE_OVERREACHED', `per_page must be at most ${max}.`, [
    { path: '/query/per_page', message: `must be <= ${max}` },
  ]);
export const groupCycle = (message: string) => new AppError(422, 'GROUP_CYCLE', message);
/** Past an admission bound (src/util/fairQueue.ts) or a rate limit: 429 with `Retry-After`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', message, undefined, retryAfterSeconds);
export const unavailable = (message = 'The graph database is unreachable; retry later.', retryAfterSeconds = 5) =>
  new AppError(503, 'SERVICE_UNAVAILABLE', message, undefined, retryAfterSeconds);

/**
 * The one mapping of store errors (and, through `storeErrorOf`, of Neo4j error codes) to the
 * contract's answers. Undefined for anything else (a bug: the caller answers 500).
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
    return new AppError(409, 'DUPLICATE_ENTITY', e.entity ? `${e.entity}${e.key === undefined ? '' : ` ${JSON.stringify(e.key)}`} already exists.` : 'A record with this key already exists.');
  }
  if (e instanceof NotFound) return notFound(e.entity, e.key);
  if (e instanceof Conflict) {
    return unavailable('The request conflicted with concurrent changes to the same records and was rolled back; nothing was changed. Retry it.', 1);
  }
  if (e instanceof Unavailable) {
    if (e.reason === 'timeout') {
      return unavailable(`The graph database did not answer within ${e.timeoutMs ?? 'the configured'} ms (DB_TIMEOUT_MS); retry later. A write may or may not have been applied.`, 5);
    }
    if (e.reason === 'busy') return unavailable('The graph database is overloaded; retry later.', 2);
    return unavailable();
  }
  return undefined;
}

export interface ErrorBody {
  id: string;
  error_code: ErrorCode;
  title: string;
  message: string;
  details?: ErrorDetail[];
}
