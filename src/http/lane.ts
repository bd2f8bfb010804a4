import { type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { LaneDoor, LaneReply, LaneRequest } from './hotPath';

/** Node's default limit of a request's head (`maxHeaderSize`): a longer head is Node's to refuse (431). */
const MAX_HEAD = 16 * 1024;
/** Bytes a pipelining client may send ahead while one answer is made; past that the connection stops reading until it is sent. */
const MAX_AHEAD = 64 * 1024;
const REQUEST_LINE = /^(GET|POST) (\/[!-~]*) HTTP\/1\.1$/;
/**
 * A header field: a token, a colon, and a value of visible ASCII, spaces and tabs (no obs-fold, no
 * obs-text: Node's), trimmed after the match (no two quantifiers over the same characters: no
 * backtracking over a long line).
 */
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):([\t -~]*)$/;
const DIGITS = /^\d{1,9}$/;

/**
 * One request read whole from the start of `buf` (its head and its body), in the plain shape the
 * lane serves: `GET` or `POST`, an origin-form target of visible ASCII, `HTTP/1.1`, a `Host`,
 * each header once, a `Content-Length` of digits or none, and no `Transfer-Encoding`, `Expect`,
 * `Upgrade` or `Connection` other than `keep-alive`. Anything else, or a request not yet whole,
 * answers undefined: the connection is then Node's (src/http/server.ts), whose parser reads the
 * same bytes.
 */
export function readRequest(buf: Buffer): { request: LaneRequest; size: number } | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0 || end > MAX_HEAD) return undefined;
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]);
  if (!line) return undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const field = FIELD.exec(lines[i]);
    if (!field) return undefined;
    const name = field[1].toLowerCase();
    // A repeated header (Node joins or drops repeats, each its own way), or one named like a
    // property every object has: Node's.
    if (headers[name] !== undefined || name === '__proto__') return undefined;
    headers[name] = field[2].trim();
  }
  if (headers.host === undefined || headers['transfer-encoding'] !== undefined || headers.expect !== undefined) return undefined;
  if (headers.upgrade !== undefined || (headers.connection !== undefined && headers.connection.toLowerCase() !== 'keep-alive'))
    return undefined;
  const declared = headers['content-length'];
  if (declared !== undefined && !DIGITS.test(declared)) return undefined;
  const size = end + 4 + (declared === undefined ? 0 : Number(declared));
  if (buf.length < size) return undefined;
  return { request: { method: line[1], url: line[2], headers, body: buf.subarray(end + 4, size) }, size };
}

/** A server's lane: its connections, and what the graceful stop (src/shutdown.ts) reads and sets. */
export interface Lane {
  readonly open: Set<LaneConnection>;
  /** Requests the lane has read (the graceful stop waits until a round of the event loop brings none). */
  arrivals: number;
  /** Set when the graceful stop begins: every answer from then on is its connection's last (`Connection: close`). */
  draining: boolean;
}

const lanes = new WeakMap<Server, Lane>();

/** The server's lane, if it has one. */
export const laneOf = (server: Server): Lane | undefined => lanes.get(server);

/**
 * The lane: keep-alive connections whose requests go to the hot routes (permission questions and
 * `GET /healthz`) are read and answered here, without Node's request and response objects and
 * their stream events, which cost a cached check about as much as the rest of its answer
 * (docs/benchmarks.md, "The lane"). Each connection starts here; a request is read only when it
 * arrived whole and in the plain shape (`readRequest`), then `door` serves it (src/http/hotPath.ts:
 * the same authentication, schemas, handler, request id, metrics, log line and error bodies as
 * Node's door) and its answer is written with Node's status line, `Date` and keep-alive headers.
 * The first request that is not (another route, another shape, a request that came in pieces)
 * hands the connection to Node's HTTP server for the rest of its life, with every byte not yet
 * read: from there it is served exactly as without the lane (koa, the hot path's own door, Node's
 * parser and timeouts). Requests on one connection are answered one at a time, in order.
 */
export function serveLane(server: Server, door: LaneDoor): void {
  const nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const lane: Lane = { open: new Set(), arrivals: 0, draining: false };
  const open = lane.open;
  lanes.set(server, lane);
  server.on('connection', (socket: Socket) => {
    const c = new LaneConnection(socket, server, door, lane, () => {
      for (const listener of nodeListeners) listener.call(server, socket);
    });
    c.start();
  });
  // The graceful stop (src/shutdown.ts) closes idle connections, then cuts the busy ones at its deadline: the lane's too.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    for (const c of open) c.closeIfIdle();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const c of open) c.socket.destroy();
  };
}

/** The lane's requests being answered now (the graceful stop's count of what its deadline cut). */
export function laneBusy(lane: Lane): number {
  let busy = 0;
  for (const c of lane.open) if (c.busy) busy++;
  return busy;
}

export class LaneConnection {
  /** A request read and not yet answered (or its answer not yet taken by the socket). */
  busy = false;
  /** Bytes received and not yet read as a request. */
  private ahead: Buffer | undefined;
  private ended = false;
  private answered = false;
  /** The answer made and not yet written, and whether it is the connection's last. */
  private answer: string | undefined;
  private last = false;
  private stopped = false;

  constructor(
    readonly socket: Socket,
    private readonly server: Server,
    private readonly door: LaneDoor,
    private readonly lane: Lane,
    private readonly toNode: () => void,
  ) {}

  start(): void {
    this.lane.open.add(this);
    const s = this.socket;
    for (const [event, listener] of this.listeners) s.on(event, listener);
    // Until the first request: Node's time for a request's head; then its keep-alive time between answers.
    s.setTimeout(this.server.headersTimeout);
  }

  closeIfIdle(): void {
    if (!this.busy) this.socket.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.ahead = this.ahead ? Buffer.concat([this.ahead, chunk]) : chunk;
    if (!this.busy) this.next();
    else if (this.ahead.length > MAX_AHEAD && !this.stopped) {
      this.stopped = true;
      this.socket.pause();
    }
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    // A request not yet whole will never be: nothing to answer.
    if (!this.busy && !(this.ahead && readRequest(this.ahead))) this.socket.end();
    else if (!this.busy) this.next();
  };

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    this.lane.open.delete(this);
    this.ahead = undefined;
  };

  private readonly onTimeout = (): void => {
    // Idle past the keep-alive time (or no first request in time); a request being answered is bounded by its own deadlines.
    if (!this.busy) this.socket.destroy();
  };

  /** The socket's listeners while the connection is the lane's (taken off when it is handed to Node). */
  private readonly listeners: [string, (chunk: Buffer) => void][] = [
    ['data', this.onData],
    ['end', this.onEnd],
    ['error', this.onError],
    ['close', this.onClose],
    ['timeout', this.onTimeout],
  ];

  /** Reads the next request received, or gives the connection to Node when it is not the lane's. */
  private next(): void {
    while (this.ahead && !this.busy && !this.socket.destroyed) {
      const held = this.ahead;
      const read = readRequest(held);
      if (!read) {
        this.handOver();
        return;
      }
      this.ahead = read.size === held.length ? undefined : held.subarray(read.size);
      this.busy = true;
      this.lane.arrivals++;
      if (!this.door(read.request, this.reply)) {
        this.ahead = held;
        this.busy = false;
        this.handOver();
        return;
      }
    }
  }

  private readonly reply: LaneReply = (status, headers, text) => {
    if (this.socket.destroyed) return;
    // The client half-closed, or the server stops (src/shutdown.ts): this answer is the connection's last.
    this.last = this.ended || this.lane.draining || !this.server.listening;
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    head += this.last
      ? `Date: ${utcDate()}\r\nConnection: close\r\n\r\n`
      : `Date: ${utcDate()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(this.server.keepAliveTimeout / 1000)}\r\n\r\n`;
    this.answer = head + text;
    if (answers.push(this) === 1) setImmediate(writeAnswers);
  };

  /** Writes the answer made (`writeAnswers`), then reads the next request. */
  write(): void {
    const s = this.socket;
    const answer = this.answer!;
    this.answer = undefined;
    if (s.destroyed) return;
    s.write(answer);
    if (this.last) {
      this.ahead = undefined;
      s.end();
      return;
    }
    if (!this.answered) {
      this.answered = true;
      s.setTimeout(this.server.keepAliveTimeout);
    }
    // A client that does not read its answers: the next request waits until this one is taken.
    if (s.writableNeedDrain) s.once('drain', this.done);
    else this.done();
  }

  private readonly done = (): void => {
    this.busy = false;
    if (this.stopped) {
      this.stopped = false;
      this.socket.resume();
    }
    if (this.ahead) this.next();
    else if (this.ended) this.socket.end();
  };

  /** From here the connection is Node's HTTP server's, with every byte not yet read. */
  private handOver(): void {
    const s = this.socket;
    for (const [event, listener] of this.listeners) s.off(event, listener);
    s.setTimeout(0);
    this.lane.open.delete(this);
    if (this.ended) {
      // The client half-closed: a stream that ended takes no bytes back (`unshift`), so Node cannot
      // read them; the connection closes. (Only a request not the lane's, pipelined behind one of
      // the lane's and followed at once by the half-close, goes unanswered so.)
      s.destroy();
      return;
    }
    s.pause();
    if (this.ahead) s.unshift(this.ahead);
    this.ahead = undefined;
    this.toNode();
    process.nextTick(() => s.resume());
  }
}

/**
 * The answers made in this turn of the event loop, written together once it has read every socket
 * that was ready (`setImmediate`: the check phase, right after the poll phase). Each answer's write
 * wakes its client; written one by one as they were made, between reads, each write found its
 * client asleep more often (a third of the kernel's time a cached check went to wake-ups:
 * docs/benchmarks.md, "The lane").
 */
const answers: LaneConnection[] = [];
function writeAnswers(): void {
  for (let i = 0; i < answers.length; i++) answers[i].write();
  answers.length = 0;
}

/** The `Date` header's value, made once a second. */
let dateSecond = -1;
let dateText = '';
function utcDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
