import type { Logger } from 'pino';
import type { Db } from '../../db/db';

/**
 * Deletes expired grant edges (`expires_at` at or before now) in the background, in bounded
 * batches, one write transaction per batch and environment (each moves that environment's
 * revision like any write). Correctness does not depend on it: every decision ignores an expired
 * edge from its expiry instant; the sweep keeps the graph from growing with dead edges.
 */
export class ExpirySweep {
  private readonly q = this.db.statements({
    environments: 'expiry/environmentsWithExpired',
    deleteExpired: 'expiry/deleteExpired',
  });
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly batch = 500,
    /** Batches per environment and round, so one environment cannot hold the sweep. */
    private readonly maxBatches = 20,
  ) {}

  start(intervalMs: number, log: Logger): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.sweepOnce()
        .then((deleted) => deleted && log.info({ deleted }, 'expired grants deleted'))
        .catch((err) => log.warn({ err: (err as Error).message }, 'expiry sweep failed'))
        .finally(() => (this.running = false));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One round over every environment with expired edges; answers how many edges it deleted. */
  async sweepOnce(nowMs = Date.now()): Promise<number> {
    const envs = (await this.db.readLatest((tx) => tx.rows(this.q.environments, { nowMs, limit: 1000 }))).map((r) => r.env as string);
    let deleted = 0;
    for (const env of envs) {
      for (let i = 0; i < this.maxBatches; i++) {
        const row = await this.db.write((tx) => tx.one(this.q.deleteExpired, { env, nowMs, batch: this.batch }));
        const n = Number(row?.deleted ?? 0);
        deleted += n;
        if (n < this.batch) break;
      }
    }
    return deleted;
  }
}
