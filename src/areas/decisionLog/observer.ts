import type { AskedCheck, DecisionObserver } from '../../metrics/metrics';
import type { DecisionLog } from './log';

/** The decision service's observer: the metrics, then the decision log when it is on. */
export function decisionObserver(metrics: DecisionObserver, log: DecisionLog): DecisionObserver {
  if (!log.enabled) return metrics;
  return {
    decided(env: string, checks: AskedCheck[], answers: boolean[], reasons?: string[]) {
      metrics.decided(env, checks, answers, reasons);
      for (let i = 0; i < checks.length; i++) log.offer(env, checks[i], answers[i], reasons?.[i]);
    },
    cacheLookups: (hits, misses) => metrics.cacheLookups(hits, misses),
    listPages: (fromKept) => metrics.listPages(fromKept),
  };
}
