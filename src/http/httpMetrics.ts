import type { Context, Next } from 'koa';
import type { Metrics } from '../metrics/metrics';

/**
 * Times every request and counts depth-limited decisions. The route label is the matched
 * template (`/v2/facts/:proj_id/:env_id/users`), never the raw path, so the series stay few;
 * a request no route matched is `unmatched`.
 */
export function httpMetrics(metrics: Metrics) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      observeRequest(
        metrics,
        ctx.method,
        typeof route === 'string' ? route : 'unmatched',
        ctx.status,
        seconds,
        ctx.response.get('x-authz-depth-limited'),
      );
    }
  };
}

/** One answered request, from koa's chain or the hot path (src/http/hotPath.ts). */
export function observeRequest(
  metrics: Metrics,
  method: string,
  route: string,
  status: number,
  seconds: number,
  depthLimitedHeader: string | undefined,
): void {
  metrics.httpDuration.observe({ method, route, status: String(status) }, seconds);
  // The decision endpoints mark an answer cut at MAX_DERIVATION_DEPTH with this header (docs/behaviour.md section 8).
  if (depthLimitedHeader === 'true') metrics.depthLimited.inc();
}
