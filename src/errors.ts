/**
 * Public errors (docs/behaviour.md section 1). Domain code throws these; stores throw store errors
 * (src/db/storeErrors.ts), which `publicError` there maps; one middleware renders them.
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

export interface ErrorBody {
  id: string;
  error_code: ErrorCode;
  title: string;
  message: string;
  details?: ErrorDetail[];
}
