import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import type { Logger } from 'pino';
import type { Batch, DecisionLogStore, PackedBatch } from './store';

/**
 * One sampled decision in a stored batch (`DecisionLogBatch.data`: gzip'd JSON, base64): epoch ms,
 * user, action, resource type, resource key, tenant, answer, and the reason when the check had one
 * (an explanation; null: the default reason, made when read).
 */
type PackedDecision = [number, string, string, string, string | null, string | null, boolean, string | null];

export interface DecisionLogOptions {
  /** DECISION_LOG_SAMPLE: the share of decisions logged, 0..1 (0: off). */
  sample: number;
  /** Entries waiting for a write at most; past it new ones are dropped and counted. */
  queueMax?: number;
  /** Entries a stored batch holds at most (one `:DecisionLogBatch` node). */
  batchSize?: number;
  /** DECISION_LOG_FLUSH_MS: how often what is queued is written, in one transaction. */
  flushMs?: number;
  /** Told each entry dropped because the queue was full (the `authz_decision_log_dropped_total` metric). */
  onDrop?: () => void;
}

/** What a check leaves on the queue: the question and the answer, as given; the entry is made at write time. */
interface Offered {
  env: string;
  at: number;
  check: { user: string; action: string; type: string; key: string | null; tenant: string | null };
  decision: boolean;
  reason?: string;
}

/**
 * The decision log (docs/behaviour.md section 12): sampled decisions, written off the request path. A check
 * only pushes onto a bounded in-memory queue; a timer writes everything queued in one write
 * transaction (a batch node per environment and per `batchSize` entries). The number of
 * transactions, not their size, is what the log costs the checks (docs/benchmarks.md: with a
 * transaction per 2,000 entries every second, sample 1.0 cost 20 % of the cached checks' rate),
 * hence one per flush, every 5 s by default. When Neo4j is slow or down the queue fills, and new
 * entries are dropped and counted instead of slowing checks or growing memory.
 */
export class DecisionLog {
  private queue: Offered[] = [];
  private timer?: NodeJS.Timeout;
  /** The write in progress, if any. */
  private writing?: Promise<void>;
  readonly queueMax: number;
  private readonly batchSize: number;

  constructor(
    private readonly store: DecisionLogStore,
    private readonly opts: DecisionLogOptions,
    private readonly log?: Logger,
  ) {
    this.queueMax = opts.queueMax ?? 100_000;
    this.batchSize = opts.batchSize ?? 20_000;
  }

  get enabled(): boolean {
    return this.opts.sample > 0;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.opts.flushMs ?? 5000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Called on the request path: a coin toss and a push of what the check already holds, nothing
   * more (the id, the timestamp text and the reason are made when the batch is written).
   */
  offer(
    env: string,
    c: { user: string; action: string; type: string; key: string | null; tenant: string | null },
    decision: boolean,
    reason?: string,
  ): void {
    if (this.opts.sample <= 0 || (this.opts.sample < 1 && Math.random() >= this.opts.sample)) return;
    if (this.queue.length >= this.queueMax) {
      this.opts.onDrop?.();
      return;
    }
    this.queue.push({ env, at: Date.now(), check: c, decision, reason });
  }

  /**
   * Writes what is queued in one transaction; when it fails, its entries are dropped and counted.
   * One write at a time: a flush called while one runs (the timer, or shutdown) waits for it, then
   * writes what was queued meanwhile.
   */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.queue.length) return;
    const taken = this.queue;
    this.queue = [];
    this.writing = this.write(taken).finally(() => (this.writing = undefined));
    await this.writing;
  }

  private async write(taken: Offered[]): Promise<void> {
    try {
      const batches = await Promise.all(batchesOf(taken, this.batchSize).map(packed));
      await this.store.insert(batches);
    } catch (err) {
      for (let i = 0; i < taken.length; i++) this.opts.onDrop?.();
      this.log?.warn({ err: (err as Error).message, dropped: taken.length }, 'decision log entries not written');
    }
  }
}

/** The entries grouped by environment (in order within each), each group cut into batches of at most `size`. */
function batchesOf(entries: Offered[], size: number): Offered[][] {
  const byEnv = new Map<string, Offered[][]>();
  for (const e of entries) {
    const batches = byEnv.get(e.env) ?? byEnv.set(e.env, []).get(e.env)!;
    const last = batches[batches.length - 1];
    if (last && last.length < size) last.push(e);
    else batches.push([e]);
  }
  return [...byEnv.values()].flat();
}

const gzipped = promisify(gzip);

/**
 * One environment's entries as one `:DecisionLogBatch`: its id (an entry's id is `<batch id>-<index>`),
 * time span (ISO, for the retention sweep and the readers' time filter), count, and the entries
 * as gzip'd JSON text (base64). Neo4j stores one short string a batch instead of a record per
 * decision or per list element: the log's cost per check stays small (docs/benchmarks.md).
 */
async function packed(entries: Offered[]): Promise<PackedBatch> {
  const rows: PackedDecision[] = entries.map((o) => [
    o.at,
    o.check.user,
    o.check.action,
    o.check.type,
    o.check.key,
    o.check.tenant,
    o.decision,
    o.reason ?? null,
  ]);
  return {
    env: entries[0].env,
    id: randomUUID(),
    n: entries.length,
    first_at: new Date(entries[0].at).toISOString(),
    last_at: new Date(entries[entries.length - 1].at).toISOString(),
    // Compressed on libuv's thread pool, not on the event loop that answers the checks.
    data: (await gzipped(JSON.stringify(rows), { level: 1 })).toString('base64'),
  };
}

/** A logged decision as read back. */
export interface LoggedDecision {
  id: string;
  at: number;
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  decision: boolean;
  reason: string | null;
}

/** The decisions of a stored batch, in the order they were logged. */
export function decisionsOf(b: Batch): LoggedDecision[] {
  if (b.data) {
    const rows = JSON.parse(gunzipSync(Buffer.from(b.data, 'base64')).toString('utf8')) as PackedDecision[];
    return rows.map(([at, user, action, type, key, tenant, decision, reason], i) => ({
      id: `${b.id}-${i}`,
      at,
      user,
      action,
      type,
      key,
      tenant,
      decision,
      reason,
    }));
  }
  return (b.ids ?? []).map((id, i) => ({
    id,
    at: Date.parse(b.ats![i]),
    user: b.users![i],
    action: b.actions![i],
    type: b.types![i],
    key: b.keys![i] || null,
    tenant: b.tenants![i] || null,
    decision: b.decisions![i],
    reason: b.reasons![i],
  }));
}
