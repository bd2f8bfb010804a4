import type Router from '@koa/router';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { badRequest, type ErrorDetail, invalidInput } from '../errors';
import type { Principal, Scope, Session } from '../auth/types';
import type { JsonSchema, ParamsOf, StaticOf } from './schema';
import { ACTOR_HEADER, actorOf, runAs } from '../auth/actor';
import { producedRevisions } from '../db/db';

/**
 * Each API area declares its routes in one table: method, path, who may call it, and the
 * JSON Schemas of params, query, headers, body and response. The same declarations validate
 * requests (compiled once, here) and generate the OpenAPI document.
 */
export type AuthMode = 'public' | 'admin' | 'key' | 'env' | 'session';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  params?: JsonSchema;
  query?: JsonSchema;
  headers?: JsonSchema;
  body?: JsonSchema;
  response?: JsonSchema;
}

// biome-ignore lint/suspicious/noExplicitAny: a route without a schema for a part admits any value there
export interface Req<B = any, Q = any, P = any, H = any> {
  params: P;
  query: Q;
  headers: H;
  body: B;
  principal: Principal;
  scope: Scope;
  session: Session;
  ctx: Context;
  log: Logger;
}

/** The request a route's schemas admit: `r.body` typed by `schemas.body`, and so on. */
export type ReqOf<S extends RouteSchemas> = Req<StaticOf<S['body']>, StaticOf<S['query']>, ParamsOf<S['params']>, StaticOf<S['headers']>>;

export interface RouteDef<S extends RouteSchemas = RouteSchemas> {
  method: Method;
  path: string | string[];
  auth: AuthMode;
  summary: string;
  tag?: string;
  schemas: S;
  /** Status of a success; defaults to 200, and 204 answers with no body. */
  status?: number;
  /** Media type of a success that is not JSON (the console's pages and files); the body is then not validated as JSON. */
  produces?: string;
  /** Another success status the handler may pick in `ctx.state.status`, same body (sync: 201 created, 200 replaced). */
  alsoStatus?: number;
  /**
   * A POST that changes nothing (permission questions): it does not bump the revision, and a
   * `read` environment key may call it, as it may every GET (src/http/authenticator.ts).
   */
  readOnly?: boolean;
  /** Only the admin key may call it (key management, the admin graph): environment keys answer 403. */
  adminOnly?: boolean;
  /**
   * A permission question asked at a high rate (or a GET without parameters asked as often: the
   * liveness probe): also served by the hot path in front of koa (src/http/hotPath.ts), with the
   * same authentication, validation and handler (`answer` below).
   */
  hot?: boolean;
  /**
   * Costs the graph far more than a check (explain, list-objects, user-permissions, authorized
   * users, bulk writes, the admin graph): admitted per environment under a global bound, fair
   * between environments (src/http/admission.ts, docs/behaviour.md section 15). A function decides per request.
   */
  heavy?: boolean | ((req: Req) => boolean);
  /**
   * The largest body of this route, when it is not BODY_LIMIT_BYTES / BULK_BODY_LIMIT_BYTES
   * (src/http/bodies.ts): a route that reads its credentials from the body takes no more than an
   * unauthenticated caller may make the service read.
   */
  bodyLimitBytes?: number;
  /**
   * The route reads its body itself, as a stream (an import, src/areas/snapshots): no JSON parser
   * reads it first, and its own limit applies (IMPORT_MAX_BYTES), not the route limits above.
   */
  streamsBody?: boolean;
  /** Served while an import fills the environment (the import itself); every other route of it answers 503 then. */
  duringImport?: boolean;
  /**
   * The route is another specification's endpoint (the AuthZEN API, docs/authzen.md), whose wire
   * rules win over docs/behaviour.md's: an error answers its status with the message alone as
   * `text/plain` (a request that does not match the schema answers 400, not 422), and the
   * response echoes the request's `X-Request-ID` as sent (`specRequestIdOf`, src/http/middleware.ts).
   */
  specWire?: boolean;
  /**
   * A reader of the route's raw body for its most frequent plain shape (the AuthZEN batch,
   * src/areas/authzen/batchReader.ts): on the hot path, once the caller is authenticated and the
   * body read, it answers what the handler takes, already checked against the schema, or
   * undefined for any other body, which then takes the general way (the depth bound,
   * `JSON.parse`, the schema). It must decide nothing the general way would not.
   */
  readBody?: (raw: Buffer, maxDepth: number) => unknown;
  handler: (req: ReqOf<S>) => Promise<unknown>;
}

/** What a route's `readBody` read and checked (the hot path's input): the route's body schema is not run on it again. */
export class ReadBody {
  constructor(readonly value: unknown) {}
}

/** What the OpenAPI document and the client types read of a route: everything but its handler. */
export type RouteInfo = Omit<RouteDef, 'handler'>;

/**
 * A route as its area declares it: data that can be read without building any service (the
 * OpenAPI document, `servedDocument` in src/routeTables.ts), and a handler that is given the area's services
 * `D` as its second argument once the composition root binds the table (`bindRoutes`).
 */
export interface RouteSpec<D = unknown, S extends RouteSchemas = RouteSchemas> extends Omit<RouteDef<S>, 'handler'> {
  handler: (req: ReqOf<S>, deps: D) => Promise<unknown>;
}

/**
 * Declares a route whose handler is typed by its schemas (`r.body`, `r.query`, `r.params`,
 * `r.headers`) and by its table (`deps`: `export const factsRoutes: RouteSpec<FactsService>[] =
 * [route({...}), ...]`). A plain literal in a table still works and reads its request as `any`.
 */
export function route<D, S extends RouteSchemas>(spec: RouteSpec<D, S>): RouteSpec<D> {
  return spec as unknown as RouteSpec<D>;
}

/** A table's routes with their handlers given `deps` (src/compose.ts binds every table). */
export function bindRoutes<D>(table: readonly RouteSpec<D>[], deps: D): RouteDef[] {
  return table.map(({ handler, ...info }) => ({ ...info, handler: (req: Req) => handler(req, deps) }));
}

/** What a table's handlers are given (`DepsOf<typeof factsRoutes>`: the facts service). */
export type DepsOf<T> = T extends readonly RouteSpec<infer D>[] ? D : never;

export interface Authenticator {
  /** Resolves the caller for the route's auth mode; throws 401/403/404 as docs/behaviour.md says. */
  authenticate(ctx: Context, route: RouteDef, params: Record<string, string>): Promise<Partial<Req>>;
}

const bodyAjv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
const coercingAjv = new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: 'array' });
addFormats(bodyAjv);
addFormats(coercingAjv);

interface Validators {
  params?: ValidateFunction;
  query?: ValidateFunction;
  headers?: ValidateFunction;
  body?: ValidateFunction;
}

const compiled = new WeakMap<RouteDef, Validators>();

/** The route's validators, compiled once (koa's routes and the hot path share them). */
function validatorsOf(route: RouteDef): Validators {
  let v = compiled.get(route);
  if (v) return v;
  const s = route.schemas;
  v = {
    params: s.params && coercingAjv.compile({ type: 'object', properties: s.params, additionalProperties: true }),
    query: s.query && coercingAjv.compile(s.query),
    headers: s.headers && coercingAjv.compile(s.headers),
    body: s.body && bodyAjv.compile(s.body),
  };
  compiled.set(route, v);
  return v;
}

export function detailsOf(where: string, errors: ErrorObject[] | null | undefined): ErrorDetail[] {
  return (errors ?? []).map((e) => {
    let path = `/${where}${e.instancePath}`;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      path += `/${(e.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not an allowed field';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    }
    return { path, message };
  });
}

function check(where: string, validate: ValidateFunction | undefined, value: unknown, details: ErrorDetail[]): void {
  if (validate && !validate(value)) details.push(...detailsOf(where, validate.errors));
}

function hasBody(ctx: Context): boolean {
  const len = ctx.request.length;
  return (len !== undefined && len > 0) || ctx.get('transfer-encoding') !== '';
}

/** The environment's revision as this process knows it (for the `X-Authz-Revision` header). */
export type RevisionOf = (envId: string) => number | undefined;

/** What a request brings to its route, read from the HTTP request by koa or by the hot path. */
export interface RouteInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

/** A route's request (`Req`): its logger the request's (`ctx.state.log`), read through the class's getter. */
class RouteRequest {
  readonly principal: unknown;
  readonly scope: unknown;
  readonly session: unknown;
  constructor(
    who: Partial<Req>,
    readonly params: unknown,
    readonly query: unknown,
    readonly headers: unknown,
    readonly body: unknown,
    readonly ctx: Context,
  ) {
    this.principal = who.principal;
    this.scope = who.scope;
    this.session = who.session;
  }

  get log(): Logger {
    return this.ctx.state.log as Logger;
  }
}

/**
 * One request through its route: authentication, the schemas, the handler (with the actor of a
 * write), the revision header. Answers the status and the body; throws the errors of docs/behaviour.md section 1.
 * `ctx` is koa's context, or the hot path's stand-in with the same `get`, `set`, `path` and `state`.
 */
export async function answer(
  route: RouteDef,
  auth: Authenticator,
  revisionOf: RevisionOf | undefined,
  ctx: Context,
  input: RouteInput,
  authenticated?: Partial<Req>,
): Promise<{ status: number; body: unknown }> {
  const v = validatorsOf(route);
  const { params, query, headers, body } = input;
  // Authenticated before the body was read (src/http/credentialsFirst.ts, src/http/hotPath.ts), else here.
  const who = authenticated ?? (await auth.authenticate(ctx, route, params));
  const details: ErrorDetail[] = [];
  check('params', v.params, params, details);
  check('query', v.query, query, details);
  check('headers', v.headers, headers, details);
  const read = body instanceof ReadBody;
  if (!read) check('body', v.body, body, details);
  if (details.length) throw invalidInput(`The request does not match the schema: ${details[0].path} ${details[0].message}.`, details);
  // The request's logger is made when a handler logs (the hot path makes none otherwise): a getter of
  // the class, not of this object (src/http/requestState.ts). Built field by field, not `{ ...who,
  // params, ... }`: on Node 20's V8 a literal that spreads an object and then adds properties costs
  // microseconds (docs/benchmarks.md, "Object spreads").
  const req = new RouteRequest(who, params, query, headers, read ? body.value : body, ctx) as Req;
  // A writing route's changes are recorded with its actor (src/areas/changes); reads skip this.
  const writes = route.method !== 'GET' && !route.readOnly;
  let result: unknown;
  let revision: number | undefined;
  if (writes) {
    const run = await producedRevisions(() => runAs(actorOf(who, ctx.get(ACTOR_HEADER)), () => route.handler(req)));
    result = run.out;
    // The revision this write produced (its last transaction's, src/db/db.ts), not a later one
    // another writer made meanwhile; a write that changed nothing moved none: the revision known now.
    revision = who.scope ? (run.revisions.get(who.scope.envId) ?? revisionOf?.(who.scope.envId)) : undefined;
  } else result = await route.handler(req);
  if (revision !== undefined) ctx.set('x-authz-revision', String(revision));
  // A handler may pick the success status (sync: 201 created / 200 replaced) in ctx.state.status.
  return { status: (ctx.state.status as number | undefined) ?? route.status ?? 200, body: result ?? {} };
}

/** The route each router layer serves (src/http/credentialsFirst.ts finds it before the router runs). */
const routeOfLayer = new WeakMap<object, RouteDef>();

/** The route a matched router layer serves, if it is one of ours. */
export const routeOf = (layer: object): RouteDef | undefined => routeOfLayer.get(layer);

export function mountRoutes(router: Router, routes: RouteDef[], auth: Authenticator, revisionOf?: RevisionOf): void {
  for (const route of routes) {
    validatorsOf(route);
    const paths = Array.isArray(route.path) ? route.path : [route.path];
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    for (const path of paths) {
      router[method](path, async (ctx) => {
        if (route.schemas.body && hasBody(ctx) && !ctx.is('application/json')) {
          throw badRequest('The request body must be JSON, sent with "Content-Type: application/json".');
        }
        let body = (ctx.request as { body?: unknown }).body;
        if (route.schemas.body && !hasBody(ctx)) body = route.schemas.body.type === 'array' ? [] : {};
        const input = { params: { ...ctx.params }, query: { ...ctx.query }, headers: { ...ctx.headers }, body };
        const out = await answer(route, auth, revisionOf, ctx, input, ctx.state.who as Partial<Req> | undefined);
        ctx.status = out.status;
        if (ctx.status !== 204) ctx.body = out.body;
      });
      routeOfLayer.set(router.stack[router.stack.length - 1], route);
    }
  }
}
