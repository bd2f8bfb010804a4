import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { startTestService, TestService } from '../support/testService';

/**
 * Neo4j goes away and comes back: the service answers 503 quickly while it is gone (never
 * hangs, never 500), stays alive (/healthz), and recovers by itself once it is back, with
 * the data intact. Uses a Neo4j of its own (port 7711), not the run's shared one.
 */
jest.setTimeout(300_000); // two Neo4j starts; about 110 s on 2 busy cores

const ROOT = resolve(__dirname, '../..');
const LAUNCHER = resolve(ROOT, 'scripts/neo4j-local.mjs');
const PORT = Number(process.env.OUTAGE_NEO4J_PORT ?? 7711);
const DATA_DIR = resolve(ROOT, '.neo4j', 'outage-test');

/**
 * startLocalNeo4j() in a child node process (the launcher is an ES module, which jest's CommonJS
 * sandbox cannot import). The child stops Neo4j on SIGTERM, and also when our end of its stdin
 * closes, so a crashed test run leaves no Neo4j behind.
 */
const CHILD = `
const [launcher, port, dataDir] = process.argv.slice(1);
const m = await import(launcher);
const s = await m.startLocalNeo4j({ port: Number(port), dataDir, log: (l) => process.stderr.write(l + '\\n') });
process.stdout.write('READY ' + s.uri + ' ' + s.reused + '\\n');
let stopping = false;
const stop = () => { if (stopping) return; stopping = true; s.stop().then(() => process.exit(0), () => process.exit(1)); };
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
`;

interface OwnNeo4j {
  uri: string;
  stop(): Promise<void>;
}

async function startOwnNeo4j(): Promise<OwnNeo4j> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--input-type=module', '-e', CHILD, `file://${LAUNCHER}`, String(PORT), DATA_DIR],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err = (err + d).slice(-8000)));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const uri = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\S+) (true|false)/.exec(out);
      if (!m) return;
      if (m[2] === 'true') fail(new Error(`port ${PORT} is already served by a Neo4j this test did not start; stop it first`));
      else ok(m[1]);
    });
    void exited.then((code) => fail(new Error(`the Neo4j launcher exited (${code}) before it was ready:\n${err}`)));
  });
  return {
    uri,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A leftover Neo4j of an earlier, interrupted run on our port (found through its pid file). */
function stopLeftover(): void {
  spawnSync(process.execPath, [LAUNCHER, 'stop', '--port', String(PORT)], { cwd: ROOT, stdio: 'ignore', timeout: 60_000 });
}

let neo4j: OwnNeo4j | undefined;
let t: TestService | undefined;

beforeAll(async () => {
  stopLeftover();
  neo4j = await startOwnNeo4j();
  t = await startTestService({ neo4jUri: neo4j.uri });
});

afterAll(async () => {
  await t?.close();
  await neo4j?.stop();
});

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; res: T }> {
  const t0 = Date.now();
  const res = await fn();
  return { ms: Date.now() - t0, res };
}

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
    expect(res.body).toEqual(expect.objectContaining({ error_code: 'SERVICE_UNAVAILABLE', id: expect.any(String), message: expect.any(String) }));
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
  neo4j = await startOwnNeo4j();
  const back = Date.now();
  let last = 0;
  while (Date.now() - back < 30_000) {
    last = (await svc.call('GET', tenants)).status;
    if (last === 200) break;
    expect(last).toBe(503);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(last).toBe(200);
  console.log(`outage: recovered ${Date.now() - back} ms after Neo4j was back`);

  const list = await svc.call('GET', `${tenants}?per_page=100`);
  expect(list.body.data.map((x: { key: string }) => x.key)).toContain('before-outage');
  expect(list.body.data.map((x: { key: string }) => x.key)).not.toContain('during-outage');
  expect((await svc.call('GET', '/readyz', undefined, { key: null })).status).toBe(200);
  expect((await svc.call('GET', tenants, undefined, { key: svc.envKey })).status).toBe(200);
});
