import type { Req } from '../../http/routeTable';

/**
 * Answers cut short by MAX_DERIVATION_DEPTH (CONTRACT section 8): the header
 * `X-Authz-Depth-Limited: true`, and a `warn` line carrying this process's count of them. The
 * metric `authz_depth_limited_total` counts the header (src/metrics/httpMetrics.ts, and the hot
 * path's own observation), not this counter.
 */
let depthLimitedAnswers = 0;

/** How many answers this process gave that MAX_DERIVATION_DEPTH cut short. */
export function depthLimitedCount(): number {
  return depthLimitedAnswers;
}

/** Marks a depth-limited answer on the response and strips the internal flag from the body. */
export function withDepthLimitSignal<T extends { depthLimited?: true }>(r: Req, answer: T): Omit<T, 'depthLimited'> {
  const { depthLimited, ...body } = answer;
  if (depthLimited) {
    depthLimitedAnswers++;
    r.ctx.set('x-authz-depth-limited', 'true');
    r.log.warn({ path: r.ctx.path, depthLimitedCount: depthLimitedAnswers }, 'a permission check reached MAX_DERIVATION_DEPTH without an answer');
  }
  return body;
}
