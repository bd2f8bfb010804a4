import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './appDeps';
import { buildAreas } from './areas';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hotPath } from './http/hotPath';
import { errorHandler, requestContext } from './http/middleware';
import { methodNotAllowed } from './http/methods';
import { mountRoutes, RouteDef } from './http/routeTable';
import { BodyBounds, closeWhenUnread } from './http/bodies';
import { boundedBody, credentialsFirst } from './http/credentialsFirst';
import { httpMetrics } from './metrics/httpMetrics';

export interface App {
  koa: Koa;
  /** The server's request listener: the hot path for permission questions, koa for the rest. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  routes: RouteDef[];
  areas: ReturnType<typeof buildAreas>;
}

/** Builds the HTTP application without listening (tests run it on port 0). */
export function createApp(deps: AppDeps): App {
  const areas = buildAreas(deps);
  const router = new Router();
  const revisionOf = (envId: string) => areas.revisions.known(envId);
  mountRoutes(router, areas.routes, areas.authenticator, revisionOf);

  const koa = new Koa();
  // X-Forwarded-* are client-controlled unless a proxy in front overwrites them (TRUST_PROXY).
  koa.proxy = deps.config.trustProxy;
  koa.silent = true;
  koa.use(requestContext(deps.log));
  koa.use(httpMetrics(deps.metrics));
  koa.use(errorHandler());
  const bounds: BodyBounds = { bytes: deps.config.bodyLimitBytes, bulkBytes: deps.config.bulkBodyLimitBytes, depth: deps.config.jsonMaxDepth };
  // Who first, then what (CONTRACT section 15): route and credentials before any byte of the body.
  koa.use(credentialsFirst(router, areas.authenticator));
  koa.use(boundedBody(bounds));
  koa.use(methodNotAllowed(router));
  koa.use(router.routes());
  const door = hotPath(areas.routes, { auth: areas.authenticator, log: deps.log, metrics: deps.metrics, revisionOf, bounds }, koa.callback());
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    closeWhenUnread(req, res);
    door(req, res);
  };
  return { koa, handler, routes: areas.routes, areas };
}
