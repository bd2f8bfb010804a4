/** One entry of an error's `details`: where the input was wrong and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The service's error body (docs/behaviour.md section 1). */
export interface ErrorBody {
  id?: string;
  error_code?: string;
  title?: string;
  message?: string;
  details?: ErrorDetail[];
}

/** Base class of every error the client throws for a non-2xx answer. */
export class AuthzError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** The `error_code` of the error body (docs/behaviour.md section 1) (e.g. `NOT_FOUND`, `DUPLICATE_ENTITY`); `UNEXPECTED_ERROR` when the body had none. */
  readonly errorCode: string;
  /** Short human title. */
  readonly title: string | undefined;
  /** Per-field problems of a 422 (may be empty). */
  readonly details: ErrorDetail[];
  /** The error's id (the body's `id`), also written to the service log. */
  readonly errorId: string | undefined;
  /** Method and path of the failed request. */
  readonly request: string;
  /** The raw body as answered (parsed JSON, or text). */
  readonly body: unknown;

  constructor(status: number, body: ErrorBody | undefined, request: string, raw?: unknown) {
    const message = body?.message ?? `${request} answered HTTP ${status}`;
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.errorCode = body?.error_code ?? 'UNEXPECTED_ERROR';
    this.title = body?.title;
    this.details = Array.isArray(body?.details) ? body!.details! : [];
    this.errorId = body?.id;
    this.request = request;
    this.body = raw ?? body;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** 400 / 422: INVALID_INPUT, PAGINATION_SIZE_OVERREACHED, GROUP_CYCLE. */
export class ValidationError extends AuthzError {}
/** 401 UNAUTHORIZED: missing, unknown or revoked key; missing or expired session. */
export class UnauthorizedError extends AuthzError {}
/** 403 FORBIDDEN_ACCESS: valid credentials, but not for this project/env/element or action. */
export class ForbiddenError extends AuthzError {}
/** 404 NOT_FOUND, USER_NOT_FOUND, TENANT_NOT_FOUND. */
export class NotFoundError extends AuthzError {}
/** 409 DUPLICATE_ENTITY, INVALID_STATE, MISMATCH_RESOURCE_INSTANCES_TENANTS. */
export class ConflictError extends AuthzError {}
/** 503 SERVICE_UNAVAILABLE: the graph database is unreachable; retry later (see `retryAfterSeconds`). */
export class UnavailableError extends AuthzError {
  /** The `Retry-After` header in seconds, when sent. */
  retryAfterSeconds: number | undefined;
}
/** 500 UNEXPECTED_ERROR and any other status (also a network failure, with status 0). */
export class UnexpectedError extends AuthzError {}

/** Thrown before any request when the client cannot work out which project/environment to use. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** Picks the error class of an answer from its status (and, for the odd ones, its code). */
export function errorFor(status: number, body: ErrorBody | undefined, request: string, raw?: unknown): AuthzError {
  switch (status) {
    case 400:
    case 422:
      return new ValidationError(status, body, request, raw);
    case 401:
      return new UnauthorizedError(status, body, request, raw);
    case 403:
      return new ForbiddenError(status, body, request, raw);
    case 404:
      return new NotFoundError(status, body, request, raw);
    case 409:
      return new ConflictError(status, body, request, raw);
    case 503:
      return new UnavailableError(status, body, request, raw);
    default:
      return new UnexpectedError(status, body, request, raw);
  }
}
