import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { readMigrations } from '../../src/db/migrate';
import { runCypher, startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 14 on an upgraded graph: what 91c0a63 wrote (projects with org_id "default",
 * role assignments and tuples as edges without an `id`) answers like a new graph once migrated:
 * V0009 gives every grant edge a UUID (once: running it again changes none), and a start gives the
 * projects the organisation's UUID. The old shapes are written here as 91c0a63's statements wrote
 * them (cypher/assignments/assign*Roles.cypher, createTuples.cypher at that commit).
 */
let t: TestService;
let upgraded: TestService | undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  t = await startTestService();
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'folder', name: 'Folder', actions: { read: {} } });
  await t.ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {} },
    roles: { viewer: { name: 'Viewer', permissions: ['read'] } },
    relations: { parent: 'folder' },
  });
  await t.ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  await t.ok('POST', `${facts}/tenants/acme/users`, { key: 'ann' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'd1', resource: 'doc', tenant: 'acme' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'f1', resource: 'folder', tenant: 'acme' });
});
afterAll(async () => {
  await upgraded?.close();
  await t?.close();
});

const cypher = (text: string, params: Record<string, unknown> = {}) => runCypher(t, text, params);

it('a graph written by 91c0a63 answers UUID ids and the UUID organisation after the upgrade', async () => {
  const scope = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body;
  const env = scope.environment_id;
  const now = new Date().toISOString();
  // 91c0a63's grant edges: no `id` (its answers used elementId()), and its project org id.
  await cypher(
    `
    MATCH (u:User {env: $env, key: 'ann'}), (t:Tenant {env: $env, key: 'acme'}),
          (d:Instance {env: $env, resource: 'doc', key: 'd1'}), (f:Instance {env: $env, resource: 'folder', key: 'f1'})
    CREATE (u)-[:HAS_TENANT_ROLE {role: 'reader', created_at: $now, expires_at: null}]->(t)
    CREATE (u)-[:HAS_ROLE {role: 'viewer', tenant: 'acme', created_at: $now, expires_at: null}]->(d)
    CREATE (f)-[:RELATED {relation: 'parent', tenant: 'acme', created_at: $now, expires_at: null}]->(d)`,
    { env, now },
  );
  await cypher("MATCH (p:Project {key: $proj}) SET p.org_id = 'default'", { proj: t.proj });
  const [before] = await cypher(
    `
    MATCH (:User {env: $env})-[r:HAS_ROLE|HAS_TENANT_ROLE]->() WITH count(r.id) AS ids, count(r) AS all
    MATCH (:Instance {env: $env})-[x:RELATED]->() RETURN ids, all, count(x.id) AS tupleIds`,
    { env },
  );
  expect({ ids: Number(before.ids), all: Number(before.all), tupleIds: Number(before.tupleIds) }).toEqual({ ids: 0, all: 2, tupleIds: 0 });

  // The upgrade: V0009's statements (the shared test database recorded V0009 when it had none of
  // these edges), twice: the second run finds nothing to give an id; then a start of the new version.
  const [v9] = readMigrations(join(__dirname, '..', '..', 'cypher', 'migrations')).filter((m) => m.version === 9);
  expect(v9.statements).toHaveLength(2);
  for (const s of v9.statements) await cypher(s);
  const ids = async () =>
    (
      await cypher(
        `
    MATCH (:User {env: $env})-[r:HAS_ROLE|HAS_TENANT_ROLE]->() RETURN r.id AS id
    UNION ALL MATCH (:Instance {env: $env})-[x:RELATED]->() RETURN x.id AS id`,
        { env },
      )
    )
      .map((r) => r.id as string)
      .sort();
  const first = await ids();
  for (const s of v9.statements) await cypher(s);
  expect(await ids()).toEqual(first);
  expect(first).toHaveLength(3);
  for (const id of first) expect(id).toMatch(UUID);
  upgraded = await startTestService();

  const facts = `/v2/facts/${t.proj}/${t.env}`;
  const org = (await upgraded.ok('GET', '/v2/api-key/scope')).organization_id;
  expect(org).toMatch(UUID);
  expect((await upgraded.ok('GET', `/v2/projects/${t.proj}`)).organization_id).toBe(org);
  const assignments = await upgraded.ok('GET', `${facts}/role_assignments?user=ann`);
  const ann = await upgraded.ok('GET', `${facts}/users/ann`);
  const acme = await upgraded.ok('GET', `${facts}/tenants/acme`);
  expect(assignments).toHaveLength(2);
  for (const a of assignments) {
    expect(a).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(UUID),
        user_id: ann.id,
        tenant_id: acme.id,
        role_id: expect.stringMatching(UUID),
        organization_id: org,
      }),
    );
    expect(first).toContain(a.id);
  }
  const tuples = await upgraded.ok('GET', `${facts}/relationship_tuples?object=doc:d1`);
  expect(tuples).toEqual([
    expect.objectContaining({
      id: expect.stringMatching(UUID),
      subject: 'folder:f1',
      relation: 'parent',
      object: 'doc:d1',
      tenant: 'acme',
      tenant_id: acme.id,
      subject_id: expect.stringMatching(UUID),
      object_id: expect.stringMatching(UUID),
      relation_id: expect.stringMatching(UUID),
      updated_at: now,
    }),
  ]);
  expect(ann.associated_tenants).toEqual([{ tenant: 'acme', roles: ['reader'], status: 'active' }]);
  // Decisions read the same grants as before.
  expect(
    (
      await upgraded.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, {
        user: 'ann',
        action: 'read',
        resource: { type: 'doc', key: 'd1', tenant: 'acme' },
      })
    ).allow,
  ).toBe(true);
}, 120_000);

it('environments an older version made without a key get one from V0012 (once), without a secret; a keyed one keeps its keys', async () => {
  const now = new Date(Date.now() - 60_000).toISOString();
  // As affa786's createEnvironment and createApiKey wrote them: an environment without a key,
  // and one with the key an admin made (a digest and its prefix).
  await cypher(
    `
    MATCH (p:Project {key: $proj})
    CREATE (p)-[:HAS_ENV]->(:Environment {id: randomUUID(), project_id: p.id, key: 'keyless', name: 'Keyless', description: null,
                                          created_at: $now, updated_at: $now})
    CREATE (p)-[:HAS_ENV]->(e:Environment {id: randomUUID(), project_id: p.id, key: 'keyed', name: 'Keyed', description: null,
                                           created_at: $now, updated_at: $now})
    CREATE (e)-[:HAS_KEY]->(:ApiKey {id: randomUUID(), hash: $hash, prefix: 'authz_abcd', name: 'ci', access_level: 'read',
                                     env_id: e.id, project_id: p.id, created_at: $now})`,
    { proj: t.proj, now, hash: randomUUID().replace(/-/g, '').padEnd(64, '0') },
  );
  const [v12] = readMigrations(join(__dirname, '..', '..', 'cypher', 'migrations')).filter((m) => m.version === 12);
  const keysOf = async (env: string) =>
    (await t.ok('GET', `/v2/api-key/${t.proj}/${env}/keys`)).data.map((k: any) => [k.name, k.prefix, k.access_level]);
  expect(await keysOf('keyless')).toEqual([]);
  for (const s of v12.statements) await cypher(s);
  const made = await t.ok('GET', `/v2/api-key/${t.proj}/keyless`);
  for (const s of v12.statements) await cypher(s);
  expect(await keysOf('keyless')).toEqual([['Environment key', null, 'write']]);
  expect(await keysOf('keyed')).toEqual([['ci', 'authz_abcd', 'read']]);
  expect(made).toEqual(
    expect.objectContaining({
      id: expect.stringMatching(UUID),
      environment_id: (await t.ok('GET', `/v2/projects/${t.proj}/envs/keyless`)).id,
      created_at: now,
      prefix: null,
    }),
  );
  expect(made.secret).toBeUndefined();
  expect((await t.ok('GET', `/v2/api-key/${t.proj}/keyed`)).name).toBe('ci');
  // The marker in place of a digest is no digest: the key authenticates nothing until rotated.
  const [row] = await cypher('MATCH (k:ApiKey {id: $id}) RETURN k.hash AS hash', { id: made.id });
  expect(row.hash).not.toMatch(/^[0-9a-f]{64}$/);
}, 60_000);

it('roles an older version wrote (permissions only) get their permissions as written from V0014 (once), and then take action groups', async () => {
  const scope = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body;
  const env = scope.environment_id;
  const now = new Date().toISOString();
  // As b36309c's createRole and createResourceRole wrote them: `permissions`, no `declared_permissions`.
  await cypher(
    `
    MATCH (r:Resource {env: $env, key: 'doc'})
    CREATE (:Role:InEnv {env: $env, id: randomUUID(), key: 'legacy', name: 'Legacy', description: null,
                         permissions: ['doc:read'], created_at: $now, updated_at: $now})
    CREATE (r)-[:HAS_ROLE]->(:ResourceRole:InEnv {env: $env, id: randomUUID(), resource: 'doc', key: 'legacy-viewer', name: 'LV',
                                                  description: null, permissions: ['read'], created_at: $now, updated_at: $now})`,
    { env, now },
  );
  const [v14] = readMigrations(join(__dirname, '..', '..', 'cypher', 'migrations')).filter((m) => m.version === 14);
  for (const s of v14.statements) await cypher(s);
  for (const s of v14.statements) await cypher(s);
  const [row] = await cypher(
    `MATCH (t:Role {env: $env, key: 'legacy'}), (rr:ResourceRole {env: $env, resource: 'doc', key: 'legacy-viewer'})
     RETURN t.declared_permissions AS role, rr.declared_permissions AS resourceRole`,
    { env },
  );
  expect(row).toEqual({ role: ['doc:read'], resourceRole: ['read'] });
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  expect((await t.ok('GET', `${schema}/roles/legacy`)).permissions).toEqual(['doc:read']);
  // The migrated roles take a group; the walks read it expanded.
  await t.ok('PATCH', `${schema}/resources/doc`, { actions: { read: {}, annotate: {} } });
  await t.ok('POST', `${schema}/resources/doc/action_groups`, { key: 'study', name: 'Study', actions: ['read', 'annotate'] });
  expect((await t.ok('POST', `${schema}/roles/legacy/permissions`, { permissions: ['doc:study'] })).permissions).toEqual([
    'doc:read',
    'doc:study',
  ]);
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('POST', `${facts}/users`, { key: 'lex' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'lex', role: 'legacy', tenant: 'acme' });
  const ask = async (action: string) =>
    (await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: 'lex', action, resource: { type: 'doc', key: 'd1', tenant: 'acme' } }))
      .allow;
  expect([await ask('read'), await ask('annotate')]).toEqual([true, true]);
}, 60_000);
