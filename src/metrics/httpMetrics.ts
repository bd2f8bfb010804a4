import type { Context, Next } from 'koa';
import type { Metrics } from './metrics';

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
      metrics.httpDuration.observe({ method: ctx.method, route: typeof route === 'string' ? route : 'unmatched', status: String(ctx.status) }, seconds);
      // The decision endpoints mark an answer cut at MAX_DERIVATION_DEPTH with this header (CONTRACT section 8).
      if (ctx.response.get('x-authz-depth-limited') === 'true') metrics.depthLimited.inc();
    }
  };
}
