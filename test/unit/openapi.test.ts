import { declaredRoutes } from '../../src/routeTables';
import { buildOpenApi, toOpenApiPath, toOpenApiSchema } from '../../src/http/openapi';
import type { RouteDef } from '../../src/http/routeTable';
import { obj, str } from '../../src/http/schema';

const allRoutes = declaredRoutes;

type Doc = any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Visits every Schema Object of the document (not property maps, whose keys are names). */
function walkSchemas(doc: Doc, visit: (s: Record<string, any>) => void): void {
  const schema = (s: any): void => {
    if (!s || typeof s !== 'object') return;
    visit(s);
    Object.values(s.properties ?? {}).forEach(schema);
    if (s.items) schema(s.items);
    if (typeof s.additionalProperties === 'object') schema(s.additionalProperties);
    for (const k of ['oneOf', 'anyOf', 'allOf']) (s[k] ?? []).forEach(schema);
    if (s.not) schema(s.not);
  };
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of METHODS.map((m) => item[m]).filter(Boolean)) {
      (op.parameters ?? []).forEach((p: any) => schema(p.schema));
      Object.values<any>(op.requestBody?.content ?? {}).forEach((c) => schema(c.schema));
      for (const r of Object.values<any>(op.responses)) Object.values<any>(r.content ?? {}).forEach((c) => schema(c.schema));
    }
  }
  Object.values(doc.components.schemas).forEach(schema);
}

describe('OpenAPI document', () => {
  const routes = allRoutes();
  const doc: Doc = buildOpenApi(routes);

  it('is an OpenAPI 3.0 document', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(() => JSON.stringify(doc)).not.toThrow();
  });

  it('lists every route, under every one of its paths, with its method', () => {
    let operations = 0;
    for (const route of routes) {
      for (const p of Array.isArray(route.path) ? route.path : [route.path]) {
        const op = doc.paths[toOpenApiPath(p).path]?.[route.method.toLowerCase()];
        expect({ route: `${route.method} ${p}`, summary: op?.summary }).toEqual({ route: `${route.method} ${p}`, summary: route.summary });
        operations++;
      }
    }
    const documented = Object.values(doc.paths).flatMap((item: any) => Object.keys(item).filter((m) => METHODS.includes(m)));
    expect(documented).toHaveLength(operations);
    expect(doc.paths['/v2/openapi.json'].get.security).toEqual([]);
  });

  it('declares every path parameter, required, and no undeclared one', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path).not.toMatch(/:/);
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const m of METHODS.filter((x) => item[x])) {
        const declared = (item[m].parameters ?? []).filter((p: any) => p.in === 'path');
        expect({ path, m, params: declared.map((p: any) => p.name).sort() }).toEqual({ path, m, params: inPath });
        for (const p of declared) expect(p.required).toBe(true);
      }
    }
    const tenant = doc.paths['/v2/facts/{proj_id}/{env_id}/tenants/{tenant_id}'];
    expect(tenant.get.parameters.map((p: any) => p.name)).toEqual(['proj_id', 'env_id', 'tenant_id']);
  });

  it('gives every operation a unique operationId, responses and the right security', () => {
    const ids = new Set<string>();
    for (const route of routes) {
      for (const p of Array.isArray(route.path) ? route.path : [route.path]) {
        const op = doc.paths[toOpenApiPath(p).path][route.method.toLowerCase()];
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        expect(op.responses[String(route.status ?? 200)]).toBeDefined();
        expect(op.security).toEqual(route.auth === 'public' ? [] : expect.arrayContaining([{ bearerAuth: [] }]));
        if (route.schemas.body) expect(op.requestBody.content['application/json'].schema).toBeDefined();
      }
    }
  });

  it('uses only OpenAPI 3.0 schema forms, and every $ref resolves', () => {
    let visited = 0;
    walkSchemas(doc, (s) => {
      visited++;
      if ('type' in s && typeof s.type !== 'string') throw new Error(`type array left: ${JSON.stringify(s)}`);
      for (const k of ['const', 'propertyNames', 'patternProperties', '$schema']) {
        if (k in s) throw new Error(`${k} left: ${JSON.stringify(s)}`);
      }
      if (typeof s.$ref === 'string') {
        const target = s.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce((o: any, k) => o?.[k], doc);
        expect(target).toBeDefined();
      }
    });
    expect(visited).toBeGreaterThan(routes.length);
  });
});

describe('OpenAPI building blocks', () => {
  it('turns koa paths into OpenAPI paths', () => {
    expect(toOpenApiPath('/v2/a/:proj_id/b/:key')).toEqual({ path: '/v2/a/{proj_id}/b/{key}', params: ['proj_id', 'key'] });
    expect(toOpenApiPath('/healthz')).toEqual({ path: '/healthz', params: [] });
  });

  it('converts JSON Schema to OpenAPI 3.0 schema', () => {
    expect(toOpenApiSchema({ type: ['string', 'null'], const: 'x', propertyNames: { pattern: 'a' } })).toEqual({
      type: 'string',
      nullable: true,
      enum: ['x'],
    });
    expect(toOpenApiSchema(obj({ a: { type: ['integer', 'null'] } }, ['a']))).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', nullable: true } },
      required: ['a'],
      additionalProperties: false,
    });
  });

  it('handles array paths, sessions, 204, query and header parameters', () => {
    const route: RouteDef = {
      method: 'DELETE',
      path: ['/v2/group/:key/roles', '/v2/groups/:key/roles'],
      auth: 'session',
      summary: 'x',
      tag: 'T',
      status: 204,
      schemas: {
        params: { key: str({ maxLength: 5 }) },
        query: obj({ q: str() }, ['q']),
        headers: obj({ element_id: str(), authorization: str() }, ['element_id']),
        body: obj({}),
      },
      handler: async () => undefined,
    };
    const d: Doc = buildOpenApi([route], { sessionCookieName: 'sid' });
    for (const p of ['/v2/group/{key}/roles', '/v2/groups/{key}/roles']) {
      const op = d.paths[p].delete;
      expect(op.responses['204']).toEqual({ description: expect.any(String) });
      expect(op.security).toEqual([{ sessionCookie: [] }, { bearerAuth: [] }]);
      expect(op.parameters).toEqual([
        { name: 'key', in: 'path', required: true, schema: { type: 'string', maxLength: 5 } },
        { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'element_id', in: 'header', required: true, schema: { type: 'string' } },
      ]);
    }
    expect(d.paths['/v2/group/{key}/roles'].delete.operationId).not.toBe(d.paths['/v2/groups/{key}/roles'].delete.operationId);
    expect(d.components.securitySchemes.sessionCookie.name).toBe('sid');
    expect(d.tags).toEqual([{ name: 'T' }]);
  });

  const full: Doc = buildOpenApi(allRoutes());

  it('declares a concrete response schema for every success, and the error body for every error', () => {
    const loose: string[] = [];
    for (const [path, item] of Object.entries<any>(full.paths)) {
      for (const m of METHODS.filter((x) => item[x])) {
        for (const [status, res] of Object.entries<any>(item[m].responses)) {
          if (status === '204') continue;
          if (!status.startsWith('2')) {
            // The AuthZEN endpoints answer their specification's error: the message as text (docs/authzen.md).
            const error = path.startsWith('/access/v1/') || path.startsWith('/.well-known/authzen') ? 'PlainError' : 'Error';
            expect({ path, m, status, res }).toEqual({ path, m, status, res: { $ref: `#/components/responses/${error}` } });
            continue;
          }
          // Pages and files (the console) are documented by their media type, not a JSON shape.
          if (res.content && !res.content['application/json']) continue;
          const schema = res.content?.['application/json']?.schema ?? {};
          // A documented shape names its fields (or the shape of a map's values), never a bare object;
          // a choice (a Permit list: the array, or the envelope on include_total_count) is concrete when each choice is.
          const concrete = (s: any): boolean =>
            !!(s.properties || typeof s.additionalProperties === 'object' || s.items || (s.anyOf ?? s.oneOf)?.every(concrete));
          if (!concrete(schema)) loose.push(`${m} ${path} ${status}`);
        }
      }
    }
    expect(loose).toEqual([]);
    expect(full.components.responses.Error.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('links each create to the get, update and delete of what it created, and the login to the approvals', () => {
    const create = full.paths['/v2/facts/{proj_id}/{env_id}/tenants'].post.responses['200'].links;
    const byId = (p: string, m: string) => full.paths[p][m].operationId;
    const one = '/v2/facts/{proj_id}/{env_id}/tenants/{tenant_id}';
    for (const m of ['get', 'patch', 'delete']) {
      expect(create[byId(one, m)]).toEqual({
        operationId: byId(one, m),
        parameters: { tenant_id: '$response.body#/key', proj_id: '$request.path.proj_id', env_id: '$request.path.env_id' },
      });
    }
    const approvals = '/v2/elements/{proj_id}/{env_id}/config/{elements_config_id}/operation_approval';
    const configLinks = full.paths['/v2/elements/{proj_id}/{env_id}/config'].post.responses['200'].links;
    expect(configLinks[byId(approvals, 'get')].parameters.elements_config_id).toMatch(/^\$response\.body#\/(key|id)$/);
    const login = Object.values<any>(full.paths['/v2/auth/elements_login_as'].post.responses)[0].links;
    expect(login[byId(approvals, 'get')].parameters).toEqual({ proj_id: '$request.query.proj_id', env_id: '$request.query.env_id' });
    // Every link names an operation of the document and only parameters that operation has.
    for (const item of Object.values<any>(full.paths)) {
      for (const op of METHODS.map((m) => item[m]).filter(Boolean)) {
        for (const res of Object.values<any>(op.responses)) {
          for (const link of Object.values<any>(res.links ?? {})) {
            const target = Object.values<any>(full.paths)
              .flatMap((i) => METHODS.map((m) => i[m]).filter(Boolean))
              .find((o) => o.operationId === link.operationId);
            expect(target).toBeDefined();
            const names = (target.parameters ?? []).map((p: any) => p.name);
            for (const name of Object.keys(link.parameters)) expect(names).toContain(name);
          }
        }
      }
    }
  });
});
