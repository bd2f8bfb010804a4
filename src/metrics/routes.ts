import { timingSafeEqual, createHash } from 'node:crypto';
import { AppError } from '../errors';
import type { RouteDef } from '../http/routeTable';
import { str } from '../http/schema';
import type { DbGauges } from './gauges';
import type { Metrics } from './metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics` in the Prometheus text format. Open by default, like most exporters (keep the
 * port off the internet, or scrape through the network only); with METRICS_TOKEN set it asks
 * for `Authorization: Bearer <METRICS_TOKEN>` (Prometheus `authorization` in the scrape config).
 * A scrape runs no Cypher (CONTRACT section 15).
 */
export function metricsRoutes(metrics: Metrics, gauges: DbGauges, token?: string): RouteDef[] {
  const tokenDigest = token ? digest(token) : undefined;

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
        // Only memory: the gauges that need Neo4j are read in the background (src/metrics/gauges.ts).
        gauges.hideStale();
        ctx.type = metrics.registry.contentType;
        return metrics.registry.metrics();
      },
    },
  ];
}
