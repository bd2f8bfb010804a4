import { forbidden } from '../../errors';
import { paging } from '../../http/paging';
import type { RouteSpec } from '../../http/routeTable';
import { anyObject, envelope, int, obj, PAGING_QUERY, PROJ_ENV_PARAMS, str, timestamp } from '../../http/schema';
import type { AuditService } from './service';

const entry = obj(
  {
    at: timestamp(),
    revision: int(),
    actor: obj({ kind: str(), id: str() }, ['kind', 'id']),
    op: str({ enum: ['create', 'update', 'delete'] }),
    kind: str(),
    key: str(),
    before: anyObject(),
    after: anyObject(),
  },
  ['at', 'actor', 'op', 'kind', 'key'],
);

export const auditRoutes: RouteSpec<AuditService>[] = [
  {
    method: 'GET',
    path: '/v2/audit/:proj_id/:env_id',
    auth: 'env',
    tag: 'Audit',
    summary: 'Security-relevant events of an environment, newest first (admin key only)',
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({
        ...PAGING_QUERY,
        actor: str({ minLength: 1, maxLength: 300 }),
        kind: str({ minLength: 1, maxLength: 100 }),
        from: timestamp(),
        to: timestamp(),
      }),
      response: envelope(entry),
    },
    handler: (r, svc) => {
      if (r.principal.kind !== 'admin') throw forbidden('The audit log needs the admin key; an environment key may not read it.');
      return svc.list(r.scope, r.query, paging(r.query));
    },
  },
];
