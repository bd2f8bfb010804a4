import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, invalidInput } from '../errors';
import type { RouteDef } from './routeTable';

/**
 * Bodies and their bounds (docs/behaviour.md section 15). A request's credentials are checked before its
 * body is read (src/http/credentialsFirst.ts, src/http/hotPath.ts): until then Node holds at most
 * its socket buffers of it. A body is then read only up to its route's limit, counted as it
 * arrives, and a JSON body nested deeper than the depth bound is refused before it is used.
 */
export interface BodyBounds {
  /** Largest body of a route (BODY_LIMIT_BYTES). */
  bytes: number;
  /** Largest body of a bulk route (BULK_BODY_LIMIT_BYTES). */
  bulkBytes: number;
  /** Deepest nesting of arrays and objects (JSON_MAX_DEPTH). */
  depth: number;
}

/**
 * A body not read when its answer is written is drained for keep-alive only up to this many
 * bytes (Node reads and discards it); a longer one, or one of unknown length (chunked), closes the
 * connection after the answer instead (`Connection: close`).
 */
export const UNREAD_BODY_BUDGET = 64 * 1024;

/** Bulk routes (bulk checks, bulk writes of facts, instances, groups, assignments, tuples) are the ones with a `bulk` segment in their path. */
export function isBulk(route: RouteDef): boolean {
  return (Array.isArray(route.path) ? route.path : [route.path]).some((p) => p.split('/').includes('bulk'));
}

export function bodyLimitOf(route: RouteDef, bounds: BodyBounds): number {
  return route.bodyLimitBytes ?? (isBulk(route) ? bounds.bulkBytes : bounds.bytes);
}

export const bodyTooLarge = (limit: number) =>
  new AppError(413, 'INVALID_INPUT', `The request body is larger than ${formatBytes(limit)}, the limit of this endpoint.`);

export const bodyTooDeep = (depth: number) =>
  invalidInput(`The request body nests arrays and objects deeper than ${depth} levels.`, [
    { path: '/body', message: `must not nest deeper than ${depth} levels` },
  ]);

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / 1024 / 1024} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over its characters,
 * counting brackets outside strings (no recursion, so no depth can overflow the stack). Works on a
 * string (UTF-16 code units) or a UTF-8 buffer alike: the characters it looks at are ASCII, and no
 * byte of a multi-byte UTF-8 sequence is ASCII. Text that is not JSON answers whatever; the parser
 * refuses it anyway.
 */
export function nestsDeeperThan(text: string | Buffer, max: number): boolean {
  const isString = typeof text === 'string';
  const n = text.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = isString ? (text as string).charCodeAt(i) : (text as Buffer)[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/**
 * How long a connection closed with its body unread stays half-open after the answer: the client
 * reads the answer meanwhile (cutting at once would reset the connection, and a client still
 * sending would lose the answer with its unsent body); nothing more of the body is read.
 */
export const UNREAD_LINGER_MS = 1000;

/**
 * For a request whose body may be longer than UNREAD_BODY_BUDGET (declared so, or chunked): if its
 * answer starts before the body was read whole (a 401, 404, 413 ... sent without reading it), the
 * answer says `Connection: close`; once it is written the connection is half-closed (the answer
 * and a FIN go out), reading stops, and the connection is cut UNREAD_LINGER_MS later, instead of
 * Node reading the rest of the body to keep it alive.
 */
export function closeWhenUnread(req: IncomingMessage, res: ServerResponse): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (req.headers['transfer-encoding'] === undefined && !(length > UNREAD_BODY_BUDGET)) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete && !this.headersSent) {
      this.setHeader('connection', 'close');
      lingerThenCut(req.socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * Node ends a `Connection: close` answer with `socket.destroySoon()` (after it asked the request to
 * drain its body): here that half-closes the socket and stops reading it for good (nothing resumes
 * it), then cuts it after the linger.
 */
function lingerThenCut(socket: Socket): void {
  const s = socket as Socket & { destroySoon?: () => void };
  s.destroySoon = () => {
    s.end();
    s.pause();
    s.resume = () => s;
    setTimeout(() => s.destroy(), UNREAD_LINGER_MS).unref();
  };
}

/**
 * A client that sent `Expect: 100-continue` waits for `100 Continue` before it sends its body.
 * Node would send it as soon as the headers arrive (before the caller is known); the server
 * hands such requests to the app instead (`checkContinue`, src/http/server.ts), and the body
 * reader calls this once the route and the caller were accepted. A request refused before
 * (404, 401, 403, 413 on its declared length) gets its final answer without a `100`, and its
 * body is never sent (RFC 9110, section 10.1.1).
 */
export function continueIfExpected(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent && /^100-continue$/i.test(String(req.headers.expect ?? '').trim())) res.writeContinue();
}

/** A socket whose request body is a stream its handler reads at its own pace (allowLongBody). */
const LONG_BODY = Symbol('longBody');

/**
 * Exempts this request's body from the server's request timeout (src/http/server.ts: a request
 * not received whole in 30 s answers 408): an import (src/areas/snapshots) reads its body as it
 * writes it, for as long as that takes. Called by the handler, so only once the caller was
 * authenticated. The connection closes after the answer (Node's own error handling of the socket
 * is not the same once the timeout passed).
 */
export function allowLongBody(req: IncomingMessage, res: ServerResponse): void {
  (req.socket as Socket & { [LONG_BODY]?: boolean })[LONG_BODY] = true;
  res.setHeader('connection', 'close');
}

export const isLongBody = (socket: unknown): boolean => (socket as { [LONG_BODY]?: boolean } | null)?.[LONG_BODY] === true;
