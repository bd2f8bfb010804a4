import type { Logger } from 'pino';
import { Db, RevisionListener } from '../../db/db';

/** A revision read that has not started yet (questions may still join it) or is running. */
interface ReadSlot {
  waiting?: Promise<number>;
  running?: Promise<number>;
}

/**
 * What this process knows of each environment's revision. Every write transaction to an
 * environment bumps it in the graph (src/db/db.ts) and tells this process once committed.
 * `latest` reads it from the graph for questions that must see writes acknowledged by any
 * replica (read-your-revoke, CONTRACT section 9); `current` answers the locally known one,
 * refreshed by a poll every REVISION_POLL_MS, for explicit `minimize_latency`.
 */
export class Revisions implements RevisionListener {
  private readonly byEnv = new Map<string, number>();
  private readonly reads = new Map<string, ReadSlot>();
  private readonly q = this.db.statements({ readAll: 'revisions/readRevisions', readOne: 'revisions/readRevision' });
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: Db) {}

  start(pollMs: number, log: Logger): void {
    this.timer = setInterval(() => this.refresh(null).catch((err) => log.debug({ err: (err as Error).message }, 'revision poll failed')), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The locally known revision (bounded staleness); read from the graph the first time. */
  async current(envId: string): Promise<number> {
    if (!this.byEnv.has(envId)) await this.refresh(envId);
    return this.byEnv.get(envId) ?? 0;
  }

  /**
   * The environment's revision from a read that started after this call: it includes every
   * write committed before. Callers that arrive while a read runs share the next one, so at
   * most one read per environment is in flight and its cost is spread over every question
   * that waited for it.
   */
  latest(envId: string): Promise<number> {
    let slot = this.reads.get(envId);
    if (!slot) this.reads.set(envId, (slot = {}));
    if (slot.waiting) return slot.waiting;
    const s = slot;
    const read: Promise<number> = (s.running ?? Promise.resolve(0))
      .catch(() => 0)
      .then(() => {
        s.waiting = undefined;
        s.running = read;
        return this.readOne(envId);
      })
      .finally(() => {
        if (s.running === read) s.running = undefined;
        if (!s.running && !s.waiting && this.reads.get(envId) === s) this.reads.delete(envId);
      });
    s.waiting = read;
    return read;
  }

  // Sent to the leader (db.readLatestRows): on a cluster a follower may not have applied the
  // latest commit of another replica yet, and the point of this read is to see it.
  private async readOne(envId: string): Promise<number> {
    const [row] = await this.db.readLatestRows(this.q.readOne, { envId });
    const rev = (row?.revision as number | undefined) ?? 0;
    this.learn(envId, rev);
    return rev;
  }

  private async refresh(envId: string | null): Promise<void> {
    for (const row of await this.db.readRows(this.q.readAll, { envId })) this.learn(row.env as string, row.revision as number);
  }

  known(envId: string): number | undefined {
    return this.byEnv.get(envId);
  }

  learn(envId: string, rev: number): void {
    if (rev > (this.byEnv.get(envId) ?? -1)) this.byEnv.set(envId, rev);
  }
}
