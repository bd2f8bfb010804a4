import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type OwnNeo4j, startOwnNeo4j } from '../support/ownNeo4j';
import { startTestService, type TestService } from '../support/testService';
import { type DriverRun, failuresOf, runDriver, venvProblem } from './runDriver';
import { FIXTURE_ENV, FIXTURE_PROJECT, writeFixture } from './upgradeFixture';

/**
 * docs/behaviour.md section 14 and the upgrade rule: a graph written by the previous version (91c0a63:
 * org id "default", role assignments and tuples without ids) starts under this version, is
 * migrated, and answers the Python SDK's reads like a new one. The previous version is built from
 * git and run for real against a Neo4j of this test's own; then this version starts on the same
 * database and driver.py reads the fixture back (`read` mode) with the key the old version issued.
 */
const PREVIOUS = '91c0a63';
const ROOT = resolve(__dirname, '../..');
const DIR = join(ROOT, '.neo4j', `upgrade-test-${process.pid}`);
const run = promisify(execFile);

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** The previous version's source (what `npm run build` compiles), built into DIR/old/dist. */
async function buildPrevious(): Promise<string> {
  const has = spawnSync('git', ['cat-file', '-e', `${PREVIOUS}^{commit}`], { cwd: ROOT });
  if (has.status !== 0) throw new Error(`the upgrade test needs commit ${PREVIOUS} in the clone (git fetch --unshallow)`);
  const old = join(DIR, 'old');
  mkdirSync(old, { recursive: true });
  // Inside the checkout, so that the old build finds node_modules (same dependencies at 91c0a63).
  await run('bash', ['-c', `git archive ${PREVIOUS} src cypher tsconfig.json tsconfig.build.json package.json | tar -x -C "${old}"`], {
    cwd: ROOT,
  });
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(old, 'tsconfig.build.json')], {
    cwd: old,
  });
  return join(old, 'dist', 'src', 'main.js');
}

interface Running {
  url: string;
  stop(): Promise<void>;
}

async function startPrevious(main: string, neo4jUri: string, adminKey: string): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NEO4J_URI: neo4jUri,
    PORT: String(port),
    ADMIN_API_KEY: adminKey,
    LOG_LEVEL: 'warn',
    // As for this version's services in the tests (test/support/globalSetup.ts): a cold Neo4j on a busy machine is slow.
    DB_TIMEOUT_MS: process.env.DB_TIMEOUT_MS ?? '30000',
  };
  const child: ChildProcess = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err = (err + d).slice(-8000)));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || i > 240) {
      child.kill('SIGKILL');
      throw new Error(`the previous version did not start:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

let neo4j: OwnNeo4j | undefined;
let previous: Running | undefined;
let t: TestService | undefined;
let reads: DriverRun;

beforeAll(async () => {
  const missing = venvProblem();
  if (missing) throw new Error(missing);
  rmSync(DIR, { recursive: true, force: true });
  const [main] = await Promise.all([buildPrevious(), (async () => (neo4j = await startOwnNeo4j(await freePort(), join(DIR, 'data'))))()]);

  const adminKey = `upgrade-test-admin-${process.pid}-0123456789`;
  previous = await startPrevious(main, neo4j!.uri, adminKey);
  const call = async (method: string, path: string, body: unknown, key: string) => {
    const res = await fetch(previous!.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const envKey = await writeFixture(call, adminKey);
  await previous.stop();
  previous = undefined;

  // This version on the graph the previous one wrote: migrations and the organisation at start.
  t = await startTestService({ neo4jUri: neo4j!.uri });
  reads = await runDriver({ url: t.url, envToken: envKey, mode: 'read' });
}, 420_000);

afterAll(async () => {
  await previous?.stop();
  await t?.close();
  await neo4j?.stop();
  rmSync(DIR, { recursive: true, force: true });
});

it(`a graph written by ${PREVIOUS} answers the Python SDK's reads after the upgrade`, () => {
  expect(reads.problem).toBeUndefined();
  expect(reads.lines.length).toBeGreaterThan(20);
  expect(failuresOf(reads.lines)).toEqual([]);
});

it('the upgraded project carries a UUID organisation id, the same as a new project', async () => {
  const upgraded = await t!.ok('GET', `/v2/projects/${FIXTURE_PROJECT}`);
  const fresh = await t!.ok('GET', `/v2/projects/${t!.proj}`);
  expect(upgraded.organization_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(upgraded.organization_id).toBe(fresh.organization_id);
  const assignments = await t!.ok('GET', `/v2/facts/${FIXTURE_PROJECT}/${FIXTURE_ENV}/role_assignments`);
  const ids = (Array.isArray(assignments) ? assignments : assignments.data).map((a: { id: string }) => a.id);
  expect(ids).toHaveLength(3);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});
