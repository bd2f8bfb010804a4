import type { AppDeps } from '../../appDeps';
import { AppError } from '../../errors';
import type { RouteDef } from '../../http/routeTable';
import { route } from '../../http/routeTable';
import { obj, str } from '../../http/schema';

const READY_TIMEOUT_MS = 2000;

export function healthRoutes(deps: AppDeps): RouteDef[] {
  const ping = deps.db.statement('system/ping');
  const tag = 'Health';
  return [
    route({
      method: 'GET', path: '/healthz', auth: 'public', tag, summary: 'The process is up',
      schemas: { response: obj({ status: str() }) },
      handler: async () => ({ status: 'ok' }),
    }),
    route({
      method: 'GET', path: '/readyz', auth: 'public', tag, summary: 'Neo4j answers and migrations are applied',
      schemas: { response: obj({ status: str(), neo4j: str(), migrations: str() }) },
      handler: async () => {
        const neo4jUp = await Promise.race([
          deps.db.readRows(ping, {}).then(() => true, () => false),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref()),
        ]);
        if (!neo4jUp) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Neo4j does not answer; retry later.');
        if (!deps.isMigrated()) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Migrations are not applied yet.');
        return { status: 'ready', neo4j: 'up', migrations: 'applied' };
      },
    }),
  ];
}
