import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { AppDeps } from './appDeps';
import { buildAreas } from './areas';
import { errorHandler, requestContext } from './http/middleware';
import { methodNotAllowed } from './http/methods';
import { mountRoutes, RouteDef } from './http/routeTable';
import { MAX_BODY_BYTES } from './http/schema';
import { httpMetrics } from './metrics/httpMetrics';

export interface App {
  koa: Koa;
  routes: RouteDef[];
  areas: ReturnType<typeof buildAreas>;
}

/** Builds the HTTP application without listening (tests run it on port 0). */
export function createApp(deps: AppDeps): App {
  const areas = buildAreas(deps);
  const router = new Router();
  mountRoutes(router, areas.routes, areas.authenticator, (envId) => areas.revisions.known(envId));

  const koa = new Koa();
  // X-Forwarded-* are client-controlled unless a proxy in front overwrites them (TRUST_PROXY).
  koa.proxy = deps.config.trustProxy;
  koa.silent = true;
  koa.use(requestContext(deps.log));
  koa.use(httpMetrics(deps.metrics));
  koa.use(errorHandler());
  koa.use(bodyParser({ enableTypes: ['json'], jsonLimit: `${MAX_BODY_BYTES}b`, strict: true }));
  koa.use(methodNotAllowed(router));
  koa.use(router.routes());
  return { koa, routes: areas.routes, areas };
}
