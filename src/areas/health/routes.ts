import { AppError } from '../../errors';
import { route, type RouteSpec } from '../../http/routeTable';
import { obj, str } from '../../http/schema';
import type { WalkChoice } from '../../db/walkSelection';
import type { HealthStore } from './store';

const READY_TIMEOUT_MS = 2000;

export interface HealthDeps {
  store: HealthStore;
  /** True once migrations are applied; /readyz answers 503 before. */
  isMigrated: () => boolean;
  /** The walk answering decisions and why (docs/walk-extension.md). */
  walk: () => WalkChoice;
}

const tag = 'Health';
export const healthRoutes: RouteSpec<HealthDeps>[] = [
  route({
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    // Asked by every load balancer and orchestrator probe: served in front of koa (src/http/hotPath.ts).
    hot: true,
    tag,
    summary: 'The process is up',
    schemas: { response: obj({ status: str() }) },
    handler: async () => ({ status: 'ok' }),
  }),
  route({
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    tag,
    summary: 'Neo4j answers and migrations are applied; names the walk answering decisions',
    schemas: { response: obj({ status: str(), neo4j: str(), migrations: str(), walk: str(), walk_reason: str() }) },
    handler: async (_r, deps) => {
      const neo4jUp = await Promise.race([
        deps.store.ping(),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref()),
      ]);
      if (!neo4jUp) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Neo4j does not answer; retry later.');
      if (!deps.isMigrated()) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Migrations are not applied yet.');
      const walk = deps.walk();
      return { status: 'ready', neo4j: 'up', migrations: 'applied', walk: walk.walk, walk_reason: walk.reason };
    },
  }),
];
