import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/db';

/** One sampled decision, as stored. */
export interface DecisionEntry {
  env: string;
  id: string;
  at: string;
  user: string;
  action: string;
  resource_type: string;
  resource_key: string | null;
  tenant: string | null;
  decision: boolean;
  reason: string;
}

export interface DecisionLogOptions {
  /** DECISION_LOG_SAMPLE: the share of decisions logged, 0..1 (0: off). */
  sample: number;
  /** Entries waiting for a write at most; past it new ones are dropped and counted. */
  queueMax?: number;
  batchSize?: number;
  flushMs?: number;
  /** Told each entry dropped because the queue was full (the `authz_decision_log_dropped_total` metric). */
  onDrop?: () => void;
}

/**
 * The decision log (CONTRACT section 12): sampled decisions, written off the request path. A check
 * only pushes onto a bounded in-memory queue; a timer writes the queue in batches (one write
 * transaction each). When Neo4j is slow or down the queue fills, and new entries are dropped and
 * counted instead of slowing checks or growing memory.
 */
/** What a check leaves on the queue: the question and the answer, as given; the entry is made at write time. */
interface Offered {
  env: string;
  at: number;
  check: { user: string; action: string; type: string; key: string | null; tenant: string | null };
  decision: boolean;
  reason?: string;
}

export class DecisionLog {
  private queue: Offered[] = [];
  private timer?: NodeJS.Timeout;
  private flushing = false;
  private readonly insert = this.db.statement('decisionLog/insertDecisionLogs');
  readonly queueMax: number;
  private readonly batchSize: number;

  constructor(private readonly db: Db, private readonly opts: DecisionLogOptions, private readonly log?: Logger) {
    this.queueMax = opts.queueMax ?? 10_000;
    this.batchSize = opts.batchSize ?? 2000;
  }

  get enabled(): boolean {
    return this.opts.sample > 0;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.opts.flushMs ?? 1000);
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
  offer(env: string, c: { user: string; action: string; type: string; key: string | null; tenant: string | null }, decision: boolean, reason?: string): void {
    if (this.opts.sample <= 0 || (this.opts.sample < 1 && Math.random() >= this.opts.sample)) return;
    if (this.queue.length >= this.queueMax) {
      this.opts.onDrop?.();
      return;
    }
    this.queue.push({ env, at: Date.now(), check: c, decision, reason });
  }

  /** Writes what is queued, a batch per transaction; entries of a failed batch are dropped and counted. */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.batchSize);
        try {
          for (const entries of byEnv(entriesOf(batch))) await this.db.writeRows(this.insert, columnsOf(entries));
        } catch (err) {
          for (let i = 0; i < batch.length; i++) this.opts.onDrop?.();
          this.log?.warn({ err: (err as Error).message, dropped: batch.length }, 'decision log batch not written');
          return;
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

/** The stored entries of a batch: ids `<batch uuid>-<index>` (one UUID a batch), ISO timestamps, default reasons. */
function entriesOf(batch: Offered[]): DecisionEntry[] {
  const batchId = randomUUID();
  return batch.map((o, i) => ({
    env: o.env, id: `${batchId}-${i}`, at: new Date(o.at).toISOString(), user: o.check.user, action: o.check.action,
    resource_type: o.check.type, resource_key: o.check.key, tenant: o.check.tenant, decision: o.decision,
    reason: o.reason ?? (o.decision ? `a granting path gives "${o.check.action}"` : `no granting path gives "${o.check.action}"`),
  }));
}

function byEnv(entries: DecisionEntry[]): DecisionEntry[][] {
  const groups = new Map<string, DecisionEntry[]>();
  for (const e of entries) {
    const g = groups.get(e.env);
    if (g) g.push(e);
    else groups.set(e.env, [e]);
  }
  return [...groups.values()];
}

/** One environment's entries as the parallel lists of one `:DecisionLogBatch` (no nulls in lists: ''). */
function columnsOf(entries: DecisionEntry[]) {
  return {
    env: entries[0].env, first_at: entries[0].at, last_at: entries[entries.length - 1].at,
    ids: entries.map((e) => e.id), ats: entries.map((e) => e.at), users: entries.map((e) => e.user),
    actions: entries.map((e) => e.action), types: entries.map((e) => e.resource_type),
    keys: entries.map((e) => e.resource_key ?? ''), tenants: entries.map((e) => e.tenant ?? ''),
    decisions: entries.map((e) => e.decision), reasons: entries.map((e) => e.reason),
  };
}
