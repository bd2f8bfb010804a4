import Router from '@koa/router';
import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config';
import { type BodyBounds, closeWhenUnread } from './http/bodies';
import { boundedBody, credentialsFirst } from './http/credentialsFirst';
import { hotPath, type LaneDoor } from './http/hotPath';
import { methodNotAllowed } from './http/methods';
import { errorHandler, requestContext } from './http/middleware';
import { type Authenticator, mountRoutes, type RevisionOf, type RouteDef } from './http/routeTable';
import { httpMetrics } from './http/httpMetrics';
import type { Metrics } from './metrics/metrics';

export interface App {
  koa: Koa;
  /** The server's request listener: the hot path for permission questions, koa for the rest. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** The same hot routes for requests the lane read without Node's request objects (src/http/lane.ts). */
  lane: LaneDoor;
  routes: RouteDef[];
}

/** What the HTTP application is made of (src/compose.ts builds every part). */
export interface AppParts {
  config: Config;
  log: Logger;
  metrics: Metrics;
  routes: RouteDef[];
  authenticator: Authenticator;
  /** The environment's revision as this process knows it (the `X-Authz-Revision` header). */
  revisionOf: RevisionOf;
}

/** Builds the HTTP application without listening (tests run it on port 0). */
export function createApp({ config, log, metrics, routes, authenticator, revisionOf }: AppParts): App {
  const router = new Router();
  mountRoutes(router, routes, authenticator, revisionOf);

  const koa = new Koa();
  // X-Forwarded-* are client-controlled unless a proxy in front overwrites them (TRUST_PROXY).
  koa.proxy = config.trustProxy;
  koa.silent = true;
  koa.use(requestContext(log));
  koa.use(httpMetrics(metrics));
  koa.use(errorHandler());
  const bounds: BodyBounds = { bytes: config.bodyLimitBytes, bulkBytes: config.bulkBodyLimitBytes, depth: config.jsonMaxDepth };
  // Who first, then what (docs/behaviour.md section 15): route and credentials before any byte of the body.
  koa.use(credentialsFirst(router, authenticator));
  koa.use(boundedBody(bounds));
  koa.use(methodNotAllowed(router));
  koa.use(router.routes());
  const hot = hotPath(routes, { auth: authenticator, log, metrics, revisionOf, bounds }, koa.callback());
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    closeWhenUnread(req, res);
    hot.door(req, res);
  };
  return { koa, handler, lane: hot.lane, routes };
}
