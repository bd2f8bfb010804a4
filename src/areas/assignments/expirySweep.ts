import type { Logger } from 'pino';
import type { ExpiryStore } from './expiryStore';

/**
 * Deletes expired grant edges (`expires_at` at or before now) in the background, in bounded
 * batches, one write transaction per batch and environment (each moves that environment's
 * revision like any write). Correctness does not depend on it: every decision ignores an expired
 * edge from its expiry instant; the sweep keeps the graph from growing with dead edges.
 */
export class ExpirySweep {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly store: ExpiryStore,
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
  async sweepOnce(now = Date.now()): Promise<number> {
    const envs = await this.store.environmentsWithExpired(now, 1000);
    let deleted = 0;
    for (const env of envs) {
      for (let i = 0; i < this.maxBatches; i++) {
        const n = await this.store.deleteExpired(env, now, this.batch);
        deleted += n;
        if (n < this.batch) break;
      }
    }
    return deleted;
  }
}
