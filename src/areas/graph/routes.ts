import { route, type RouteSpec } from '../../http/routeTable';
import { arr, factKey, int, nullable, obj, PROJ_ENV_PARAMS, str } from '../../http/schema';
import { type GraphService, MAX_GRAPH_NODES } from './service';

const node = obj({ id: str(), labels: arr(str()), key: str(), resource: nullable(str()), tenant: nullable(str()), email: nullable(str()) });
const edge = obj({ id: str(), type: str(), from: str(), to: str(), role: nullable(str()), relation: nullable(str()) });

const tag = 'Graph inspection';
export const graphRoutes: RouteSpec<GraphService>[] = [
  route({
    method: 'GET',
    path: '/v2/graph/:proj_id/:env_id',
    auth: 'env',
    adminOnly: true,
    heavy: true,
    tag,
    summary: 'The neighbourhood of a user or instance: nodes and edges, bounded, with a truncated flag',
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({
        focus: str({ minLength: 3, maxLength: 400 }),
        tenant: str({ maxLength: 256 }),
        depth: int({ minimum: 0, maximum: 6 }),
        limit: int({ minimum: 1, maximum: MAX_GRAPH_NODES }),
      }),
      response: obj({ nodes: arr(node), edges: arr(edge), truncated: { type: 'boolean' }, limit: int() }),
    },
    handler: (r, svc) => svc.neighbourhood(r.scope, r.query),
  }),
  route({
    method: 'GET',
    path: '/v2/graph/:proj_id/:env_id/users/:user_id/effective_roles',
    auth: 'env',
    adminOnly: true,
    heavy: true,
    tag,
    summary: 'Each role the user holds on each instance, with the path that grants it',
    schemas: {
      params: { ...PROJ_ENV_PARAMS, user_id: factKey() },
      query: obj({ tenant: str({ maxLength: 256 }) }),
      response: obj({ user: str(), roles: arr(obj({ resource: str(), tenant: str(), role: str(), path: str() })) }),
    },
    handler: (r, svc) => svc.effectiveRoles(r.scope, r.params.user_id, r.query.tenant),
  }),
];
