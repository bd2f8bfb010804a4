import type { Req } from './routeTable';

/**
 * Answers cut short by MAX_DERIVATION_DEPTH (docs/behaviour.md section 8): the header
 * `X-Authz-Depth-Limited: true` (which the metrics read: `authz_depth_limited_total`,
 * src/http/httpMetrics.ts and the hot path), a `warn` line, and a process counter for the tests.
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
    r.log.warn(
      { path: r.ctx.path, depthLimitedCount: depthLimitedAnswers },
      'a permission check reached MAX_DERIVATION_DEPTH without an answer',
    );
  }
  return body;
}
