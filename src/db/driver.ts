import net from 'node:net';
import { dirname } from 'node:path';
import tls from 'node:tls';
import neo4j, { type Driver } from 'neo4j-driver';
import { asyncSlot } from '../util/asyncSlot';

/**
 * neo4j-driver opens its sockets without TCP_NODELAY. A query larger than one segment is then
 * held back by Nagle's algorithm until the server's delayed ACK (~40 ms): measured here as
 * 55 ms instead of 7 ms per permission check. Every socket the driver opens gets NODELAY.
 */
function enableNoDelay(): void {
  for (const mod of [net, tls] as { connect: (...args: never[]) => net.Socket }[]) {
    const original = mod.connect as ((...args: never[]) => net.Socket) & { noDelay?: boolean };
    if (original.noDelay) continue;
    const patched = Object.assign((...args: never[]) => original.apply(mod, args).setNoDelay(true), { noDelay: true });
    mod.connect = patched;
  }
}

/** A module of the driver's Bolt layer (`neo4j-driver-bolt-connection/<path>`), as the driver loads it. */
function driverModule(path: string): unknown {
  return require(require.resolve(`neo4j-driver-bolt-connection/${path}`, { paths: [dirname(require.resolve('neo4j-driver'))] }));
}

interface ChannelLike {
  _conn: net.Socket;
  write(buffer: unknown): void;
}

/** The deadline of the channels of this process (the smallest asked for, when several drivers). */
let channelDeadlineMs = Infinity;
/** The channel deadline of the work running now, when not the process's (Infinity: none). */
const answerDeadline = asyncSlot<number>();

/**
 * Runs `fn` without the channel deadline: for schema migrations, whose index population may
 * legitimately send nothing back for a long time, and which Neo4j may leave half done (an index
 * without its constraint) when their connection is cut. Their caller watches the server instead.
 */
export function withoutAnswerDeadline<T>(fn: () => Promise<T>): Promise<T> {
  return answerDeadline.run(Infinity, fn);
}

/**
 * Runs `fn` with a channel deadline of `ms` instead of the process's (DB_TIMEOUT_MS): for admin
 * operations under their own deadline (ADMIN_TIMEOUT_MS, src/db/db.ts `Db.admin`), whose single
 * statement (a prune, an environment's delete) may send nothing back for longer than a check may.
 */
export function withAnswerDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return answerDeadline.run(ms, fn);
}

/**
 * A hung server (one that accepts connections but answers nothing, e.g. a SIGSTOPped Neo4j)
 * never closes the socket, so the driver would wait on it forever, and the pool would hand the
 * stuck connection out again. Every Bolt channel therefore gets a deadline: when it has written
 * a request (the handshake included) and no byte comes back within `ms`, its socket is destroyed
 * with an error. The driver then fails what was waiting on it (ServiceUnavailable) and drops the
 * connection from its pool. An idle pooled connection writes nothing and is never affected.
 * neo4j-driver 5.28 has no option for this: its `connectionTimeout` stops at the TCP connect and
 * its receive timeout only exists when the server sends a hint.
 */
function enableChannelDeadline(ms: number): void {
  channelDeadlineMs = Math.min(channelDeadlineMs, ms);
  const proto = (driverModule('lib/channel/node/node-channel') as { default: { prototype: ChannelLike & { deadlinePatched?: boolean } } })
    .default.prototype;
  if (proto.deadlinePatched) return;
  const write = proto.write;
  const timers = new WeakMap<net.Socket, NodeJS.Timeout | null>();
  proto.write = function (this: ChannelLike, buffer: unknown) {
    const socket = this._conn;
    coalesce(socket);
    if (!timers.has(socket)) socket.on('data', () => disarm(socket));
    const ms = answerDeadline.get() ?? channelDeadlineMs;
    if (!timers.get(socket) && ms !== Infinity) {
      const timer = setTimeout(() => {
        timers.set(socket, null);
        socket.destroy(new Error(`Neo4j sent nothing back within ${ms} ms`));
      }, ms);
      timer.unref();
      timers.set(socket, timer);
    }
    write.call(this, buffer);
  };
  const disarm = (socket: net.Socket) => {
    const timer = timers.get(socket);
    if (timer) clearTimeout(timer);
    timers.set(socket, null);
  };
  proto.deadlinePatched = true;
}

/**
 * The driver writes a message in chunks of at most 1,400 bytes, each its own socket write (a
 * system call, and with NODELAY its own TCP segment for Neo4j to read): a bulk write of 1,000
 * items and its change set, about 150 writes; an import batch of 5,000 links, about 700. Measured
 * on the load of the bench dataset, those writes were 15 % of the service's busy CPU
 * (docs/benchmarks.md, "Bulk writes and import"). The writes made in one turn of the event loop
 * are held (`cork`) and go out together at its end (`uncork`: one `writev`), in order: what one
 * call of the driver writes (BEGIN, RUN, PULL, COMMIT as it sends them) leaves as before, at once,
 * only in fewer, larger writes.
 */
const corked = new WeakSet<net.Socket>();
function coalesce(socket: net.Socket): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  process.nextTick(() => {
    corked.delete(socket);
    socket.uncork();
  });
}

/**
 * Before packing a statement's parameters, neo4j-driver runs every value through its protocol's
 * type transformers (`Transformer.toStructure`: 13 `isTypeInstance` checks, for nodes, points and
 * the temporal types), each string and number of every list included. On the load of the bench
 * dataset that was a quarter of the service's busy CPU (docs/benchmarks.md, "The service's side of
 * a load, cut"): a bulk of 1,000 assignments sends six columns of 1,000 values and a change set of
 * five lists of 1,000 strings. Only an object of one of the driver's classes can match a
 * transformer, so primitives, arrays and plain objects (`{}` literals, JSON) are passed on at once;
 * the packer still visits the elements of a list and the values of a map one by one, each through
 * this same check.
 */
function skipTransformersForPlainValues(): void {
  type ToStructure = (this: unknown, value: unknown) => unknown;
  const proto = (driverModule('lib/bolt/transformer') as { default: { prototype: { toStructure: ToStructure; plainPatched?: boolean } } })
    .default.prototype;
  if (proto.plainPatched) return;
  const toStructure = proto.toStructure;
  proto.toStructure = function (this: unknown, value: unknown) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null ? value : toStructure.call(this, value);
  };
  proto.plainPatched = true;
}

export interface DriverOptions {
  uri: string;
  user: string;
  password: string;
  /** Bounds every wait on the database so that an outage answers 503 instead of hanging. */
  timeoutMs: number;
  /** The longest deadline of any call (WRITE_TIMEOUT_MS, ADMIN_TIMEOUT_MS); unset: timeoutMs. */
  longestCallMs?: number;
}

export function createDriver(opts: DriverOptions): Driver {
  enableNoDelay();
  enableChannelDeadline(opts.timeoutMs);
  skipTransformersForPlainValues();
  return neo4j.driver(opts.uri, neo4j.auth.basic(opts.user, opts.password), {
    disableLosslessIntegers: true,
    // TCP connect; the Bolt handshake and every answer are bounded by the channel deadline above.
    connectionTimeout: Math.min(opts.timeoutMs, 3000),
    // Above every call's deadline (a write's and an admin operation's are longer than
    // DB_TIMEOUT_MS): the Db's own deadline answers first, as a store error.
    connectionAcquisitionTimeout: Math.max(opts.timeoutMs, opts.longestCallMs ?? 0) + 1000,
    // Retries of transient errors (deadlocks, a lost connection) stay within the call's deadline.
    maxTransactionRetryTime: Math.floor(opts.timeoutMs / 2),
    maxConnectionPoolSize: 100,
    // Neo4j sends the notifications of a statement's plan (unknown property keys, deprecations:
    // 22 for the check statement, 25 for list-objects) with every answer, and the driver parses
    // them each time: about a third of the driver's CPU a check batch and a sixth more batches a
    // second from Neo4j (docs/benchmarks.md). Nothing reads them; Neo4j 5.7+ can leave them out.
    notificationFilter: { minimumSeverityLevel: 'OFF' },
    logging: { level: 'error', logger: () => undefined },
  });
}
