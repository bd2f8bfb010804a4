import type { RouteSpec } from '../../http/routeTable';
import { anyObject, arr, int, obj, PROJ_ENV_PARAMS, str, timestamp } from '../../http/schema';
import type { ChangesService } from './service';

const change = obj(
  {
    revision: int(),
    at: timestamp(),
    actor: obj({ kind: str({ enum: ['admin', 'env_key', 'session'] }), id: str() }, ['kind', 'id']),
    op: str({ enum: ['create', 'update', 'delete'] }),
    kind: str(),
    key: str(),
    before: anyObject(),
    after: anyObject(),
  },
  ['revision', 'at', 'actor', 'op', 'kind', 'key'],
);

export const changesRoutes: RouteSpec<ChangesService>[] = [
  {
    method: 'GET',
    path: '/v2/facts/:proj_id/:env_id/changes',
    auth: 'env',
    tag: 'Changes',
    summary: "The environment's change events after a revision (long-polls with wait_ms)",
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({
        after_revision: int({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
        page_size: int({ minimum: 1, maximum: 1000, default: 100 }),
        wait_ms: int({ minimum: 0, maximum: 30000, default: 0 }),
      }),
      response: obj({ changes: arr(change), next_revision: int() }, ['changes', 'next_revision']),
    },
    handler: (r, svc) => svc.changes(r.scope, r.query),
  },
];
