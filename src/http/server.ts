import { createServer, type RequestListener, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { AppError } from '../errors';
import { isLongBody } from './bodies';
import type { LaneDoor } from './hotPath';
import { serveLane } from './lane';
import { errorAnswer } from './middleware';

/** A request not received whole within this many milliseconds is answered 408. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The service's HTTP server. A request Node cannot read as HTTP (a malformed request line or
 * header, headers past the size limit, a request not received in time) never reaches the app;
 * Node would answer it with a bare status line. Here it gets the error body of docs/behaviour.md section 1, like
 * every other refusal, and the connection is closed.
 */
export function createHttpServer(
  handler: RequestListener,
  log?: Logger,
  timing: { requestTimeoutMs?: number; checkEveryMs?: number; lane?: LaneDoor } = {},
): Server {
  const server = createServer({ connectionsCheckingInterval: timing.checkEveryMs ?? 30_000 }, handler);
  // The hot routes' requests read and answered without Node's request objects while a connection
  // asks only them (src/http/lane.ts); every other connection is Node's, as below.
  if (timing.lane) serveLane(server, timing.lane);
  // `Expect: 100-continue`: no automatic `100 Continue` before the caller is known (who first,
  // then what); the body reader sends it once the route and the credentials were accepted
  // (continueIfExpected in src/http/bodies.ts).
  server.on('checkContinue', handler);
  server.requestTimeout = timing.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // (Tests shrink the timings: Node checks a request's time only once its headers' time may have passed too.)
  if (timing.requestTimeoutMs !== undefined) server.headersTimeout = timing.requestTimeoutMs;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // An authenticated stream its handler reads at its own pace (an import): not bound by the request timeout.
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && isLongBody(socket)) return;
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const out = errorAnswer(clientError(err), log);
    const body = JSON.stringify(out.body);
    socket.end(
      `HTTP/1.1 ${out.status} ${STATUS_CODES[out.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
  return server;
}

/** What a request Node could not read is answered (Node's own statuses, with a message). */
function clientError(err: NodeJS.ErrnoException): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'INVALID_INPUT', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError(408, 'INVALID_INPUT', `The request was not received whole within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError(413, 'INVALID_INPUT', 'The chunk extensions of the request body are too large.');
    default:
      return new AppError(
        400,
        'INVALID_INPUT',
        'The request could not be read as HTTP/1.1 (malformed request line, header or body framing).',
      );
  }
}
