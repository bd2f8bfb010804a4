import { buildOpenApi } from '../../http/openapi';
import type { RouteDef } from '../../http/routeTable';
import { route } from '../../http/routeTable';
import { freeObject, obj, str } from '../../http/schema';
import { SESSION_COOKIE } from '../../auth/types';

/**
 * `GET /v2/openapi.json`: the OpenAPI 3.0 document of every route, generated from the route
 * tables. `allRoutes` is read lazily (on the first request) so that it includes this route and
 * every area wired after it.
 */
const openApiDocument = obj(
  { openapi: str({ pattern: '^3\\.0\\.' }), info: freeObject(), servers: { type: 'array' }, tags: { type: 'array' }, paths: freeObject(), components: freeObject() },
  ['openapi', 'info', 'paths', 'components'],
);

export function metaRoutes(allRoutes: () => RouteDef[]): RouteDef[] {
  let doc: unknown;
  return [
    route({
      method: 'GET', path: '/v2/openapi.json', auth: 'public', tag: 'Meta', summary: 'This OpenAPI document',
      schemas: { response: openApiDocument },
      handler: async () => (doc ??= buildOpenApi(allRoutes(), { sessionCookieName: SESSION_COOKIE })),
    }),
  ];
}
