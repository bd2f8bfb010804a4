import type { Scope } from '../../auth/types';
import { envelopeOf, type Page } from '../../http/paging';
import { instantFilter } from '../../util/time';
import { decisionsOf } from './log';
import type { DecisionLogStore } from './store';

/** What the decision log may be filtered by (docs/behaviour.md section 12). */
export interface DecisionLogFilters {
  users?: string[];
  resources?: string[];
  decision?: boolean;
  tenant?: string;
  action?: string;
  from?: string;
  to?: string;
}

/** Reads the decision log (the writes are src/areas/decisionLog/log.ts, off the request path). */
export class DecisionLogReader {
  constructor(private readonly store: DecisionLogStore) {}

  /**
   * Newest first (then by id), filtered, one page and the total; the instants compare as instants,
   * whatever their offset. A resource filter is a type or "type:key"; users and resources match any given.
   */
  async list(scope: Scope, f: DecisionLogFilters, p: Page) {
    const fromIso = instantFilter(f.from, '/query/from');
    const toIso = instantFilter(f.to, '/query/to');
    const from = fromIso === null ? null : Date.parse(fromIso);
    const to = toIso === null ? null : Date.parse(toIso);
    const batches = await this.store.batches(scope.envId, fromIso, toIso);
    const found = batches
      .flatMap(decisionsOf)
      .filter(
        (e) =>
          (f.users === undefined || f.users.includes(e.user)) &&
          (f.resources === undefined || f.resources.some((res) => e.type === res || `${e.type}:${e.key}` === res)) &&
          (f.decision === undefined || e.decision === f.decision) &&
          (f.tenant === undefined || e.tenant === f.tenant) &&
          (f.action === undefined || e.action === f.action) &&
          (from === null || e.at >= from) &&
          (to === null || e.at <= to),
      );
    found.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const data = found.slice(p.skip, p.skip + p.perPage).map((e) => ({
      id: e.id,
      timestamp: new Date(e.at).toISOString(),
      user_key: e.user,
      action: e.action,
      resource_type: e.type,
      resource_key: e.key,
      tenant: e.tenant,
      decision: e.decision,
      reason: e.reason ?? (e.decision ? `a granting path gives "${e.action}"` : `no granting path gives "${e.action}"`),
    }));
    return envelopeOf(data, found.length, p);
  }
}
