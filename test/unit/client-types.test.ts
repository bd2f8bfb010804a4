import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { servedDocument } from '../../src/routeTables';

const { renderTypes } = require('../../scripts/gen-client-types.cjs') as { renderTypes: (doc: unknown) => string };

describe('client library types', () => {
  const doc = servedDocument();

  it('are the ones generated from /v2/openapi.json (run `npm run gen:client-types` after a schema change)', () => {
    const committed = readFileSync(resolve(__dirname, '../../clients/typescript/src/types.ts'), 'utf8');
    expect(committed).toBe(renderTypes(doc));
  });

  it('follow a change of a route schema', () => {
    const changed = JSON.parse(JSON.stringify(doc));
    const tenant =
      changed.paths['/v2/facts/{proj_id}/{env_id}/tenants/{tenant_id}'].get.responses['200'].content['application/json'].schema;
    tenant.properties.region = { type: 'string', nullable: true };
    tenant.required.push('region');
    const text = renderTypes(changed);
    expect(text).not.toBe(renderTypes(doc));
    expect(text).toMatch(/export type Tenant = \{[^}]*\n {2}region: string \| null;/);
  });
});
