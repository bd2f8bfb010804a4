import { Db } from '../../src/db/db';
import { CypherRegistry } from '../../src/db/cypherRegistry';
import { CYPHER_DIR } from '../../src/boot';
import { startTestService, type TestService } from '../support/testService';

/**
 * A routing URI (`neo4j://`, a cluster): reads may be served by a secondary that has not applied
 * the latest commits. A decision read then checks, in its own transaction, that the secondary has
 * the environment's revision the question must include, and runs on the leader when it has not.
 * Here the service reaches the test run's single Neo4j through a routing URI (it is its own
 * cluster of one), so the same code path runs; a lagging secondary is simulated by asking for a
 * revision the database has not reached.
 */
let t: TestService;
let envId: string;
const routingUri = process.env.NEO4J_URI!.replace(/^bolt(\+s|\+ssc)?:/, 'neo4j$1:');

beforeAll(async () => {
  t = await startTestService({ neo4jUri: routingUri });
  envId = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body.environment_id;
});
afterAll(async () => t?.close());

describe('decisions through a routing URI', () => {
  it('answers checks, lists and user permissions, and a revoke takes effect at once', async () => {
    expect(t.service.db.routing).toBe(true);
    const schema = `/v2/schema/${t.proj}/${t.env}`;
    const facts = `/v2/facts/${t.proj}/${t.env}`;
    await t.ok('POST', `${schema}/resources`, {
      key: 'file',
      name: 'File',
      actions: { read: {} },
      roles: { reader: { name: 'Reader', permissions: ['read'] } },
    });
    await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
    await t.ok('POST', `${facts}/users`, { key: 'rita' });
    await t.ok('POST', `${facts}/resource_instances`, { key: 'f1', resource: 'file', tenant: 'acme' });
    await t.ok('POST', `${facts}/role_assignments`, { user: 'rita', role: 'reader', resource_instance: 'file:f1', tenant: 'acme' });
    const question = { user: 'rita', action: 'read', resource: { type: 'file', key: 'f1', tenant: 'acme' } };
    const allowed = async (consistency?: string) =>
      (await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, consistency ? { ...question, consistency } : question)).allow;
    const listed = async () =>
      (
        await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}/list-objects`, { user: 'rita', action: 'read', resource_type: 'file' })
      ).objects.map((o: { key: string }) => o.key);
    expect([await allowed(), await allowed('fully_consistent')]).toEqual([true, true]);
    expect(await listed()).toEqual(['f1']);
    const permissions = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}/user-permissions`, { user: { key: 'rita' } });
    expect(permissions['file:f1']?.permissions).toEqual(['file:read']);

    // Each decision read names the revision it must include: at least the revoke's.
    const spy = jest.spyOn(t.service.db, 'readOnce');
    try {
      await t.ok('DELETE', `${facts}/role_assignments`, { user: 'rita', role: 'reader', resource_instance: 'file:f1', tenant: 'acme' });
      const revoked = (await t.service.db.readRows(t.service.db.statement('revisions/readRevision'), { envId }))[0].revision as number;
      expect([await allowed(), await allowed('fully_consistent')]).toEqual([false, false]);
      expect(await listed()).toEqual([]);
      const base = `/v2/allowed/${t.proj}/${t.env}`;
      expect((await t.ok('POST', base, { ...question, explain: true })).allow).toBe(false);
      expect((await t.ok('POST', `${base}/user-permissions`, { user: { key: 'rita' } }))['file:f1']).toBeUndefined();
      expect(
        (await t.ok('POST', `${base}/authorized_users`, { action: 'read', resource: { type: 'file', key: 'f1', tenant: 'acme' } })).users,
      ).toEqual({});
      const floors = spy.mock.calls
        // The walk's statements: decisions/* (the Cypher walk) or walk/* (the extension's), by the statement they mirror.
        .filter(([stmt]) => /^(decisions|walk)\//.test(stmt.name))
        .map(([stmt, , , atLeast]) => [stmt.name.replace(/^walk\//, 'decisions/'), atLeast]);
      expect(floors).toEqual([
        ['decisions/allowed', { env: envId, revision: revoked }],
        ['decisions/allowed', { env: envId, revision: revoked }],
        ['decisions/listObjects', { env: envId, revision: revoked }],
        ['decisions/allowed', { env: envId, revision: revoked }],
        ['decisions/userPermissions', { env: envId, revision: revoked }],
        ['decisions/authorizedUsers', { env: envId, revision: revoked }],
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a read that must include a revision', () => {
  const registry = new CypherRegistry(CYPHER_DIR);
  const modes: string[] = [];
  const db = () =>
    new Db(t.service.driver, registry, { timeoutMs: 10_000, routing: true, observer: { transaction: (mode) => modes.push(mode) } });
  const revision = async () =>
    (await t.service.db.readRows(t.service.db.statement('revisions/readRevision'), { envId }))[0].revision as number;
  const read = (d: Db, atLeast: number) =>
    d.readOnce(d.statement('revisions/readRevision'), { envId }, 'read', { env: envId, revision: atLeast });

  it('runs on a secondary that has the revision', async () => {
    modes.length = 0;
    const current = await revision();
    expect(await read(db(), current)).toEqual([{ revision: current }]);
    expect(modes).toEqual(['read']);
  });

  it('runs on the leader when the secondary lags', async () => {
    modes.length = 0;
    const current = await revision();
    // A revision this database has not reached: what a lagging secondary would show.
    expect(await read(db(), current + 1000)).toEqual([{ revision: current }]);
    expect(modes).toEqual(['read', 'latest']);
  });

  it('is a plain read without a routing URI', async () => {
    modes.length = 0;
    const plain = new Db(t.service.driver, registry, { timeoutMs: 10_000, observer: { transaction: (mode) => modes.push(mode) } });
    const current = await revision();
    expect(await read(plain, current + 1000)).toEqual([{ revision: current }]);
    expect(modes).toEqual(['read']);
  });
});
