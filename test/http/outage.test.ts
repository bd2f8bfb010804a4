import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type OwnNeo4j, startOwnNeo4j, stopLeftover } from '../support/ownNeo4j';
import { type ApiResponse, startTestService, type TestService } from '../support/testService';

/**
 * Neo4j goes away and comes back: the service answers 503 quickly while it is gone (never
 * hangs, never 500), stays alive (/healthz), and recovers by itself once it is back, with
 * the data intact. Two kinds of outage: a hung Neo4j (SIGSTOP: it accepts connections and
 * answers nothing) and a stopped one. Uses a Neo4j of its own (OUTAGE_NEO4J_PORT, default
 * 7711), not the run's shared one, and a low DB_TIMEOUT_MS so that the test stays short.
 */
jest.setTimeout(300_000); // two Neo4j starts; about 110 s on 2 busy cores
// The default; lower values make a cold Neo4j on a busy machine fail its first (planning) queries.
const DB_TIMEOUT_MS = 4000;
process.env.DB_TIMEOUT_MS = String(DB_TIMEOUT_MS); // this file's own copy of the environment
// Writes have a deadline of their own (docs/configuration.md), longer than a decision's.
const WRITE_TIMEOUT_MS = 6000;
process.env.WRITE_TIMEOUT_MS = String(WRITE_TIMEOUT_MS);
process.env.EXPORT_HOLD_MS = '2000'; // below WRITE_TIMEOUT_MS, as the configuration requires

const ROOT = resolve(__dirname, '../..');
const PORT = Number(process.env.OUTAGE_NEO4J_PORT ?? 7711);
const DATA_DIR = resolve(ROOT, '.neo4j', 'outage-test');

let neo4j: OwnNeo4j | undefined;
let t: TestService | undefined;

beforeAll(async () => {
  stopLeftover(PORT);
  neo4j = await startOwnNeo4j(PORT, DATA_DIR);
  t = await startTestService({ neo4jUri: neo4j.uri });
});

afterAll(async () => {
  thaw();
  await t?.close();
  await neo4j?.stop();
});

/** The Neo4j JVM the launcher recorded for our port. */
const neo4jPid = () => Number(readFileSync(resolve(ROOT, '.neo4j', `neo4j-${PORT}.pid`), 'utf8').trim());
let frozenPid: number | undefined;
function freeze(): void {
  frozenPid = neo4jPid();
  process.kill(frozenPid, 'SIGSTOP');
}
function thaw(): void {
  if (frozenPid !== undefined) process.kill(frozenPid, 'SIGCONT');
  frozenPid = undefined;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const t0 = Date.now();
  const res = await fn();
  return { ms: Date.now() - t0, res };
}

it('answers 503 with Retry-After within DB_TIMEOUT_MS + 1 s (a write: WRITE_TIMEOUT_MS + 1 s) on every route family while Neo4j hangs, and recovers after', async () => {
  const svc = t!;
  const schema = `/v2/schema/${svc.proj}/${svc.env}`;
  const facts = `/v2/facts/${svc.proj}/${svc.env}`;
  // Set-up on a cold Neo4j with a low DB_TIMEOUT_MS: a call that meets a 503 is sent again.
  // Before the freeze: a cold Neo4j on a busy machine plans each statement the first time, which
  // may take more than DB_TIMEOUT_MS (4 s) again and again; asked again for up to 3 minutes.
  const untilServed = async (call: () => Promise<ApiResponse>) => {
    const until = Date.now() + 180_000;
    for (;;) {
      const res = await call();
      if (res.status !== 503 || Date.now() > until) return res;
    }
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await untilServed(() => svc.call(method, path, body));
    if (res.status >= 300 && res.status !== 409) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  await ok('POST', `${facts}/tenants/acme/users`, { key: 'alice' });
  await ok('POST', `${schema}/resource_instances`, { key: 'd1', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts}/role_assignments`, { user: 'alice', role: 'reader', tenant: 'acme' });
  await ok('POST', `${schema}/groups`, { group_instance_key: 'team', group_tenant: 'acme' });
  const config = await ok('POST', `/v2/elements/${svc.proj}/${svc.env}/config`, {
    key: 'ops',
    name: 'Ops',
    elements_type: 'operation_approval',
    settings: { resources: ['doc'] },
    roles_to_levels: { LEVEL_1: ['reader'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  const login = await untilServed(() =>
    svc.call('POST', '/v2/auth/elements_login_as', { user_id: 'alice', tenant_id: 'acme' }, { key: svc.envKey }),
  );
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const approvals = `/v2/elements/${svc.proj}/${svc.env}/config/${config.id}/operation_approval`;

  // One call per route family; `fresh` makes each decision question one never asked (no cached answer).
  // Keys of this run only: the outage Neo4j's data directory may hold an earlier run's.
  let n = Date.now();
  const fresh = () => `nobody-${++n}`;
  const families: Record<string, () => Promise<ApiResponse>> = {
    projects: () => svc.call('GET', '/v2/projects'),
    'projects (write)': () => svc.call('POST', '/v2/projects', { key: `frozen_${++n}`, name: 'x' }),
    schema: () => svc.call('GET', `${schema}/resources`, undefined, { key: svc.envKey }),
    facts: () => svc.call('GET', `${facts}/tenants`, undefined, { key: svc.envKey }),
    'facts (write)': () => svc.call('POST', `${facts}/tenants`, { key: `frozen-${++n}`, name: 'x' }, { key: svc.envKey }),
    groups: () => svc.call('GET', `${schema}/groups`, undefined, { key: svc.envKey }),
    decisions: () =>
      svc.call(
        'POST',
        `/v2/allowed/${svc.proj}/${svc.env}`,
        { user: fresh(), action: 'read', resource: { type: 'doc', key: 'd1', tenant: 'acme' } },
        { key: svc.envKey },
      ),
    'elements/approvals (session)': () => svc.call('GET', approvals, undefined, { key: null, headers: { cookie, element_id: config.id } }),
    'api-key': () => svc.call('GET', `/v2/api-key/${svc.proj}/${svc.env}`),
    graph: () => svc.call('GET', `/v2/graph/${svc.proj}/${svc.env}`),
  };
  for (const [name, call] of Object.entries(families)) {
    const res = await untilServed(call);
    expect({ name, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ name, status: 200, body: 'ok' });
  }

  freeze();
  try {
    // Twice: the second round meets a pool whose connections timed out in the first.
    for (let round = 1; round <= 2; round++) {
      const answers = await Promise.all(Object.entries(families).map(async ([name, call]) => ({ name, ...(await timed(call)) })));
      for (const { name, ms, res } of answers) {
        expect({ name, status: res.status, code: res.body?.error_code }).toEqual({ name, status: 503, code: 'SERVICE_UNAVAILABLE' });
        expect({ name, retryAfter: Number(res.headers.get('retry-after')) }).toEqual({ name, retryAfter: expect.any(Number) });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        // Within its deadline, plus a second: a write's own (WRITE_TIMEOUT_MS), every other call a decision's.
        const deadline = name.endsWith('(write)') ? WRITE_TIMEOUT_MS : DB_TIMEOUT_MS;
        expect({ name, fast: ms < deadline + 1000 }).toEqual({ name, fast: true });
        expect(JSON.stringify(res.body)).not.toMatch(/Neo4jError|bolt:\/\/|at .*\.ts:\d+/);
      }
      console.log(`frozen, round ${round}: ${answers.map((a) => `${a.name} ${a.res.status} in ${a.ms} ms`).join('; ')}`);
    }
    expect((await svc.call('GET', '/healthz', undefined, { key: null })).status).toBe(200);
  } finally {
    thaw();
  }

  // Thawed: every family answers normally again, without a restart of the service.
  const thawed = Date.now();
  for (const [name, call] of Object.entries(families)) {
    let status = 0;
    while (Date.now() - thawed < 30_000) {
      status = (await call()).status;
      if (status < 300) break;
      expect({ name, status }).toEqual({ name, status: 503 });
      await new Promise((r) => setTimeout(r, 200));
    }
    expect({ name, ok: status >= 200 && status < 300 }).toEqual({ name, ok: true });
  }
  console.log(`frozen: every family answered normally ${Date.now() - thawed} ms after SIGCONT`);
  const answer = await svc.call(
    'POST',
    `/v2/allowed/${svc.proj}/${svc.env}`,
    { user: 'alice', action: 'read', resource: { type: 'doc', key: 'd1', tenant: 'acme' } },
    { key: svc.envKey },
  );
  expect(answer.body.allow).toBe(true);
});

it('answers 503 quickly while Neo4j is down and recovers by itself when it is back', async () => {
  const svc = t!;
  const tenants = `/v2/facts/${svc.proj}/${svc.env}/tenants`;
  expect((await svc.call('POST', tenants, { key: 'before-outage', name: 'Made before the outage' })).status).toBe(200);
  expect((await svc.call('GET', tenants)).status).toBe(200);

  await neo4j!.stop();
  neo4j = undefined;

  for (const key of [svc.adminKey, svc.envKey]) {
    const { ms, res } = await timed(() => svc.call('GET', tenants, undefined, { key }));
    expect(res.status).toBe(503);
    expect(res.body).toEqual(
      expect.objectContaining({ error_code: 'SERVICE_UNAVAILABLE', id: expect.any(String), message: expect.any(String) }),
    );
    expect(JSON.stringify(res.body)).not.toMatch(/Neo4jError|ECONNREFUSED|bolt:\/\//);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(ms).toBeLessThan(5000);
    console.log(`outage: GET tenants answered ${res.status} in ${ms} ms`);
  }
  // writes fail the same way
  const write = await timed(() => svc.call('POST', tenants, { key: 'during-outage', name: 'x' }));
  expect(write.res.status).toBe(503);
  expect(write.ms).toBeLessThan(5000);

  const ready = await timed(() => svc.call('GET', '/readyz', undefined, { key: null }));
  expect(ready.res.status).toBe(503);
  expect(ready.res.body.error_code).toBe('SERVICE_UNAVAILABLE');
  expect(ready.ms).toBeLessThan(5000);
  expect((await svc.call('GET', '/healthz', undefined, { key: null })).status).toBe(200);

  // Several requests at once while down: all 503, none hangs.
  const burst = await timed(() => Promise.all(Array.from({ length: 10 }, () => svc.call('GET', tenants))));
  expect(burst.res.map((r) => r.status)).toEqual(Array(10).fill(503));
  expect(burst.ms).toBeLessThan(5000);

  // Back on the same port and data, without restarting the service.
  neo4j = await startOwnNeo4j(PORT, DATA_DIR);
  const back = Date.now();
  let last = 0;
  // A restarted Neo4j is cold (every statement planned again); on a busy machine that takes a while.
  while (Date.now() - back < 60_000) {
    last = (await svc.call('GET', tenants)).status;
    if (last === 200) break;
    expect(last).toBe(503);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(last).toBe(200);
  console.log(`outage: recovered ${Date.now() - back} ms after Neo4j was back`);

  const list = await svc.call('GET', `${tenants}?per_page=100`);
  expect(list.body.map((x: { key: string }) => x.key)).toContain('before-outage');
  expect(list.body.map((x: { key: string }) => x.key)).not.toContain('during-outage');
  expect((await svc.call('GET', '/readyz', undefined, { key: null })).status).toBe(200);
  expect((await svc.call('GET', tenants, undefined, { key: svc.envKey })).status).toBe(200);
});
