import { resolve } from 'node:path';
import { type OwnNeo4j, startOwnNeo4j, stopLeftover } from '../support/ownNeo4j';
import { startTestService, type TestService } from '../support/testService';

/**
 * Which walk answers decisions (docs/walk-extension.md): WALK=cypher forces the Cypher walk; with
 * WALK=auto the extension answers when Neo4j has it, and a Neo4j restarted without it is noticed
 * when the connection comes back: the answers stay right (no 500) and /readyz, /metrics name the
 * Cypher walk and why. Uses a Neo4j of its own (OUTAGE_NEO4J_PORT + 2: the outage test may run
 * beside it on OUTAGE_NEO4J_PORT).
 */
jest.setTimeout(300_000); // two Neo4j starts on a busy machine

const ROOT = resolve(__dirname, '../..');
const PORT = Number(process.env.OUTAGE_NEO4J_PORT ?? 7711) + 2;
const DATA_DIR = resolve(ROOT, '.neo4j', 'walk-selection-test');

let neo4j: OwnNeo4j | undefined;
const services: TestService[] = [];

afterAll(async () => {
  for (const s of services) await s.close().catch(() => undefined);
  await neo4j?.stop();
});

const walkOf = async (t: TestService) => {
  const ready = await t.call('GET', '/readyz', undefined, { key: null });
  return { status: ready.status, walk: ready.body.walk, reason: ready.body.walk_reason };
};
const gauge = async (t: TestService) => {
  const text = String((await t.call('GET', '/metrics', undefined, { key: null, headers: { accept: 'text/plain' } })).body);
  return text.split('\n').filter((l) => l.startsWith('authz_walk_info{'));
};

async function waitFor<T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 120_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined as T);
    if ((v !== undefined && done(v)) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('WALK=cypher: the Cypher walk answers, named with its reason in /readyz and /metrics', async () => {
  const t = await startTestService({ env: { WALK: 'cypher' } });
  services.push(t);
  expect(await walkOf(t)).toEqual({ status: 200, walk: 'cypher', reason: 'forced_by_setting' });
  expect(await gauge(t)).toEqual(['authz_walk_info{walk="cypher",reason="forced_by_setting"} 1']);
});

it('a Neo4j restarted without the extension: answers stay right, and the Cypher walk is chosen when the connection is back', async () => {
  stopLeftover(PORT);
  neo4j = await startOwnNeo4j(PORT, DATA_DIR, { extension: true });
  const t = await startTestService({ neo4jUri: neo4j.uri });
  services.push(t);
  expect(await walkOf(t)).toEqual({ status: 200, walk: 'extension', reason: 'version_matches' });
  expect(await gauge(t)).toEqual(['authz_walk_info{walk="extension",reason="version_matches"} 1']);
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {} },
    roles: { reader: { name: 'Reader', permissions: ['read'] } },
  });
  await t.ok('POST', `${facts}/users`, { key: 'alice' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'alice', role: 'reader', tenant: 'default', resource_instance: 'doc:d1' });
  const ask = () =>
    t.call('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, { user: 'alice', action: 'read', resource: { type: 'doc', key: 'd1' } });
  expect((await ask()).body.allow).toBe(true);

  await t.ok('POST', `${facts}/resource_instances`, { key: 'd2', tenant: 'default', resource: 'doc' });
  await neo4j.stop();
  neo4j = await startOwnNeo4j(PORT, DATA_DIR, { extension: false });
  // The first write after the restart: the extension's write procedure is missing, so the
  // transaction rolls back and runs again with the Cypher statement: written once, never a 500.
  const bulk = () =>
    t.call('POST', `${facts}/role_assignments/bulk`, [{ user: 'alice', role: 'reader', tenant: 'default', resource_instance: 'doc:d2' }]);
  const wrote = await waitFor(bulk, (r) => r.status !== 503);
  expect({ status: wrote.status, body: wrote.body }).toEqual({ status: 200, body: { assignments_created: 1 } });
  // The first answers after the restart: right (the extension's statement that finds no procedure is asked of Cypher), never a 500.
  const again = await waitFor(ask, (r) => r.status !== 503);
  expect({ status: again.status, allow: again.body.allow }).toEqual({ status: 200, allow: true });
  const chosen = await waitFor(
    () => walkOf(t),
    (w) => w.reason === 'extension_absent',
  );
  expect(chosen).toEqual({ status: 200, walk: 'cypher', reason: 'extension_absent' });
  expect(await gauge(t)).toEqual(['authz_walk_info{walk="cypher",reason="extension_absent"} 1']);
});
