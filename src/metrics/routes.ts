import { timingSafeEqual, createHash } from 'node:crypto';
import type { Db } from '../db/db';
import { AppError } from '../errors';
import type { RouteDef } from '../http/routeTable';
import { str } from '../http/schema';
import { now } from '../util/time';
import type { Metrics } from './metrics';

/** What the scrape reads besides the counters: each environment's revision as this replica knows it. */
export interface KnownRevisions {
  known(envId: string): number | undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics` in the Prometheus text format. Open by default, like most exporters (keep the
 * port off the internet, or scrape through the network only); with METRICS_TOKEN set it asks
 * for `Authorization: Bearer <METRICS_TOKEN>` (Prometheus `authorization` in the scrape config).
 */
export function metricsRoutes(metrics: Metrics, db: Db, revisions: KnownRevisions, token?: string): RouteDef[] {
  const q = db.statements({ counts: 'metrics/operatorCounts', revisions: 'revisions/readRevisions' });
  const tokenDigest = token ? digest(token) : undefined;

  /** Gauges read at scrape time; a failed read leaves the last values (the scrape still answers). */
  async function refreshGauges(): Promise<void> {
    const [counts] = await db.readRows(q.counts, { now: now() });
    metrics.sessions.set(Number(counts?.sessions ?? 0));
    metrics.approvals.reset();
    for (const a of (counts?.approvals ?? []) as { status: string; n: number }[]) metrics.approvals.set({ status: a.status }, Number(a.n));
    let lag = 0;
    for (const row of await db.readLatestRows(q.revisions, { envId: null })) {
      const known = revisions.known(row.env as string);
      if (known !== undefined) lag = Math.max(lag, Number(row.revision) - known);
    }
    metrics.revisionLag.set(lag);
  }

  return [
    {
      method: 'GET', path: '/metrics', auth: 'public', produces: 'text/plain', tag: 'Health',
      summary: 'Prometheus metrics (text format); asks for METRICS_TOKEN as a bearer token when it is set',
      schemas: {},
      handler: async ({ ctx }) => {
        if (tokenDigest) {
          const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
          if (!timingSafeEqual(digest(given), tokenDigest)) throw new AppError(401, 'UNAUTHORIZED', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".');
        }
        await refreshGauges().catch(() => undefined);
        ctx.type = metrics.registry.contentType;
        return metrics.registry.metrics();
      },
    },
  ];
}
