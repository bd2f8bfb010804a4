import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/testService';

/** docs/graph-model.md names every label and relationship type the populated graph holds. */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  const calls: [string, string, unknown][] = [
    ['POST', `${schema}/resources`, { key: 'folder', name: 'Folder', actions: { read: {} } }],
    ['POST', `${schema}/resources/folder/relations`, { key: 'parent', name: 'Parent', subject_resource: 'folder' }],
    ['POST', `${schema}/resources/folder/roles`, { key: 'viewer', name: 'Viewer', permissions: ['read'] }],
    [
      'POST',
      `${schema}/resources/folder/roles/viewer/implicit_grants`,
      { role: 'viewer', on_resource: 'folder', linked_by_relation: 'parent' },
    ],
    ['POST', `${schema}/resources/folder/action_groups`, { key: 'browse', name: 'Browse', actions: ['read'] }],
    ['POST', `${schema}/roles`, { key: 'admin', name: 'Admin', permissions: ['folder:read', 'folder:browse'] }],
    ['POST', `${facts}/users`, { key: 'ann' }],
    ['POST', `${facts}/relationship_tuples`, { subject: 'folder:a', relation: 'parent', object: 'folder:b', tenant: 'default' }],
    ['POST', `${facts}/role_assignments`, { user: 'ann', role: 'viewer', tenant: 'default', resource_instance: 'folder:a' }],
    ['POST', `${facts}/role_assignments`, { user: 'ann', role: 'admin', tenant: 'default' }],
    ['POST', `${schema}/groups`, { group_instance_key: 'g1', group_tenant: 'default' }],
    ['POST', `${schema}/groups`, { group_instance_key: 'g2', group_tenant: 'default' }],
    ['PUT', `${schema}/groups/g1/assign_group`, { group_instance_key: 'g2' }],
    ['PUT', `${schema}/groups/g1/resource_instances`, { resource: 'folder', resource_instance: 'b', tenant: 'default' }],
    ['PUT', `${schema}/groups/g1/users/ann`, { tenant: 'default' }],
  ];
  for (const [m, p, b] of calls) {
    const res = await t.call(m, p, b);
    if (res.status >= 300) throw new Error(`${m} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  }
});
afterAll(async () => t?.close());

it('documents every label and relationship type of the stored graph', async () => {
  const doc = readFileSync(join(__dirname, '../../docs/graph-model.md'), 'utf8');
  const db = t.service.db;
  const [row] = await db.readRows(db.statement('system/schemaVisualization'), {});
  const labels = (row.labels as string[]).filter((l) => l !== 'InEnv');
  const types = row.types as string[];
  for (const name of ['User', 'Tenant', 'Instance', 'Group', 'Resource', 'ResourceRole', 'Role', 'Relation', 'Derivation', 'ActionGroup'])
    expect(labels).toContain(name);
  for (const name of ['HAS_ROLE', 'HAS_TENANT_ROLE', 'IN_TENANT', 'RELATED', 'GROUPS']) expect(types).toContain(name);
  const undocumented = [...labels, ...types].filter((name) => !doc.includes(`\`${name}`) && !doc.includes(`:${name}`));
  expect(undocumented).toEqual([]);
});
