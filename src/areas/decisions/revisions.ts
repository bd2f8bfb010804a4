import type { Logger } from 'pino';
import { Db, RevisionListener } from '../../db/db';

/**
 * What this process knows of each environment's revision. Every write transaction to an
 * environment bumps it in the graph (src/db/db.ts) and tells this process once committed;
 * writes through other replicas arrive with the next poll, or at once when a caller sends the
 * revision token it got from its write (`consistency: {at_least}`).
 */
export class Revisions implements RevisionListener {
  private readonly byEnv = new Map<string, number>();
  private readonly q = this.db.statements({ read: 'revisions/readRevisions' });
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: Db) {}

  start(pollMs: number, log: Logger): void {
    this.timer = setInterval(() => this.refresh(null).catch((err) => log.debug({ err: (err as Error).message }, 'revision poll failed')), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** The revision to tag decisions with; at least `atLeast` (read from the graph when needed). */
  async current(envId: string, atLeast = 0): Promise<number> {
    const local = this.byEnv.get(envId);
    if (local === undefined || local < atLeast) await this.refresh(envId);
    return this.byEnv.get(envId) ?? 0;
  }

  private async refresh(envId: string | null): Promise<void> {
    for (const row of await this.db.readRows(this.q.read, { envId })) this.learn(row.env as string, row.revision as number);
  }

  known(envId: string): number | undefined {
    return this.byEnv.get(envId);
  }

  learn(envId: string, rev: number): void {
    if (rev > (this.byEnv.get(envId) ?? -1)) this.byEnv.set(envId, rev);
  }
}
