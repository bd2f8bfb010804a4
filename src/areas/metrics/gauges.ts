import type { Logger } from 'pino';
import type { MetricsStore } from './store';
import { now } from '../../util/time';
import type { Metrics } from '../../metrics/metrics';

/** What the gauges read besides the graph: each environment's revision as this replica knows it. */
export interface KnownRevisions {
  known(envId: string): number | undefined;
}

/** The gauges read from Neo4j are never shown older than this (docs/behaviour.md section 15). */
export const GAUGES_MAX_AGE_MS = 15_000;

/**
 * The gauges of GET /metrics that need Neo4j (live sessions, approvals by status, revision lag),
 * read in the background every METRICS_REFRESH_MS (at most 15 s), never by a scrape: a scrape
 * only reads what is in memory, so scraping often, or during an outage, costs the graph nothing.
 * When no read succeeded for 15 s (Neo4j unreachable), a scrape shows them as NaN rather than
 * as old numbers; `authz_metrics_refreshed_timestamp_seconds` says when they were last read.
 */
export class DbGauges {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readAt = 0;

  constructor(
    private readonly metrics: Metrics,
    private readonly store: MetricsStore,
    private readonly revisions: KnownRevisions,
  ) {}

  start(intervalMs: number, log: Logger): void {
    const tick = () => {
      if (this.running) return;
      this.running = this.refresh()
        .catch((err) => log.debug({ err: (err as Error).message }, 'metrics gauges not refreshed'))
        .finally(() => (this.running = undefined));
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Resolves once no refresh runs (after `stop`: none will). */
  async settled(): Promise<void> {
    await this.running;
  }

  /** One read of the gauges (two statements); a failed read leaves the last values. */
  async refresh(): Promise<void> {
    const counts = await this.store.counts(now());
    let lag = 0;
    for (const row of await this.store.revisions()) {
      const known = this.revisions.known(row.env);
      if (known !== undefined) lag = Math.max(lag, Number(row.revision) - known);
    }
    const m = this.metrics;
    m.sessions.set(Number(counts?.sessions ?? 0));
    m.approvals.reset();
    for (const a of (counts?.approvals ?? []) as { status: string; n: number }[]) m.approvals.set({ status: a.status }, Number(a.n));
    m.revisionLag.set(lag);
    this.readAt = Date.now();
    m.gaugesReadAt.set(this.readAt / 1000);
  }

  /** At a scrape, in memory: values older than GAUGES_MAX_AGE_MS are shown as NaN (unknown), not as current. */
  hideStale(at = Date.now()): void {
    if (at - this.readAt <= GAUGES_MAX_AGE_MS) return;
    const m = this.metrics;
    m.sessions.set(NaN);
    m.approvals.reset();
    m.revisionLag.set(NaN);
  }
}
