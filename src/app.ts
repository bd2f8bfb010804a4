import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Logger } from 'pino';
import { buildAreas } from './areas';
import type { Config } from './config';
import { Db } from './db/db';
import { errorHandler, requestContext } from './http/middleware';
import { methodNotAllowed } from './http/methods';
import { mountRoutes, RouteDef } from './http/routeTable';

export interface AppDeps {
  config: Config;
  log: Logger;
  db: Db;
  adminKeyHash: string;
  /** True once migrations are applied; /readyz answers 503 before. */
  isMigrated: () => boolean;
}

export interface App {
  koa: Koa;
  routes: RouteDef[];
  areas: ReturnType<typeof buildAreas>;
}

/** Builds the HTTP application without listening (tests run it on port 0). */
export function createApp(deps: AppDeps): App {
  const areas = buildAreas(deps);
  const router = new Router();
  deps.db.onRevision = (envId, revision) => areas.revisions.learn(envId, revision);
  mountRoutes(router, areas.routes, areas.authenticator, (envId) => areas.revisions.known(envId));

  const koa = new Koa();
  koa.proxy = true;
  koa.silent = true;
  koa.use(requestContext(deps.log));
  koa.use(errorHandler());
  koa.use(bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', strict: true }));
  koa.use(methodNotAllowed(router));
  koa.use(router.routes());
  return { koa, routes: areas.routes, areas };
}
