import type { Config } from '../config';
import type { Req, RouteDef } from './routeTable';
import type { Metrics } from '../metrics/metrics';
import { FairQueue } from '../util/fairQueue';

/**
 * Fair share between environments (docs/behaviour.md section 15): two admission queues, one for the
 * checks' batched queries (src/areas/decisions/batcher.ts) and one for heavy questions (routes
 * marked `heavy`). Each is work-conserving (src/util/fairQueue.ts): an environment alone may use
 * every slot of its global bound; the per-environment bound bites only when other environments
 * wait (freed slots go to those under it, in turn). A caller waits; it is refused with 429 after
 * ADMISSION_WAIT_MS only while another environment runs or waits (or at once when
 * ADMISSION_QUEUE_PER_ENV of its environment already wait); refusals are counted by environment
 * in `authz_admission_refused_total`.
 */
export function admissionQueues(config: Config, metrics: Metrics): { checks: FairQueue; heavy: FairQueue } {
  // Work-conserving: an environment alone on a queue uses every slot and is not refused for waiting.
  const common = { maxWaitMs: config.admissionWaitMs, maxQueuedPerEnv: config.admissionQueuePerEnv, waitAlone: true };
  return {
    checks: new FairQueue({
      ...common,
      global: config.decisionQueriesInFlight,
      perEnv: config.decisionQueriesPerEnv,
      what: 'permission checks',
      onRefused: (env, reason) => metrics.admissionRefused.inc({ queue: 'checks', env, reason }),
    }),
    heavy: new FairQueue({
      ...common,
      global: config.heavyQueriesInFlight,
      perEnv: config.heavyQueriesPerEnv,
      what: 'heavy questions (explain, list-objects, user-permissions, authorized users, bulk, graph)',
      onRefused: (env, reason) => metrics.admissionRefused.inc({ queue: 'heavy', env, reason }),
    }),
  };
}

/** The routes, each `heavy` one with its handler run under `queue` (keyed by the request's environment). */
export function admitHeavy(routes: RouteDef[], queue: FairQueue): RouteDef[] {
  return routes.map((route) => {
    const heavy = route.heavy;
    if (!heavy) return route;
    const handler = route.handler;
    const admitted = (req: Req) =>
      req.scope && (heavy === true || heavy(req)) ? queue.run(req.scope.envId, () => handler(req)) : handler(req);
    return { ...route, handler: admitted };
  });
}
