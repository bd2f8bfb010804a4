import type { Driver } from 'neo4j-driver';
import pino from 'pino';
import { CYPHER_DIR } from '../../boot';
import { loadConfig } from '../../config';
import { CypherRegistry } from '../../db/cypherRegistry';
import { Db } from '../../db/db';
import { buildOpenApi } from '../../http/openapi';
import type { RouteDef } from '../../http/routeTable';
import { Metrics } from '../../metrics/metrics';
import { buildAreas } from '..';
import { Revisions } from '../decisions/revisions';
import { SESSION_COOKIE } from '../../auth/types';

/**
 * Every route the service serves, built without a database (the driver is never used): for the
 * OpenAPI tests and the client-type generator (scripts/gen-client-types.cjs), which must see the
 * same route tables as a running service.
 */
export function routesWithoutDatabase(): RouteDef[] {
  const db = new Db({} as Driver, new CypherRegistry(CYPHER_DIR), { timeoutMs: 1000 });
  const areas = buildAreas({
    config: { ...loadConfig({}), orgId: '00000000-0000-0000-0000-000000000000' }, log: pino({ level: 'silent' }), db, revisions: new Revisions(db),
    adminKeyHash: 'x', isMigrated: () => true, metrics: new Metrics({ processMetrics: false }),
  });
  areas.revisions.stop();
  return areas.routes;
}

/** The document `GET /v2/openapi.json` answers, built without a database. */
export const servedDocument = () => buildOpenApi(routesWithoutDatabase(), { sessionCookieName: SESSION_COOKIE });
