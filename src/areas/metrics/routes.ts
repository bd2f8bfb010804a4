import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError } from '../../errors';
import type { RouteSpec } from '../../http/routeTable';
import type { DbGauges } from './gauges';
import type { Metrics } from '../../metrics/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics` in the Prometheus text format. Open by default, like most exporters (keep the
 * port off the internet, or scrape through the network only); with METRICS_TOKEN set it asks
 * for `Authorization: Bearer <METRICS_TOKEN>` (Prometheus `authorization` in the scrape config).
 * A scrape runs no Cypher (docs/behaviour.md section 15).
 */
export interface MetricsDeps {
  metrics: Metrics;
  gauges: DbGauges;
  /** The SHA-256 digest of METRICS_TOKEN (`metricsTokenDigest`), when it is set. */
  tokenDigest?: Buffer;
}

export const metricsTokenDigest = (token: string | undefined): Buffer | undefined => (token ? digest(token) : undefined);

export const metricsRoutes: RouteSpec<MetricsDeps>[] = [
  {
    method: 'GET',
    path: '/metrics',
    auth: 'public',
    produces: 'text/plain',
    tag: 'Health',
    summary: 'Prometheus metrics (text format); asks for METRICS_TOKEN as a bearer token when it is set',
    schemas: {},
    handler: async ({ ctx }, { metrics, gauges, tokenDigest }) => {
      if (tokenDigest) {
        const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
        if (!timingSafeEqual(digest(given), tokenDigest))
          throw new AppError(401, 'UNAUTHORIZED', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".');
      }
      // Only memory: the gauges that need Neo4j are read in the background (src/areas/metrics/gauges.ts).
      gauges.hideStale();
      ctx.type = metrics.registry.contentType;
      return metrics.registry.metrics();
    },
  },
];
