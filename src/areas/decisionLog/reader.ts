import type { Scope } from '../../auth/types';
import { envelopeOf, type Page } from '../../http/paging';
import { instantFilter } from '../../util/time';
import { scoped } from '../../auth/types';
import { notFound } from '../../errors';
import { decisionsOf, type LoggedDecision } from './log';
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
    const data = found.slice(p.skip, p.skip + p.perPage).map(entryView);
    return envelopeOf(data, found.length, p);
  }

  /**
   * One entry by its id as Permit's DetailedAuditLog (`GET /v2/pdps/{p}/{e}/audit_logs/{log_id}`,
   * docs/behaviour.md section 12): the entry, the ids of where it was decided (the environment's own
   * service is its PDP), and the decision as Permit's PDP logs it (`raw_data`: its input, result and
   * path). 404 for an id this environment's log does not hold (another environment's entry too).
   */
  async getAsPermit(scope: Scope, logId: string) {
    const batches = await this.store.batchesOf(scope.envId, logId);
    const e = batches.flatMap(decisionsOf).find((d) => d.id === logId);
    if (!e) throw notFound('Decision log entry', logId);
    const view = entryView(e);
    const input = {
      user: { key: e.user },
      action: e.action,
      resource: { type: e.type, ...(e.key === null ? {} : { key: e.key }), tenant: e.tenant },
    };
    const result = { allow: e.decision };
    const ids = scoped(scope);
    return {
      ...view,
      input,
      result,
      context: {},
      pdp_config_id: scope.envId,
      env_id: ids.environment_id,
      project_id: ids.project_id,
      org_id: ids.organization_id,
      raw_data: {
        decision_id: e.id,
        labels: { id: scope.envId, version: 'graph-authz' },
        timestamp: view.timestamp,
        path: 'permit/root',
        input,
        result,
        metrics: {},
        tenant: e.tenant ?? '',
      },
      objects: {},
    };
  }
}

function entryView(e: LoggedDecision) {
  return {
    id: e.id,
    timestamp: new Date(e.at).toISOString(),
    user_key: e.user,
    action: e.action,
    resource_type: e.type,
    resource_key: e.key,
    tenant: e.tenant,
    decision: e.decision,
    reason: e.reason ?? (e.decision ? `a granting path gives "${e.action}"` : `no granting path gives "${e.action}"`),
  };
}
