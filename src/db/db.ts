import neo4j, { type Driver, type ManagedTransaction, type Session, type Transaction } from 'neo4j-driver';
import type { CypherRegistry, DeclaredChange } from './cypherRegistry';
import { withDeadline } from './deadline';
import { withAnswerDeadline } from './driver';
import { asyncSlot, keepSlotsFor } from '../util/asyncSlot';
import { Conflict, Duplicate, NotFound, type StoreError, isMissingProcedure, storeErrorOf, Unavailable } from './storeErrors';
import type { StatementRows } from './statements.generated';
import type { DbErrorKind, TransactionObserver } from '../metrics/metrics';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;
/** A named statement (cypher/<name>.cypher): every one declares its rows, so its name is a key of StatementRows. */
export type StatementName = keyof StatementRows;
/**
 * The row type of the named statement: the one its `// @row` header declares (generated into
 * src/db/statements.generated.ts by `npm run gen:statements`; `never` for `// @row none`). There is
 * no untyped fallback: a name without a header is no StatementName, and the generator refuses the file.
 */
export type RowOf<N extends StatementName> = StatementRows[N];
/** The row type of a resolved statement (`Statement<R>`). */
export type RowsOf<S> = S extends Statement<infer R> ? R : never;

/** What the Db asks of the replica registry (src/db/replicas.ts) before it acknowledges a write. */
export interface ReplicaView {
  /** No other replica can be answering from its coherence window now (so a write needs no commit wait). */
  alone(): boolean;
}

/**
 * Told, once a write transaction has committed, the revision it moved an environment to
 * (src/areas/decisions/revisions.ts implements it). Injected into the Db at construction.
 */
export interface RevisionListener {
  learn(envId: string, revision: number): void;
}

/**
 * Records change events in the write transaction that makes the changes (src/areas/changes):
 * told each write statement's answer, then, before commit, the revision each environment moved to.
 */
export interface ChangeLog {
  /** What the statement changed, each in the environment it names (none: not a change of a record). */
  describe(stmt: Statement, params: Params, rows: Row[]): { env: string; feed: boolean }[];
  /**
   * Moves the environment's revision and writes the transaction's changes of the feed (`feed`
   * true) at it, in one statement, the last of the transaction: the environment's write lock is
   * then held for that round trip and the commit only. Answers the revision (undefined: the
   * environment does not exist, nothing is written).
   */
  recordAtNextRevision(tx: Tx, env: string, feed: { env: string; feed: boolean }[]): Promise<number | undefined>;
  /** Writes the changes not of the feed (security events, which move no revision), in the transaction. */
  recordAudit(tx: Tx, env: string, changes: { env: string; feed: boolean }[]): Promise<void>;
}

/**
 * The revisions the write transactions of one piece of work (an HTTP request) produced, by
 * environment: each transaction's bump, the highest kept (`producedRevisions`).
 */
const produced = asyncSlot<Map<string, number>>();

/**
 * Runs `fn` and answers, beside its result, the revision each environment was moved to by the
 * write transactions `fn` committed (the last of them, when several): the revision that holds
 * the work, no later one (the `X-Authz-Revision` of a write, src/http/routeTable.ts).
 */
export async function producedRevisions<T>(fn: () => Promise<T>): Promise<{ out: T; revisions: Map<string, number> }> {
  const revisions = new Map<string, number>();
  const out = await produced.run(revisions, fn);
  return { out, revisions };
}

/**
 * A rehearsal (Db.openRehearsal): one write transaction that is never committed. Work run through
 * `run` (its async context) sends every statement of every store to that transaction: its writes
 * are seen by its later reads, and nothing of it is kept (no revision, no change event, no commit
 * wait). The impact preview runs intended writes and the decision engine in one (src/areas/impact).
 */
export interface Rehearsal {
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Rolls the transaction back and gives its connection back. */
  close(): Promise<void>;
}

/** The transaction of the rehearsal being run in this async context, its statements one at a time. */
const rehearsing = asyncSlot<ManagedTransaction>();

/** A read must include every write to environment `env` up to its revision `revision` (Db.readOnce). */
export interface RevisionFloor {
  env: string;
  revision: number;
}

/** `floor` (a revision of `env`, or none) as readOnce's `atLeast`. */
export const floorOf = (env: string, floor: number | undefined): RevisionFloor | undefined =>
  floor === undefined ? undefined : { env, revision: floor };

/**
 * A statement bound to its name; created at boot so a missing file fails early. `R` is the type
 * of its rows (its `// @row` header): the runners answer `R[]`, so stores read typed rows.
 */
// biome-ignore lint/correctness/noUnusedVariables: `R` is only carried, for the runners to infer the rows' type
export interface Statement<R extends object = Row> {
  name: string;
  text: string;
  /** It changes the graph; running it in a read transaction is a bug. */
  writes: boolean;
  /** The parameter naming the environment whose revision it moves (its `// @invalidates` header), or null. */
  invalidates: string | null;
  /** What records it changes (its `// @changes` header), for the change feed and audit log; null: none. */
  changes: DeclaredChange | null;
}

/** A read transaction pulled row by row (Db.openReadStream). */
export interface ReadStream {
  rows<R extends object>(stmt: Statement<R>, params: Params): AsyncGenerator<R>;
  one<R extends object>(stmt: Statement<R>, params: Params): Promise<R | undefined>;
  /** Ends the transaction (nothing was written) and gives the connection back. */
  close(): Promise<void>;
}

/** JavaScript numbers travel as floats; whole numbers at the top level (paging, depths) go as integers. */
function withIntegers(params: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(params)) out[k] = typeof v === 'number' && Number.isInteger(v) ? neo4j.int(v) : v;
  return out;
}

type Mode = 'read' | 'write' | 'latest';

export class Tx {
  /** Environments named by the `@invalidates` parameter of this transaction's statements. */
  readonly invalidated = new Set<string>();
  /** The changes this transaction's statements made (told by the change log, when there is one). */
  readonly changes: { env: string; feed: boolean; op?: string; kind?: string; key?: string }[] = [];
  /** Every replica must know of this transaction before it is acknowledged (DbOptions.commitWaitMs). */
  announced = false;

  constructor(
    private readonly tx: ManagedTransaction,
    private readonly mode: Mode,
    private readonly changeLog?: ChangeLog,
  ) {}

  async rows<R extends object>(stmt: Statement<R>, params: Params): Promise<R[]> {
    return (await this.run(stmt, params)).rows as R[];
  }
  /**
   * Rows, and how many relationships the statement created (exact under concurrent writers: MERGE's own count).
   * `described`: the parameters the change log tells the changes from, when the statement takes
   * the same batch in another shape (columns instead of `$items`).
   */
  async rowsCreating<R extends object>(
    stmt: Statement<R>,
    params: Params,
    described: Params = params,
  ): Promise<{ rows: R[]; relationshipsCreated: number }> {
    const { rows, res } = await this.run(stmt, params, described);
    return { rows: rows as R[], relationshipsCreated: res.summary.counters.updates().relationshipsCreated };
  }
  private async run(stmt: Statement<Row>, params: Params, described: Params = params) {
    if (stmt.writes && this.mode !== 'write') throw new Error(`Cypher "${stmt.name}" writes; run it in db.write, not in a read`);
    if (stmt.invalidates !== null) {
      const envId = params[stmt.invalidates];
      if (typeof envId !== 'string') throw new Error(`Cypher "${stmt.name}" invalidates $${stmt.invalidates}, but got no string for it`);
      this.invalidated.add(envId);
    }
    try {
      const res = await this.tx.run(stmt.text, withIntegers(params));
      const rows = res.records.map((r) => r.toObject() as Row);
      if (stmt.writes && this.changeLog) this.changes.push(...this.changeLog.describe(stmt, described, rows));
      return { rows, res };
    } catch (err) {
      // A unique violation is a Duplicate at once, so a store can name it inside its transaction;
      // other errors stay raw here so that the driver still retries the transient ones.
      const storeErr = storeErrorOf(err);
      throw storeErr instanceof Duplicate ? storeErr : err;
    }
  }
  /**
   * A record a transaction writes twice (a batch statement run again for the items a first pass
   * could not write) is one change: the last description of each (env, op, kind, key) is kept.
   */
  dropRepeatedChanges(): void {
    // Environment ids, operations and kinds hold no line break, so the joined string names one
    // (env, op, kind, key) alone, whatever the key holds.
    const last = new Map<string, number>();
    this.changes.forEach((c, i) => last.set(`${c.env}\n${c.op}\n${c.kind}\n${c.key}`, i));
    if (last.size === this.changes.length) return;
    const keep = new Set(last.values());
    this.changes.splice(0, this.changes.length, ...this.changes.filter((_, i) => keep.has(i)));
  }
  async one<R extends object>(stmt: Statement<R>, params: Params): Promise<R | undefined> {
    return (await this.rows(stmt, params))[0];
  }
  /**
   * Moves the environment's revision without a record of the feed (an API key of it revoked or
   * rotated): replicas drop the key rows they keep for it (src/http/authenticator.ts).
   */
  touch(envId: string): void {
    this.invalidated.add(envId);
    this.announced = true;
  }
  /** A change that moves no revision but replicas must see before it is acknowledged (a deleted environment). */
  announce(): void {
    this.announced = true;
  }
}

export interface DbOptions {
  database?: string;
  /** DB_TIMEOUT_MS: every call gives up after it (client side, hung server included). */
  timeoutMs: number;
  /**
   * ADMIN_TIMEOUT_MS: the deadline of the Db `admin()` answers (policy apply and plan, import
   * batches, prunes, deletes of environments and projects); unset: timeoutMs.
   */
  adminTimeoutMs?: number;
  /**
   * WRITE_TIMEOUT_MS: the deadline of `write()` transactions (unset: timeoutMs). Every write of an
   * environment moves its revision, so its transaction waits for that lock behind the writes
   * before it (each holding it for a round trip and its commit): under a burst, or while Neo4j's
   * JVM warms up after a start, that wait grows past a decision's deadline though nothing is wrong.
   */
  writeTimeoutMs?: number;
  /** The setting that set `timeoutMs`, named by a timeout's error (default DB_TIMEOUT_MS). */
  timeoutSetting?: string;
  /** Told the revisions committed writes move environments to. */
  revisions?: RevisionListener;
  /** Records each write's change events in its transaction (the changes feed). */
  changes?: ChangeLog;
  /** Told each transaction's duration and failure (the `authz_neo4j_*` metrics). */
  observer?: TransactionObserver;
  /**
   * A routing URI (`neo4j://`: a cluster): a read may be served by a secondary that has not applied
   * the latest commits yet, so reads that must include a revision check it (`readOnce`'s `atLeast`).
   */
  routing?: boolean;
  /**
   * COHERENCE_WINDOW_MS: a write that moves a revision (or is announced) is acknowledged this
   * long after its commit, so that a replica whose last revision read started less than this
   * long before a question arrived has seen every write acknowledged before it (commit wait,
   * src/areas/decisions/revisions.ts). 0: no wait (and replicas read on every request).
   */
  commitWaitMs?: number;
  /**
   * The other replicas (src/db/replicas.ts): a write that only moves revisions needs no commit
   * wait while no other replica is alive. An announced write (a key revoked, an environment
   * deleted) waits anyway: what this process keeps of keys is dropped by its revision reads.
   */
  replicas?: ReplicaView;
}

/**
 * The only door to Neo4j: named statements, parameters only, managed transactions, a deadline
 * on every call. Failures leave as store errors (src/db/storeErrors.ts).
 *
 * Routing (a `neo4j://` URI to a cluster): `read` runs read transactions (a follower may serve
 * them), `write` runs write transactions on the leader. `readLatest` is for reads that must see
 * every commit acknowledged by any replica of the service (the revision read of read-your-revoke):
 * it runs on the leader, which has every committed transaction. Bookmarks would not do: a replica
 * only holds the bookmarks of its own writes, not those of the other replicas. A read that must
 * include such a read's revision (a decision's traversal) names it (`readOnce`'s `atLeast`): a
 * secondary that has not reached it leaves the read to the leader.
 */
export class Db {
  private readonly bumpRevision: Statement<RowOf<'revisions/bumpRevision'>>;
  private readonly readRevision: Statement<RowOf<'revisions/readRevision'>>;
  private readonly timeoutMs: number;
  private adminDb?: Db;
  private writerDb?: Db;

  constructor(
    readonly driver: Driver,
    private readonly registry: CypherRegistry,
    private readonly opts: DbOptions,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.bumpRevision = this.statement('revisions/bumpRevision');
    this.readRevision = this.statement('revisions/readRevision');
  }

  /**
   * The same door under the deadline of admin operations (ADMIN_TIMEOUT_MS) instead of a
   * decision's (DB_TIMEOUT_MS): the server-side transaction timeout, the client-side deadline and
   * the channel's (src/db/driver.ts) all take it. Each call is still one transaction: at the
   * deadline it is rolled back whole.
   */
  admin(): Db {
    if (this.isAdmin) return this;
    this.adminDb ??= new Db(this.driver, this.registry, {
      ...this.opts,
      timeoutMs: this.opts.adminTimeoutMs ?? this.timeoutMs,
      timeoutSetting: 'ADMIN_TIMEOUT_MS',
    });
    return this.adminDb;
  }

  /**
   * The same door under the deadline of writes (WRITE_TIMEOUT_MS), for `write()` of this Db when
   * it has the decision's deadline; the admin Db keeps its own.
   */
  private writer(): Db {
    const ms = this.opts.writeTimeoutMs;
    if (this.opts.timeoutSetting !== undefined || ms === undefined || ms === this.timeoutMs) return this;
    this.writerDb ??= new Db(this.driver, this.registry, { ...this.opts, timeoutMs: ms, timeoutSetting: 'WRITE_TIMEOUT_MS' });
    return this.writerDb;
  }

  /** A store error of `err`, naming this Db's deadline when it timed out. */
  private storeError(err: unknown): StoreError | undefined {
    return storeErrorOf(err, this.timeoutMs, this.opts.timeoutSetting);
  }

  /** The timeout of this Db, as a store error. */
  private timeout(): Unavailable {
    return new Unavailable('timeout', this.timeoutMs, undefined, this.opts.timeoutSetting);
  }

  /** Runs `fn` under this Db's channel deadline (a different one than the process's for `admin()`). */
  private deadlined<T>(fn: () => Promise<T>): Promise<T> {
    return this.ownDeadline ? withAnswerDeadline(this.timeoutMs, fn) : fn();
  }

  private get isAdmin(): boolean {
    return this.opts.timeoutSetting === 'ADMIN_TIMEOUT_MS';
  }

  /** A deadline other than the process's channel deadline (DB_TIMEOUT_MS): admin operations, writes. */
  private get ownDeadline(): boolean {
    return this.opts.timeoutSetting !== undefined && this.opts.timeoutSetting !== 'DB_TIMEOUT_MS';
  }

  /** Reads may be served by a secondary that lags the leader (a routing URI). */
  get routing(): boolean {
    return this.opts.routing === true;
  }

  statement<N extends StatementName>(name: N): Statement<RowOf<N>> {
    const { text, writes, invalidates, changes } = this.registry.info(name);
    return { name, text, writes, invalidates, changes };
  }

  /** Resolves a group of statements at once: `db.statements({create: 'tenants/createTenant'})`, each typed by its name. */
  statements<const M extends Record<string, StatementName>>(names: M): { [K in keyof M]: Statement<RowOf<M[K]>> } {
    const out = {} as { [K in keyof M]: Statement<RowOf<M[K]>> };
    for (const k of Object.keys(names) as (keyof M & string)[]) out[k] = this.statement(names[k]);
    return out;
  }

  /** Whether this async context runs in a rehearsal (its statements go to a transaction never committed). */
  get rehearsing(): boolean {
    return rehearsing.get() !== undefined;
  }

  /**
   * Opens a rehearsal (see `Rehearsal`): a write transaction on the leader, ended by the server after
   * `timeoutMs` at the latest, never committed. Its statements run one after the other.
   */
  async openRehearsal(timeoutMs: number): Promise<Rehearsal> {
    const session = this.driver.session({ defaultAccessMode: neo4j.session.WRITE, database: this.opts.database });
    let tx: Transaction;
    try {
      tx = await withDeadline(session.beginTransaction({ timeout: timeoutMs }), this.timeoutMs, () => this.timeout());
    } catch (err) {
      void closeQuietly(session);
      throw this.storeError(err) ?? err;
    }
    let queue: Promise<unknown> = Promise.resolve();
    const serial = {
      run: (text: string, params: Params) => {
        const next = queue.then(() => tx.run(text, params));
        queue = next.catch(() => undefined);
        return next;
      },
    } as unknown as ManagedTransaction;
    let closed = false;
    return {
      run: (fn) => rehearsing.run(serial, fn),
      close: async () => {
        if (closed) return;
        closed = true;
        await tx.rollback().catch(() => undefined);
        await closeQuietly(session);
      },
    };
  }

  /** A statement's rows in the rehearsal of this context; store errors as a transaction's. */
  private async inRehearsal<T>(held: ManagedTransaction, fn: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await fn(new Tx(held, 'write'));
    } catch (err) {
      throw this.storeError(err) ?? err;
    }
  }

  /** A read transaction (routed to any cluster member). */
  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction('read', fn);
  }

  /** A read that sees every committed write, whichever replica made it: runs on the leader. */
  async readLatest<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction('latest', fn);
  }

  /**
   * A write transaction. In the same transaction, it moves the revision of every environment
   * its statements declare (`// @invalidates $env`), and tells the revision listener once committed.
   */
  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const writer = this.writer();
    if (writer !== this) return writer.write(fn);
    try {
      return await this.transaction('write', fn);
    } catch (err) {
      // A write procedure of the walk extension missing (Neo4j restarted without it): the transaction
      // rolled back whole; the walk selection turns to the Cypher statements, and the write runs again.
      const missing = this.opts.observer?.procedureMissing;
      if (!missing || !isMissingProcedure(err)) throw err;
      missing();
      return this.transaction('write', fn);
    }
  }

  /** One read statement: an auto-commit query (readOnce), one exchange instead of a transaction's three. */
  async readRows<R extends object>(stmt: Statement<R>, params: Params): Promise<R[]> {
    return this.readOnce(stmt, params, 'read');
  }

  async readLatestRows<R extends object>(stmt: Statement<R>, params: Params): Promise<R[]> {
    return this.readOnce(stmt, params, 'latest');
  }

  /**
   * One read statement as an auto-commit query (`session.run`): one Bolt exchange (RUN and PULL
   * flushed together) instead of a managed transaction's three (BEGIN, RUN, COMMIT, each its own
   * socket write: 30% of the service's CPU on the decision path; 10 % more lists a second for
   * list-objects, docs/benchmarks.md). Every single-statement read goes this way (readRows,
   * readLatestRows). Same deadline as a transaction, and `latest` runs on the leader like
   * `readLatest`. A retriable failure (a pooled connection the server closed) is tried again, as
   * the driver does for transactions. Counted in the metrics as a transaction of its mode.
   */
  async readOnce<R extends object>(
    stmt: Statement<R>,
    params: Params,
    mode: 'read' | 'latest' = 'read',
    atLeast?: RevisionFloor,
  ): Promise<R[]> {
    if (stmt.writes) throw new Error(`Cypher "${stmt.name}" writes; run it in db.write, not in a read`);
    const held = rehearsing.get();
    if (held) return this.inRehearsal(held, (tx) => tx.rows(stmt, params));
    if (atLeast && mode === 'read' && this.routing) return this.readIncluding(stmt, params, atLeast);
    const started = Date.now();
    const clock = process.hrtime.bigint();
    let failure: DbErrorKind | undefined;
    try {
      for (let pause = 50; ; pause *= 2) {
        try {
          return (await this.autoCommit(stmt, params, mode, started + this.timeoutMs - Date.now())) as R[];
        } catch (err) {
          // Like the driver's transaction retries: backing off, within half the deadline.
          if (!neo4j.isRetriableError(err) || Date.now() + pause - started > this.timeoutMs / 2) {
            const storeErr = this.storeError(err);
            failure = errorKindOf(storeErr);
            throw storeErr ?? err;
          }
          this.opts.observer?.retried?.(mode);
          await new Promise((ok) => setTimeout(ok, pause));
        }
      }
    } finally {
      this.opts.observer?.transaction(mode, Number(process.hrtime.bigint() - clock) / 1e9, failure);
    }
  }

  /**
   * On a cluster: the statement on a secondary, in a read transaction that first checks that the
   * secondary has applied the environment's revision `atLeast.revision` (each write moves its
   * environment's revision in its own transaction, and a secondary applies transactions in commit
   * order: at that revision it has every write acknowledged before). A secondary that lags runs
   * nothing; the statement then runs on the leader, which has every commit.
   */
  private async readIncluding<R extends object>(stmt: Statement<R>, params: Params, atLeast: RevisionFloor): Promise<R[]> {
    const rows = await this.read(async (tx) => {
      const revision = (await tx.one(this.readRevision, { envId: atLeast.env }))?.revision ?? 0;
      return revision >= atLeast.revision ? tx.rows(stmt, params) : undefined;
    });
    return rows ?? this.readOnce(stmt, params, 'latest');
  }

  private async autoCommit(stmt: Statement<Row>, params: Params, mode: 'read' | 'latest', ms: number): Promise<Row[]> {
    const session = this.driver.session({
      defaultAccessMode: mode === 'read' ? neo4j.session.READ : neo4j.session.WRITE,
      database: this.opts.database,
    });
    let timedOut = false;
    try {
      // The driver formats a stack trace for every result, to attach it to a later error (~4% of
      // the CPU of a check); a store error carries none anyway, so none is captured here.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
      let run: Promise<Awaited<ReturnType<typeof session.run>>>;
      try {
        const go = () => session.run(stmt.text, withIntegers(params), { timeout: this.timeoutMs });
        // The decision path (no admin deadline) makes no closure's promise more than before.
        run = this.isAdmin ? this.deadlined(async () => go()) : Promise.resolve(go());
      } finally {
        Error.stackTraceLimit = limit;
      }
      const result = await withDeadline(run, ms, () => {
        timedOut = true;
        return this.timeout();
      });
      return result.records.map((r) => r.toObject() as Row);
    } finally {
      // As in transaction(): after a timeout the channel deadline destroys the stuck connection.
      if (timedOut) void closeQuietly(session);
      else await closeQuietly(session);
    }
  }

  /**
   * One read transaction whose rows are pulled as the caller consumes them (an export, docs/behaviour.md
   * section 16): the driver fetches `fetchSize` records at a time and stops pulling while the
   * caller has not taken them (backpressure), so no statement's answer is held whole. Its statements
   * run one after the other in the same transaction. Opening it is bound by DB_TIMEOUT_MS; the
   * whole is not (an export of a large environment takes longer): the caller closes it.
   * `hold`: a write transaction (on the leader) whose statements may also take locks (a statement
   * declaring `@invalidates none` and `@changes none`), never committed: closing rolls it back and
   * frees them; the server ends it after `hold.timeoutMs`.
   */
  async openReadStream(fetchSize = 2000, hold?: { timeoutMs: number }): Promise<ReadStream> {
    const session = this.driver.session({
      defaultAccessMode: hold ? neo4j.session.WRITE : neo4j.session.READ,
      database: this.opts.database,
      fetchSize,
    });
    let tx: Transaction;
    try {
      const begin = hold ? session.beginTransaction({ timeout: hold.timeoutMs }) : session.beginTransaction();
      tx = await withDeadline(begin, this.timeoutMs, () => this.timeout());
    } catch (err) {
      void closeQuietly(session);
      throw this.storeError(err) ?? err;
    }
    const storeError = (err: unknown) => this.storeError(err);
    let closed = false;
    const stream: ReadStream = {
      async *rows<R extends object>(stmt: Statement<R>, params: Params): AsyncGenerator<R> {
        // Held (an export holding its environment's writers): a lock statement, which moves no
        // revision and records no change, and is rolled back with the rest.
        if (stmt.writes && !(hold && stmt.invalidates === null && stmt.changes === null)) {
          throw new Error(`Cypher "${stmt.name}" writes; a read stream runs reads only (and locks, when held)`);
        }
        try {
          for await (const record of tx.run(stmt.text, withIntegers(params))) yield record.toObject() as R;
        } catch (err) {
          throw storeError(err) ?? err;
        }
      },
      async one<R extends object>(stmt: Statement<R>, params: Params): Promise<R | undefined> {
        for await (const row of stream.rows(stmt, params)) return row;
        return undefined;
      },
      async close() {
        if (closed) return;
        closed = true;
        await tx.rollback().catch(() => undefined);
        await closeQuietly(session);
      },
    };
    return stream;
  }

  async writeRows<R extends object>(stmt: Statement<R>, params: Params): Promise<R[]> {
    return this.write((tx) => tx.rows(stmt, params));
  }

  private async transaction<T>(mode: Mode, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const held = rehearsing.get();
    if (held) return this.inRehearsal(held, fn);
    const session = this.driver.session({
      defaultAccessMode: mode === 'read' ? neo4j.session.READ : neo4j.session.WRITE,
      database: this.opts.database,
    });
    // An environment that does not exist (any more) has no revision to move: undefined.
    let bumped: [string, number | undefined][] = [];
    let announced = false;
    const work = async (t: ManagedTransaction) => {
      const tx = new Tx(t, mode, mode === 'write' ? this.opts.changes : undefined);
      const out = await fn(tx);
      announced = tx.announced;
      // Once committed, no decision cached at an older revision of these environments is used again.
      // An environment with changes that invalidate no decision (approvals) moves too: its change
      // events need a revision of their own in the feed.
      bumped = [];
      tx.dropRepeatedChanges();
      const envs = new Set([...tx.invalidated, ...tx.changes.filter((c) => c.feed).map((c) => c.env)]);
      // Each environment's revision moves last: its write lock is taken there and held until the
      // commit, and every write to the environment waits for it. With changes of the feed, one
      // statement moves the revision and records them (not a bump, then a second round trip under
      // the lock): the writes one environment commits per second are about 1 / (that round trip
      // + the commit).
      for (const envId of envs) {
        const feed = tx.changes.filter((c) => c.env === envId && c.feed);
        const revision = feed.length
          ? await this.opts.changes!.recordAtNextRevision(tx, envId, feed)
          : (await tx.one(this.bumpRevision, { envId }))?.revision;
        bumped.push([envId, revision]);
        const audit = tx.changes.filter((c) => c.env === envId && !c.feed);
        if (audit.length && revision !== undefined) await this.opts.changes!.recordAudit(tx, envId, audit);
      }
      for (const envId of new Set(tx.changes.map((c) => c.env))) {
        if (!envs.has(envId))
          await this.opts.changes!.recordAudit(
            tx,
            envId,
            tx.changes.filter((c) => c.env === envId),
          );
      }
      return out;
    };
    // The server also drops the transaction at the deadline, so a slow query does not linger there.
    const config = { timeout: this.timeoutMs };
    // Kept in its run's slots until it settles: after a timeout answers, the transaction may still
    // record its changes, with its actor and revisions (src/util/asyncSlot.ts).
    const run = keepSlotsFor(
      this.deadlined(() => (mode === 'read' ? session.executeRead(work, config) : session.executeWrite(work, config))),
    );
    let timedOut = false;
    const started = process.hrtime.bigint();
    let failure: DbErrorKind | undefined;
    let out: T;
    try {
      out = await withDeadline(run, this.timeoutMs, () => {
        timedOut = true;
        return this.timeout();
      });
      const mine = produced.get();
      for (const [envId, rev] of bumped) {
        if (rev === undefined) continue;
        this.opts.revisions?.learn(envId, rev);
        if (mine && rev > (mine.get(envId) ?? 0)) mine.set(envId, rev);
      }
    } catch (err) {
      const storeErr = this.storeError(err);
      failure = errorKindOf(storeErr);
      throw storeErr ?? err;
    } finally {
      this.opts.observer?.transaction(mode, Number(process.hrtime.bigint() - started) / 1e9, failure);
      // After a timeout, closing cancels the driver's retries; the stuck connection is destroyed by
      // the channel deadline (src/db/driver.ts), never handed out again. Not awaited then.
      if (timedOut) void closeQuietly(session);
      else await closeQuietly(session);
    }
    // Commit wait (COHERENCE_WINDOW_MS): acknowledged only once every other replica's next fresh
    // revision read (src/areas/decisions/revisions.ts) has started after the commit.
    // Alone (no other replica alive), a write that only moves revisions is acknowledged at once:
    // this process learned its revisions at commit (above).
    const waitFor = announced || (bumped.length > 0 && !this.opts.replicas?.alone());
    if (waitFor && this.opts.commitWaitMs) await new Promise((ok) => setTimeout(ok, this.opts.commitWaitMs));
    return out;
  }
}

/** A store's answer about the data (not found, duplicate key) is no database failure: not counted. */
function errorKindOf(err: StoreError | undefined): DbErrorKind | undefined {
  if (err instanceof Unavailable) return err.reason === 'timeout' ? 'timeout' : 'unavailable';
  if (err instanceof Conflict) return 'conflict';
  if (err instanceof Duplicate || err instanceof NotFound) return undefined;
  return 'other';
}

async function closeQuietly(session: Session): Promise<void> {
  await session.close().catch(() => undefined);
}

/**
 * A record map read from the graph, or undefined when it is not one: a node that a concurrent
 * transaction deleted after this one found it reads with no properties, not even its key (read
 * committed), and must not be used as the record (its key would go on as a missing parameter).
 */
export function keyed<T extends { key: string }>(record: T | null | undefined): T | undefined {
  return typeof record?.key === 'string' ? record : undefined;
}
