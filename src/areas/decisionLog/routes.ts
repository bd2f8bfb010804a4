import type { Scope } from '../../auth/types';
import type { Db } from '../../db/db';
import { envelopeOf, Page, paging } from '../../http/paging';
import type { RouteDef } from '../../http/routeTable';
import { bool, envelope, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, str, timestamp } from '../../http/schema';
import { instantFilter } from '../../util/time';
import { Batch, decisionsOf } from './log';

const entry = obj(
  {
    id: str(), timestamp: timestamp(), user_key: str(), action: str(), resource_type: str(), resource_key: nullable(str()),
    tenant: nullable(str()), decision: bool(), reason: str(),
  },
  ['id', 'timestamp', 'user_key', 'action', 'resource_type', 'decision', 'reason'],
);

interface Filters { user?: string; resource?: string; decision?: boolean; from?: string; to?: string }

/** Reads the decision log (the writes are src/areas/decisionLog/log.ts, off the request path). */
export class DecisionLogReader {
  private readonly q = this.db.statements({ list: 'decisionLog/listDecisionLogs' });

  constructor(private readonly db: Db) {}

  /** Newest first (then by id), filtered, one page and the total; the instants compare as instants, whatever their offset. */
  async list(scope: Scope, f: Filters, p: Page) {
    const fromIso = instantFilter(f.from, '/query/from');
    const toIso = instantFilter(f.to, '/query/to');
    const from = fromIso === null ? null : Date.parse(fromIso);
    const to = toIso === null ? null : Date.parse(toIso);
    const rows = await this.db.readRows(this.q.list, { env: scope.envId, from: fromIso, to: toIso });
    const found = rows.flatMap((r) => decisionsOf(r.batch as Batch)).filter((e) =>
      (f.user === undefined || e.user === f.user)
      && (f.resource === undefined || e.type === f.resource || `${e.type}:${e.key}` === f.resource)
      && (f.decision === undefined || e.decision === f.decision)
      && (from === null || e.at >= from) && (to === null || e.at <= to));
    found.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const data = found.slice(p.skip, p.skip + p.perPage).map((e) => ({
      id: e.id, timestamp: new Date(e.at).toISOString(), user_key: e.user, action: e.action, resource_type: e.type,
      resource_key: e.key, tenant: e.tenant, decision: e.decision,
      reason: e.reason ?? (e.decision ? `a granting path gives "${e.action}"` : `no granting path gives "${e.action}"`),
    }));
    return envelopeOf(data, found.length, p);
  }
}

export function decisionLogRoutes(reader: DecisionLogReader): RouteDef[] {
  return [
    {
      method: 'GET', path: '/v2/pdps/:proj_id/:env_id/audit_logs', auth: 'env', tag: 'Audit',
      summary: 'Sampled decisions with their answer and reason, newest first (DECISION_LOG_SAMPLE)',
      schemas: {
        params: PROJ_ENV_PARAMS,
        query: obj({
          ...PAGING_QUERY,
          user: str({ minLength: 1, maxLength: 256 }), resource: str({ minLength: 1, maxLength: 600 }), decision: bool(),
          from: timestamp(), to: timestamp(),
        }),
        response: envelope(entry),
      },
      handler: (r) => reader.list(r.scope, r.query, paging(r.query)),
    },
  ];
}
