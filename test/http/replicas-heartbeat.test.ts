import { join } from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { CypherRegistry } from '../../src/db/cypherRegistry';
import { Db } from '../../src/db/db';
import { Replicas } from '../../src/db/replicas';
import { startTestService, type TestService } from '../support/testService';

/**
 * The replica registry on the run's Neo4j (src/db/replicas.ts): heartbeats tell each replica
 * which others are alive, and a write skips the commit wait only while its replica is alone.
 * Other test files' services share this Neo4j, so the assertions name replicas by id.
 */
let driver: Driver;
let registry: CypherRegistry;
let a: TestService;
const db = (opts: Partial<ConstructorParameters<typeof Db>[2]> = {}) => new Db(driver, registry, { timeoutMs: 10_000, ...opts });

beforeAll(async () => {
  driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'));
  registry = new CypherRegistry(join(__dirname, '../../cypher'));
  a = await startTestService();
}, 180_000);
afterAll(async () => {
  await a?.close();
  await driver?.close();
});

it('tells each replica the others that beat, forgets one that left, and drops a heartbeat a day old', async () => {
  const r1 = new Replicas(db(), 20);
  const r2 = new Replicas(db(), 20);
  const r3 = new Replicas(db(), 20);
  await r2.beat();
  await r3.beat();
  expect(await r1.beat()).toEqual(expect.arrayContaining([r2.id, r3.id]));
  expect(r1.alone()).toBe(false);
  await r2.leave();
  expect(await r1.beat()).not.toContain(r2.id);
  const s = driver.session();
  try {
    // r3 stopped without leaving a day ago (by the database's clock): the next heartbeat of any replica removes it.
    await s.run('MATCH (r:Replica {id: $id}) SET r.seen = timestamp() - 86400001', { id: r3.id });
    expect(await r1.beat()).not.toContain(r3.id);
    expect((await s.run('MATCH (r:Replica {id: $id}) RETURN count(r) AS n', { id: r3.id })).records[0].get('n').toNumber()).toBe(0);
  } finally {
    await s.close();
    await r1.leave();
  }
});

it('a running service beats: the others see it, and it sees a replica that starts', async () => {
  const probe = new Replicas(db(), 20);
  expect(await probe.beat()).toContain(a.service.replicas.id);
  // The service's next heartbeat (every second) finds the probe: it is not alone, so its writes wait.
  for (let waited = 0; !a.service.replicas.others().includes(probe.id) && waited < 5_000; waited += 100)
    await new Promise((ok) => setTimeout(ok, 100));
  expect(a.service.replicas.others()).toContain(probe.id);
  expect(a.service.replicas.alone()).toBe(false);
  await probe.leave();
});

describe('the commit wait', () => {
  const wait = 2_000;
  // A write that moves a revision (the environment need not exist for the bump to count).
  const bump = (d: Db, announce = false) =>
    d.write(async (tx) => {
      tx.invalidated.add(`no-such-env-${Math.random()}`);
      if (announce) tx.announce();
    });
  const timed = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return performance.now() - t0;
  };

  it('is skipped by a replica that is alone, and kept while another replica is alive', async () => {
    let alone = true;
    const d = db({ commitWaitMs: wait, replicas: { alone: () => alone }, revisions: { learn: () => undefined } });
    await bump(d); // the first statements of a connection may be slow to plan
    expect(await timed(() => bump(d))).toBeLessThan(wait);
    alone = false;
    expect(await timed(() => bump(d))).toBeGreaterThanOrEqual(wait - 5);
  });

  it('is kept for an announced change (a key revoked, an environment deleted) even by a replica that is alone', async () => {
    const d = db({ commitWaitMs: wait, replicas: { alone: () => true }, revisions: { learn: () => undefined } });
    expect(await timed(() => bump(d, true))).toBeGreaterThanOrEqual(wait - 5);
  });

  it('is kept when there is no registry at all', async () => {
    const d = db({ commitWaitMs: wait, revisions: { learn: () => undefined } });
    expect(await timed(() => bump(d))).toBeGreaterThanOrEqual(wait - 5);
  });
});
