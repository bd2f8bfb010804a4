import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Driver } from 'neo4j-driver';
import pino from 'pino';
import { buildAreas } from '../../src/areas';
import { SESSION_COOKIE } from '../../src/areas/sessions/service';
import { Revisions } from '../../src/areas/decisions/revisions';
import { Metrics } from '../../src/metrics/metrics';
import { CYPHER_DIR } from '../../src/boot';
import { loadConfig } from '../../src/config';
import { CypherRegistry } from '../../src/db/cypherRegistry';
import { Db } from '../../src/db/db';
import { buildOpenApi } from '../../src/http/openapi';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderTypes } = require('../../scripts/gen-client-types.cjs') as { renderTypes: (doc: unknown) => string };

/** The document the service serves, from the route tables (the driver is never used). */
function servedDocument(): any {
  const db = new Db({} as Driver, new CypherRegistry(CYPHER_DIR), { timeoutMs: 1000 });
  const areas = buildAreas({ config: loadConfig({}), log: pino({ level: 'silent' }), db, revisions: new Revisions(db), adminKeyHash: 'x', isMigrated: () => true, metrics: new Metrics({ processMetrics: false }) });
  areas.revisions.stop();
  return buildOpenApi(areas.routes, { sessionCookieName: SESSION_COOKIE });
}

describe('client library types', () => {
  const doc = servedDocument();

  it('are the ones generated from /v2/openapi.json (run `npm run gen:client-types` after a schema change)', () => {
    const committed = readFileSync(resolve(__dirname, '../../clients/typescript/src/types.ts'), 'utf8');
    expect(committed).toBe(renderTypes(doc));
  });

  it('follow a change of a route schema', () => {
    const changed = JSON.parse(JSON.stringify(doc));
    const tenant = changed.paths['/v2/facts/{proj_id}/{env_id}/tenants/{tenant_id}'].get.responses['200'].content['application/json'].schema;
    tenant.properties.region = { type: 'string', nullable: true };
    tenant.required.push('region');
    const text = renderTypes(changed);
    expect(text).not.toBe(renderTypes(doc));
    expect(text).toMatch(/export type Tenant = \{[^}]*\n {2}region: string \| null;/);
  });
});
