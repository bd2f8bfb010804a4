import { envelopeOf, paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import { arr, bool, envelope, freeObject, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, str, timestamp } from '../../http/schema';
import type { DecisionLogReader } from './reader';

const entry = obj(
  {
    id: str(),
    timestamp: timestamp(),
    user_key: str(),
    action: str(),
    resource_type: str(),
    resource_key: nullable(str()),
    tenant: nullable(str()),
    decision: bool(),
    reason: str(),
  },
  ['id', 'timestamp', 'user_key', 'action', 'resource_type', 'decision', 'reason'],
);

/** Permit's AuditLog: our entry plus the ids of where it was decided (the PDP is the environment's own service: its id). */
const permitEntry = obj({ ...entry.properties, pdp_config_id: str(), env_id: str(), project_id: str(), org_id: str() }, [
  ...(entry.required as string[]),
  'pdp_config_id',
  'env_id',
  'project_id',
  'org_id',
]);

/** Permit's DetailedAuditLog: the entry with the decision as Permit's PDP logs it (`raw_data`). */
const detailedEntry = obj(
  {
    ...permitEntry.properties,
    input: freeObject(),
    result: freeObject(),
    context: freeObject(),
    raw_data: obj(
      {
        decision_id: str(),
        labels: obj({ id: str(), version: str() }, ['id', 'version']),
        timestamp: timestamp(),
        path: str(),
        input: freeObject(),
        result: freeObject(),
        metrics: freeObject(),
        tenant: str(),
      },
      ['decision_id', 'labels', 'timestamp', 'path', 'input', 'result', 'metrics', 'tenant'],
    ),
    objects: freeObject(),
  },
  [...(permitEntry.required as string[]), 'raw_data', 'objects'],
);

const seconds = { type: 'number', minimum: 0, maximum: 1e11 };
const isoOf = (epochSeconds: number | undefined) => (epochSeconds === undefined ? undefined : new Date(epochSeconds * 1000).toISOString());

export const decisionLogRoutes: RouteSpec<DecisionLogReader>[] = [
  route({
    method: 'GET',
    path: '/v2/decision-log/:proj_id/:env_id',
    auth: 'env',
    tag: 'Audit',
    summary: 'Sampled decisions with their answer and reason, newest first (DECISION_LOG_SAMPLE)',
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({
        ...PAGING_QUERY,
        user: str({ minLength: 1, maxLength: 256 }),
        resource: str({ minLength: 1, maxLength: 600 }),
        decision: bool(),
        from: timestamp(),
        to: timestamp(),
      }),
      response: envelope(entry),
    },
    handler: (r, reader) =>
      reader.list(
        r.scope,
        {
          users: r.query.user === undefined ? undefined : [r.query.user],
          resources: r.query.resource === undefined ? undefined : [r.query.resource],
          decision: r.query.decision,
          from: r.query.from,
          to: r.query.to,
        },
        paging(r.query),
      ),
  }),
  // docs/behaviour.md section 14: Permit's meaning of this path (the SDKs' AuditLogsApi.listAuditLogs):
  // PaginatedResultAuditLog, Permit's filters (timestamps in epoch seconds).
  route({
    method: 'GET',
    path: '/v2/pdps/:proj_id/:env_id/audit_logs',
    auth: 'env',
    tag: 'Audit',
    summary: "The decision log as Permit's audit logs (PaginatedResultAuditLog), newest first",
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({
        ...PAGING_QUERY,
        pdp_id: str({ minLength: 1, maxLength: 64 }),
        users: arr(str({ minLength: 1, maxLength: 256 }), { maxItems: 100 }),
        resources: arr(str({ minLength: 1, maxLength: 600 }), { maxItems: 100 }),
        decision: bool(),
        tenant: str({ minLength: 1, maxLength: 256 }),
        action: str({ minLength: 1, maxLength: 128 }),
        timestamp_from: seconds,
        timestamp_to: seconds,
        sort_by: str({ enum: ['None', 'timestamp'] }),
      }),
      response: envelope(permitEntry),
    },
    handler: async (r, reader) => {
      const q = r.query as {
        pdp_id?: string;
        users?: string[];
        resources?: string[];
        decision?: boolean;
        tenant?: string;
        action?: string;
        timestamp_from?: number;
        timestamp_to?: number;
        page?: number;
        per_page?: number;
      };
      const p = paging(q);
      // The PDP of an environment is its service: its id is the environment's; another PDP decided nothing here.
      if (q.pdp_id !== undefined && q.pdp_id !== r.scope.envId) return envelopeOf([], 0, p);
      const page = await reader.list(
        r.scope,
        {
          users: q.users,
          resources: q.resources,
          decision: q.decision,
          tenant: q.tenant,
          action: q.action,
          from: isoOf(q.timestamp_from),
          to: isoOf(q.timestamp_to),
        },
        p,
      );
      const ids = { pdp_config_id: r.scope.envId, env_id: r.scope.envId, project_id: r.scope.projectId, org_id: r.scope.orgId };
      return { ...page, data: page.data.map((e) => ({ ...e, ...ids })) };
    },
  }),
  // Permit's read of one audit log (the SDKs' AuditLogsApi.getDetailedAuditLog): DetailedAuditLog.
  route({
    method: 'GET',
    path: '/v2/pdps/:proj_id/:env_id/audit_logs/:log_id',
    auth: 'env',
    tag: 'Audit',
    summary: "One decision-log entry by id, as Permit's DetailedAuditLog",
    schemas: { params: { ...PROJ_ENV_PARAMS, log_id: str({ minLength: 1, maxLength: 200 }) }, response: detailedEntry },
    handler: (r, reader) => reader.getAsPermit(r.scope, r.params.log_id),
  }),
];
