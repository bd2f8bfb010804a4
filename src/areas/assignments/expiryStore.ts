import type { Db } from '../../db/db';

/** Expired grant edges: which environments hold some, and deleting them in bounded batches. */
export class ExpiryStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      environments: 'expiry/environmentsWithExpired',
      deleteExpired: 'expiry/deleteExpired',
    });
  }

  /** Environments with an edge expired at `now` (epoch ms), at most `limit`. */
  async environmentsWithExpired(now: number, limit: number): Promise<string[]> {
    return (await this.db.readLatest((tx) => tx.rows(this.q.environments, { nowMs: now, limit }))).map((r) => r.env);
  }

  /** Deletes at most `batch` expired edges of the environment in one write transaction; answers how many. */
  async deleteExpired(env: string, now: number, batch: number): Promise<number> {
    const row = await this.db.write((tx) => tx.one(this.q.deleteExpired, { env, nowMs: now, batch }));
    return row?.deleted ?? 0;
  }
}
