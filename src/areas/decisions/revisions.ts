import type { Logger } from 'pino';
import { Db } from '../../db/db';

/**
 * What this process knows of each environment's revision. A write here bumps it in the graph
 * and here at once; writes through other replicas arrive with the next poll, or at once when a
 * caller sends the revision token it got from its write (`consistency: {at_least}`).
 */
export class Revisions {
  private readonly known = new Map<string, number>();
  private readonly q = this.db.statements({ bump: 'revisions/bumpRevision', read: 'revisions/readRevisions' });
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: Db) {}

  start(pollMs: number, log: Logger): void {
    this.timer = setInterval(() => this.refresh(null).catch((err) => log.debug({ err: (err as Error).message }, 'revision poll failed')), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async bump(envId: string): Promise<number> {
    const [row] = await this.db.writeRows(this.q.bump, { envId });
    const rev = (row?.revision as number | undefined) ?? 0;
    this.learn(envId, rev);
    return rev;
  }

  /** The revision to tag decisions with; at least `atLeast` (read from the graph when needed). */
  async current(envId: string, atLeast = 0): Promise<number> {
    const local = this.known.get(envId);
    if (local === undefined || local < atLeast) await this.refresh(envId);
    return this.known.get(envId) ?? 0;
  }

  private async refresh(envId: string | null): Promise<void> {
    for (const row of await this.db.readRows(this.q.read, { envId })) this.learn(row.env as string, row.revision as number);
  }

  private learn(envId: string, rev: number): void {
    if (rev > (this.known.get(envId) ?? -1)) this.known.set(envId, rev);
  }
}
