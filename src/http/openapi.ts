import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AuthMode, RouteInfo } from './routeTable';
import type { JsonSchema } from './schema';

/**
 * OpenAPI 3.0 document generated from the route tables: the same declarations that
 * validate requests describe them, so the document cannot drift from what is served.
 */
export interface OpenApiInfo {
  title?: string;
  version?: string;
  description?: string;
  /** Name of the elements session cookie (the approvals area sets it). */
  sessionCookieName?: string;
}

type Obj = Record<string, unknown>;

/** Header names the transport or the security scheme already describe. */
const IMPLICIT_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'cookie', 'host', 'accept']);

/** koa-router `/a/:id/b` -> OpenAPI `/a/{id}/b`, plus the parameter names in order. */
export function toOpenApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?[?*+]?/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

/**
 * JSON Schema (draft 7, as ajv reads it) -> OpenAPI 3.0 Schema Object: type arrays become
 * `nullable`, `const` becomes a one-value enum, keywords 3.0 does not know are dropped.
 */
export function toOpenApiSchema(schema: unknown): Obj {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const s = schema as Obj;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    switch (k) {
      case 'type':
        if (Array.isArray(v)) {
          const types = v.filter((t) => t !== 'null') as string[];
          if (types.length !== v.length) out.nullable = true;
          if (types.length === 1) out.type = types[0];
          else if (types.length > 1) out.oneOf = types.map((t) => ({ type: t }));
        } else out.type = v;
        break;
      case 'const':
        out.enum = [v];
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.entries(v as Obj).map(([p, ps]) => [p, toOpenApiSchema(ps)]));
        break;
      case 'items':
        out.items = Array.isArray(v) ? { oneOf: v.map(toOpenApiSchema) } : toOpenApiSchema(v);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof v === 'boolean' ? v : toOpenApiSchema(v);
        break;
      case 'oneOf':
      case 'anyOf':
      case 'allOf':
        out[k] = (v as unknown[]).map(toOpenApiSchema);
        break;
      case 'not':
        out.not = toOpenApiSchema(v);
        break;
      case 'required':
        if (Array.isArray(v) && v.length) out.required = v;
        break;
      case '$schema':
      case '$id':
      case 'propertyNames':
      case 'patternProperties':
      case 'if':
      case 'then':
      case 'else':
      case 'dependencies':
      case 'dependentRequired':
      case 'contains':
      case 'examples':
      case '$comment':
        break;
      default:
        out[k] = v;
    }
  }
  return out;
}

function securityOf(auth: AuthMode): Obj[] {
  switch (auth) {
    case 'public':
      return [];
    case 'session':
      // The elements session: its cookie, or its element bearer token.
      return [{ sessionCookie: [] }, { bearerAuth: [] }];
    default:
      return [{ bearerAuth: [] }];
  }
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/v2\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith('{') ? `by_${seg.slice(1, -1)}` : seg))
    .join('_')
    .replace(/[^A-Za-z0-9_]+/g, '_');
  return `${method.toLowerCase()}_${words || 'root'}`;
}

function propertiesOf(schema: JsonSchema | undefined): { props: Record<string, unknown>; required: Set<string> } {
  const props = (schema?.properties as Record<string, unknown> | undefined) ?? {};
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return { props, required };
}

function packageVersion(): string {
  for (const up of ['../..', '../../..']) {
    const file = resolve(__dirname, up, 'package.json');
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
      } catch {
        /* fall through */
      }
    }
  }
  return '0.0.0';
}

export const ERROR_SCHEMA = {
  type: 'object',
  required: ['id', 'error_code', 'title', 'message'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    error_code: { type: 'string' },
    title: { type: 'string' },
    message: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

/**
 * The errors a route can answer besides `default` (docs/behaviour.md section 1), all with the error body;
 * a route of another specification (`specWire`: AuthZEN) answers its message as text, and 400 where docs/behaviour.md says 422.
 */
function errorResponsesOf(auth: AuthMode, specWire = false): Obj {
  if (specWire) {
    const codes = auth === 'public' ? ['404', '503'] : ['400', '401', '403', '413', '429', '503'];
    return Object.fromEntries(codes.map((c) => [c, { $ref: '#/components/responses/PlainError' }]));
  }
  const codes = auth === 'public' ? ['400', '404', '422', '503'] : ['400', '401', '403', '404', '409', '422', '429', '503'];
  return Object.fromEntries(codes.map((c) => [c, { $ref: '#/components/responses/Error' }]));
}

type Paths = Record<string, Obj>;

/**
 * OpenAPI links, so that a stateful client (schemathesis) reaches real records: the answer of
 * a create names the record (by key where it has one, else by id) for the get, update,
 * delete and sub-resource operations under `<create path>/{param}`; every other path
 * parameter is taken from the create request. The login step links to the approvals of the
 * same project and environment.
 */
function addLinks(paths: Paths): void {
  const ops = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Obj })),
  );
  for (const create of ops.filter((o) => o.method === 'post')) {
    const responses = create.op.responses as Obj;
    const [status, success] = Object.entries(responses)[0] as [string, Obj];
    if (!status.startsWith('2') || status === '204') continue;
    const props = ((success.content as Obj)?.['application/json'] as { schema?: { properties?: Obj } })?.schema?.properties ?? {};
    const field = 'key' in props ? 'key' : 'id' in props ? 'id' : undefined;
    if (!field) continue;
    const links: Obj = {};
    for (const target of ops) {
      const m = target.path.startsWith(`${create.path}/{`) && /^\/\{([^}]+)\}/.exec(target.path.slice(create.path.length));
      if (!m) continue;
      const parameters: Obj = { [m[1]]: `$response.body#/${field}` };
      for (const [, name] of create.path.matchAll(/\{([^}]+)\}/g)) parameters[name] = `$request.path.${name}`;
      links[String(target.op.operationId)] = { operationId: target.op.operationId, parameters };
    }
    if (Object.keys(links).length) success.links = links;
  }
  const login = paths['/v2/auth/elements_login_as']?.post as Obj | undefined;
  const approvals = ops.filter((o) => o.path.endsWith('/operation_approval') && o.path.startsWith('/v2/elements/'));
  if (login && approvals.length) {
    const success = Object.values(login.responses as Obj)[0] as Obj;
    success.links = Object.fromEntries(
      approvals.map((a) => [
        String(a.op.operationId),
        {
          operationId: a.op.operationId,
          parameters: { proj_id: '$request.query.proj_id', env_id: '$request.query.env_id' },
        },
      ]),
    );
  }
}

export function buildOpenApi(routes: readonly RouteInfo[], info: OpenApiInfo = {}): Obj {
  const paths: Record<string, Obj> = {};
  const usedIds = new Set<string>();
  const tags = new Set<string>();

  for (const route of routes) {
    const routePaths = Array.isArray(route.path) ? route.path : [route.path];
    for (const koaPath of routePaths) {
      const { path, params } = toOpenApiPath(koaPath);
      const method = route.method.toLowerCase();
      const parameters: Obj[] = [];

      const declared = (route.schemas.params ?? {}) as Record<string, unknown>;
      for (const name of params) {
        parameters.push({ name, in: 'path', required: true, schema: toOpenApiSchema(declared[name] ?? { type: 'string' }) });
      }
      const query = propertiesOf(route.schemas.query);
      for (const [name, schema] of Object.entries(query.props)) {
        parameters.push({ name, in: 'query', required: query.required.has(name), schema: toOpenApiSchema(schema) });
      }
      const headers = propertiesOf(route.schemas.headers);
      for (const [name, schema] of Object.entries(headers.props)) {
        if (IMPLICIT_HEADERS.has(name.toLowerCase())) continue;
        parameters.push({ name, in: 'header', required: headers.required.has(name), schema: toOpenApiSchema(schema) });
      }

      let operationId = operationIdOf(method, path);
      for (let i = 2; usedIds.has(operationId); i++) operationId = `${operationIdOf(method, path)}_${i}`;
      usedIds.add(operationId);

      const status = String(route.status ?? 200);
      const success: Obj =
        status === '204'
          ? { description: 'Done; no content' }
          : {
              description: 'Success',
              content: route.produces
                ? { [route.produces]: { schema: { type: 'string', format: 'binary' } } }
                : { 'application/json': { schema: route.schemas.response ? toOpenApiSchema(route.schemas.response) : {} } },
            };
      const operation: Obj = {
        operationId,
        summary: route.summary,
        ...(route.tag ? { tags: [route.tag] } : {}),
        ...(parameters.length ? { parameters } : {}),
        security: securityOf(route.auth),
        responses: {
          [status]: success,
          ...(route.alsoStatus ? { [String(route.alsoStatus)]: success } : {}),
          ...errorResponsesOf(route.auth, route.specWire),
          default: { $ref: `#/components/responses/${route.specWire ? 'PlainError' : 'Error'}` },
        },
      };
      if (route.schemas.body) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: toOpenApiSchema(route.schemas.body) } } };
      }
      if (route.tag) tags.add(route.tag);
      paths[path] = { ...(paths[path] ?? {}), [method]: operation };
    }
  }

  addLinks(paths);
  return {
    openapi: '3.0.3',
    info: {
      title: info.title ?? 'graph-authz',
      version: info.version ?? packageVersion(),
      description:
        info.description ??
        'Self-hosted authorization service backed by Neo4j (Permit.io v2 compatible shapes). Generated from the route tables.',
    },
    servers: [{ url: '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The admin key or an environment key' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: info.sessionCookieName ?? 'session',
          description: 'The elements session cookie',
        },
      },
      schemas: { Error: ERROR_SCHEMA },
      responses: {
        Error: {
          description: 'Error (docs/behaviour.md section 1)',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        PlainError: {
          description: 'Error of an AuthZEN endpoint (docs/authzen.md): the message alone, as its specification says',
          content: { 'text/plain': { schema: { type: 'string', minLength: 1 } } },
        },
      },
    },
  };
}
