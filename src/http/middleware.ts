import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { publicError } from '../db/storeErrors';
import { AppError, type ErrorBody } from '../errors';
import { bodyTooLarge } from './bodies';
import { RequestState } from './requestState';
import type { RouteDef } from './routeTable';
import { MAX_BODY_BYTES } from './schema';

/** The request's id: its `x-request-id` when sane, else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && /^[A-Za-z0-9_.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
}

/** Longest request id a specification's route echoes (`specWire`, src/http/routeTable.ts); a longer one is replaced. */
export const SPEC_REQUEST_ID_MAX = 1024;

/**
 * The request id on a route of another specification (AuthZEN: "the PDP MUST include the same
 * identifier in the response"): the incoming `x-request-id` exactly as sent, when it is
 * 1..SPEC_REQUEST_ID_MAX characters of visible ASCII, space or tab (what a header value holds
 * without obsolete bytes, written back byte for byte); else a new one.
 */
export function specRequestIdOf(incoming: string | undefined): string {
  return incoming && incoming.length <= SPEC_REQUEST_ID_MAX && /^[\t\x20-\x7e]+$/.test(incoming) ? incoming : randomUUID();
}

/**
 * Request id on every log line: taken from `x-request-id` when sane, else new. The request's child
 * logger (`ctx.state.log`) is made when something logs (most requests log only their one line,
 * written here with the id and no child), so a request at a level that writes nothing makes none.
 */
export function requestContext(log: Logger) {
  return async (ctx: Context, next: Next) => {
    // The instant the request arrived (what it is answered from must include every write acknowledged
    // before it), its id and its logger, made at the first log with the id of then (a route of another
    // specification may replace the id first: src/http/credentialsFirst.ts).
    const reqId = requestIdOf(ctx.get('x-request-id'));
    ctx.state = new RequestState(performance.now(), reqId, log);
    ctx.set('x-request-id', reqId);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (log.isLevelEnabled('info')) {
        const ms = performance.now() - started;
        log.info(
          { reqId: ctx.state.reqId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      }
    }
  };
}

/**
 * The answer to a failed request on a route of another specification (`specWire`): its status
 * (a schema violation, 422 in docs/behaviour.md, is the specification's 400 Bad Request), and the
 * message alone as `text/plain` (AuthZEN: "An error message string"); the error id is logged.
 */
export function specErrorAnswer(err: unknown, log: Logger | undefined): { status: number; text: string; headers: Record<string, string> } {
  const out = errorAnswer(err, log);
  return { status: out.status === 422 ? 400 : out.status, text: out.body.message, headers: out.headers };
}

export const SPEC_ERROR_TYPE = 'text/plain; charset=utf-8';

/** Turns anything thrown into the error body (docs/behaviour.md section 1). */
export function toAppError(err: unknown): AppError {
  const mapped = publicError(err);
  if (mapped) return mapped;
  const e = err as { status?: number; type?: string; expose?: boolean; message?: string };
  if (e?.type === 'entity.parse.failed') return new AppError(400, 'INVALID_INPUT', 'The request body is not valid JSON.');
  if (e?.type === 'entity.too.large') return bodyTooLarge((err as { limit?: number }).limit ?? MAX_BODY_BYTES);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported' || (e?.status === 415 && /encoding/i.test(e.message ?? ''))) {
    return new AppError(415, 'INVALID_INPUT', 'The request body encoding is not supported.');
  }
  if (e?.status === 400 || e?.status === 415) return new AppError(400, 'INVALID_INPUT', 'The request body could not be read as JSON.');
  if (e?.status === 404) return new AppError(404, 'NOT_FOUND', 'No such endpoint.');
  if (e?.status === 405) return new AppError(405 as number, 'INVALID_INPUT', 'This method is not allowed on this endpoint.');
  return new AppError(500, 'UNEXPECTED_ERROR', 'Something went wrong on our side; the error id is in the log.');
}

/** The answer to a failed request: status, the error body of docs/behaviour.md section 1, and headers (503 and 429: Retry-After). Logs a 5xx. */
export function errorAnswer(err: unknown, log: Logger | undefined): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const appErr = toAppError(err);
  const id = randomUUID();
  const body: ErrorBody = { id, error_code: appErr.code, title: appErr.title, message: appErr.message };
  if (appErr.details?.length) body.details = appErr.details;
  if (appErr.status >= 500) log?.error({ err, errorId: id }, 'request failed');
  else log?.debug({ errorId: id, code: appErr.code, msg: appErr.message }, 'request rejected');
  const retry = appErr.status === 503 || appErr.status === 429;
  return { status: appErr.status, body, headers: retry ? { 'retry-after': String(appErr.retryAfterSeconds ?? 5) } : {} };
}

export function errorHandler() {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw Object.assign(new Error('not found'), { status: 404 });
    } catch (err) {
      if ((ctx.state.route as RouteDef | undefined)?.specWire) {
        const out = specErrorAnswer(err, ctx.state.log as Logger | undefined);
        ctx.status = out.status;
        ctx.type = SPEC_ERROR_TYPE;
        ctx.body = out.text;
        for (const [name, value] of Object.entries(out.headers)) ctx.set(name, value);
        return;
      }
      const out = errorAnswer(err, ctx.state.log as Logger | undefined);
      ctx.status = out.status;
      ctx.body = out.body;
      for (const [name, value] of Object.entries(out.headers)) ctx.set(name, value);
    }
  };
}
