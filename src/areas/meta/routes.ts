import { route, type RouteSpec } from '../../http/routeTable';
import { freeObject, obj, str } from '../../http/schema';

/**
 * `GET /v2/openapi.json`: the OpenAPI 3.0 document of every route, generated from the route
 * tables (`servedDocument` in src/routeTables.ts, by src/http/openapi.ts; the composition root
 * gives it, built once, on the first request).
 */
const openApiDocument = obj(
  {
    openapi: str({ pattern: '^3\\.0\\.' }),
    info: freeObject(),
    servers: { type: 'array' },
    tags: { type: 'array' },
    paths: freeObject(),
    components: freeObject(),
  },
  ['openapi', 'info', 'paths', 'components'],
);

export interface MetaDeps {
  /** The OpenAPI document of every route the service serves. */
  document: () => unknown;
}

export const metaRoutes: RouteSpec<MetaDeps>[] = [
  route({
    method: 'GET',
    path: '/v2/openapi.json',
    auth: 'public',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    schemas: { response: openApiDocument },
    handler: async (_r, { document }) => document(),
  }),
];
