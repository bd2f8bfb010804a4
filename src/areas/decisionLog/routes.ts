import type { Scope } from '../../auth/types';
import type { Db } from '../../db/db';
import { envelopeOf, Page, paging } from '../../http/paging';
import type { RouteDef } from '../../http/routeTable';
import { bool, envelope, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, str, timestamp } from '../../http/schema';

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

  async list(scope: Scope, f: Filters, p: Page) {
    const [row] = await this.db.readRows(this.q.list, {
      env: scope.envId, user: f.user ?? null, resource: f.resource ?? null, decision: f.decision ?? null,
      from: f.from ?? null, to: f.to ?? null, skip: p.skip, limit: p.perPage,
    });
    const data = ((row?.page ?? []) as Record<string, unknown>[]).map((d) => ({
      id: d.id, timestamp: d.at, user_key: d.user, action: d.action, resource_type: d.resource_type,
      resource_key: d.resource_key || null, tenant: d.tenant || null, decision: d.decision, reason: d.reason,
    }));
    return envelopeOf(data, Number(row?.total ?? 0), p);
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
