import type { Logger } from 'pino';
import { Db, RevisionListener } from '../../db/db';
import { SharedReads } from '../../util/sharedRead';

/**
 * What this process knows of each environment's revision. Every write transaction to an
 * environment bumps it in the graph (src/db/db.ts) and tells this process once committed.
 * `latest` reads it from the graph for questions that must see writes acknowledged by any
 * replica (read-your-revoke, CONTRACT section 9); `current` answers the locally known one,
 * refreshed by a poll every REVISION_POLL_MS, for explicit `minimize_latency`.
 */
export class Revisions implements RevisionListener {
  private readonly byEnv = new Map<string, number>();
  private readonly reads = new SharedReads<number>();
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
    return this.reads.get(envId, () => this.readOne(envId));
  }

  // Sent to the leader (`latest`): on a cluster a follower may not have applied the latest
  // commit of another replica yet, and the point of this read is to see it. One auto-commit
  // query: a single round trip.
  private async readOne(envId: string): Promise<number> {
    const [row] = await this.db.readOnce(this.q.readOne, { envId }, 'latest');
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
