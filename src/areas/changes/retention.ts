import type { Logger } from 'pino';
import type { RetentionStore, Swept } from './retentionStore';

const DAY_MS = 86_400_000;

/**
 * Retention sweeps (AUDIT_RETENTION_DAYS): change events, audit events and decision logs older
 * than the retention are deleted in bounded batches (one short write transaction each), so a
 * sweep never holds locks long nor builds a huge transaction. The changes feed then starts at the
 * oldest kept revision.
 */
export class RetentionSweeper {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: RetentionStore,
    private readonly retentionDays: number,
    private readonly batch = 1000,
  ) {}

  start(everyMs: number, log: Logger): void {
    const run = () =>
      this.sweep().catch((err) => log.warn({ err: (err as Error).message }, 'retention sweep failed; retried at the next one'));
    this.timer = setInterval(run, everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Deletes what is older than the retention at `nowMs` (of one environment when given); answers how many. */
  async sweep(nowMs = Date.now(), env: string | null = null): Promise<number> {
    const before = new Date(nowMs - this.retentionDays * DAY_MS).toISOString();
    let total = 0;
    for (const what of ['changes', 'audit', 'decisions'] as Swept[]) {
      for (;;) {
        // Batches count nodes; the answer counts records (a ChangeSet holds a revision's events).
        const { deleted, events } = await this.store.sweepBatch(what, env, before, this.batch);
        total += events;
        if (deleted < this.batch) break;
      }
    }
    return total;
  }
}
