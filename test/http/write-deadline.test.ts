import neo4j, { type Driver } from 'neo4j-driver';
import { startTestService, type TestService } from '../support/testService';

/**
 * A write's transaction waits for its environment's lock behind the writes before it, so writes
 * have a deadline of their own (WRITE_TIMEOUT_MS, docs/configuration.md), longer than a
 * decision's (DB_TIMEOUT_MS): a write that waits past DB_TIMEOUT_MS commits, one that waits past
 * WRITE_TIMEOUT_MS answers 503 naming that setting, and writes nothing.
 */
let t: TestService;
let driver: Driver;
let envId: string;
const DB_TIMEOUT_MS = 1500;
const WRITE_TIMEOUT_MS = 4000;

beforeAll(async () => {
  t = await startTestService({
    env: { DB_TIMEOUT_MS: String(DB_TIMEOUT_MS), WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS), EXPORT_HOLD_MS: '1000' },
  });
  driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'));
  envId = (await t.ok('GET', `/v2/projects/${t.proj}/envs/${t.env}`)).id;
});
afterAll(async () => {
  await driver?.close();
  await t?.close();
});

/** Runs `fn` while another transaction holds the environment's lock for `ms`. */
async function whileLocked<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    await tx.run('MATCH (e:Environment {id: $id}) SET e.revision = e.revision RETURN e.id', { id: envId });
    const released = new Promise<void>((ok) => setTimeout(ok, ms)).then(() => tx.rollback());
    const out = await fn();
    await released;
    return out;
  } finally {
    await session.close();
  }
}

const user = (key: string) => t.call('POST', `/v2/facts/${t.proj}/${t.env}/users`, { key });

it('commits a write that waited for its environment longer than a decision may wait', async () => {
  const started = Date.now();
  const res = await whileLocked(DB_TIMEOUT_MS + 1500, () => user('waited'));
  expect(res.status).toBe(200);
  expect(Date.now() - started).toBeGreaterThan(DB_TIMEOUT_MS);
  expect((await t.call('GET', `/v2/facts/${t.proj}/${t.env}/users/waited`)).status).toBe(200);
});

it('answers 503 naming WRITE_TIMEOUT_MS past it, and writes nothing', async () => {
  const res = await whileLocked(WRITE_TIMEOUT_MS + 2000, () => user('too-late'));
  expect(res.status).toBe(503);
  expect(res.body.message).toContain('WRITE_TIMEOUT_MS');
  expect(res.headers.get('retry-after')).toBeTruthy();
  expect((await t.call('GET', `/v2/facts/${t.proj}/${t.env}/users/too-late`)).status).toBe(404);
});
