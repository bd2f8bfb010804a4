import Router from '@koa/router';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { badRequest, ErrorDetail, invalidInput } from '../errors';
import type { Principal, Scope, Session } from '../auth/types';
import type { JsonSchema, ParamsOf, StaticOf } from './schema';
import { actorOf, runAs } from '../areas/changes/actor';

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

/* eslint-disable @typescript-eslint/no-explicit-any */
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
   * `read` environment key may call it, as it may every GET (src/auth/authenticator.ts).
   */
  readOnly?: boolean;
  /** Only the admin key may call it (key management, the admin graph): environment keys answer 403. */
  adminOnly?: boolean;
  handler: (req: ReqOf<S>) => Promise<unknown>;
}

/**
 * Declares a route whose handler is typed by its schemas (`r.body`, `r.query`, `r.params`,
 * `r.headers`); route tables list `route({...})` entries. A plain `RouteDef` literal still works
 * and reads its request as `any`.
 */
export function route<S extends RouteSchemas>(def: RouteDef<S>): RouteDef {
  return def as unknown as RouteDef;
}

export interface Authenticator {
  /** Resolves the caller for the route's auth mode; throws 401/403/404 as the contract says. */
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

function compile(route: RouteDef): Validators {
  const s = route.schemas;
  return {
    params: s.params && coercingAjv.compile({ type: 'object', properties: s.params, additionalProperties: true }),
    query: s.query && coercingAjv.compile(s.query),
    headers: s.headers && coercingAjv.compile(s.headers),
    body: s.body && bodyAjv.compile(s.body),
  };
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

export function mountRoutes(router: Router, routes: RouteDef[], auth: Authenticator, revisionOf?: RevisionOf): void {
  for (const route of routes) {
    const v = compile(route);
    const paths = Array.isArray(route.path) ? route.path : [route.path];
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    for (const path of paths) {
      router[method](path, async (ctx) => {
        if (route.schemas.body && hasBody(ctx) && !ctx.is('application/json')) {
          throw badRequest('The request body must be JSON, sent with "Content-Type: application/json".');
        }
        const params = { ...ctx.params };
        const query = { ...ctx.query };
        const headers = { ...ctx.headers };
        let body = (ctx.request as { body?: unknown }).body;
        if (route.schemas.body && !hasBody(ctx)) body = route.schemas.body.type === 'array' ? [] : {};
        const who = await auth.authenticate(ctx, route, params);
        const details: ErrorDetail[] = [];
        check('params', v.params, params, details);
        check('query', v.query, query, details);
        check('headers', v.headers, headers, details);
        check('body', v.body, body, details);
        if (details.length) throw invalidInput(`The request does not match the schema: ${details[0].path} ${details[0].message}.`, details);
        const req: Req = { ...(who as Req), params, query, headers, body, ctx, log: ctx.state.log };
        // A writing route's changes are recorded with its actor (src/areas/changes); reads skip this.
        const writes = route.method !== 'GET' && !route.readOnly;
        const result = await (writes ? runAs(actorOf(who), () => route.handler(req)) : route.handler(req));
        // Each write transaction moved the revision (src/db/db.ts); the token is at least that.
        const revision = who.scope && route.method !== 'GET' && !route.readOnly ? revisionOf?.(who.scope.envId) : undefined;
        if (revision !== undefined) ctx.set('x-authz-revision', String(revision));
        // A handler may pick the success status (sync: 201 created / 200 replaced) in ctx.state.status.
        ctx.status = (ctx.state.status as number | undefined) ?? route.status ?? 200;
        if (ctx.status !== 204) ctx.body = result ?? {};
      });
    }
  }
}
