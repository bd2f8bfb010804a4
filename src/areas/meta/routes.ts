import { buildOpenApi } from '../../http/openapi';
import type { RouteDef } from '../../http/routeTable';
import { anyObject } from '../../http/schema';
import { SESSION_COOKIE } from '../sessions/service';

/**
 * `GET /v2/openapi.json`: the OpenAPI 3.0 document of every route, generated from the route
 * tables. `allRoutes` is read lazily (on the first request) so that it includes this route and
 * every area wired after it.
 */
export function metaRoutes(allRoutes: () => RouteDef[]): RouteDef[] {
  let doc: unknown;
  return [
    {
      method: 'GET', path: '/v2/openapi.json', auth: 'public', tag: 'Meta', summary: 'This OpenAPI document',
      schemas: { response: anyObject() },
      handler: async () => (doc ??= buildOpenApi(allRoutes(), { sessionCookieName: SESSION_COOKIE })),
    },
  ];
}
