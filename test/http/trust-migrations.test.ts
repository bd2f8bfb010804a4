import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import pino from 'pino';
import { CypherRegistry } from '../../src/db/cypherRegistry';
import { applyMigrations, MigrationChecksumError } from '../../src/db/migrate';

/**
 * docs/behaviour.md section 8: a migration file whose checksum differs from the recorded one stops the
 * start with a message naming the file and exit code 2, and nothing is applied. The shared test
 * database has every migration recorded; a changed copy of the migrations is started against it.
 */
const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
let driver: Driver;
let dir: string;

beforeAll(async () => {
  driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'));
  // Inside the repository, so that the copied service finds node_modules.
  dir = join(ROOT, '.neo4j', `migration-test-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'cypher'), join(dir, 'cypher'), { recursive: true });
  appendFileSync(join(dir, 'cypher', 'migrations', 'V0001__provisioning_tenants_users.cypher'), '// edited after it was applied\n');
  // A new migration after the changed one: it must not be applied either.
  writeFileSync(
    join(dir, 'cypher', 'migrations', 'V9999__never_applied.cypher'),
    'CREATE INDEX never_applied IF NOT EXISTS FOR (n:NeverApplied) ON (n.x);\n',
  );
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await driver?.close();
});

async function neverApplied() {
  const s = driver.session();
  try {
    const m = await s.run('MATCH (m:Migration {version: 9999}) RETURN count(m) AS n');
    const i = await s.run("SHOW INDEXES YIELD name WHERE name = 'never_applied' RETURN count(*) AS n");
    return { recorded: m.records[0].get('n').toNumber(), index: i.records[0].get('n').toNumber() };
  } finally {
    await s.close();
  }
}

it('applyMigrations refuses a changed file, names it, and applies nothing', async () => {
  const registry = new CypherRegistry(join(ROOT, 'cypher'));
  const attempt = applyMigrations(driver, registry, join(dir, 'cypher', 'migrations'), pino({ level: 'silent' }), undefined, 4000);
  await expect(attempt).rejects.toBeInstanceOf(MigrationChecksumError);
  await expect(attempt).rejects.toThrow(/cypher\/migrations\/V0001__provisioning_tenants_users\.cypher changed after being applied/);
  expect(await neverApplied()).toEqual({ recorded: 0, index: 0 });
});

it('the service stops its start with exit code 2 and a message naming the file', async () => {
  // CI builds dist/ before the tests; a local run without a build compiles it here.
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) {
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
  }
  cpSync(join(ROOT, 'dist', 'src'), join(dir, 'dist', 'src'), { recursive: true });
  const started = run(process.execPath, [join(dir, 'dist', 'src', 'main.js')], {
    env: {
      ...process.env,
      NEO4J_URI: process.env.NEO4J_URI,
      PORT: '0',
      ADMIN_API_KEY: 'migration-test-admin-key-0123',
      LOG_LEVEL: 'silent',
    },
    timeout: 120_000,
  });
  const failure = await started.then(
    () => undefined,
    (err) => err as { code: number; stderr: string },
  );
  expect(failure?.code).toBe(2);
  expect(failure?.stderr).toMatch(/cypher\/migrations\/V0001__provisioning_tenants_users\.cypher changed after being applied/);
  expect(failure?.stderr).toMatch(/Nothing was applied/);
  expect(await neverApplied()).toEqual({ recorded: 0, index: 0 });
}, 180_000);

it('accepts the checksum a deployment recorded for an earlier text of a migration that differs in comments only', async () => {
  const superseded = JSON.parse(readFileSync(join(ROOT, 'cypher', 'migrations', 'superseded-checksums.json'), 'utf8'));
  const [old] = superseded['V0008__organization.cypher'] as string[];
  const s = driver.session();
  try {
    const current = (await s.run('MATCH (m:Migration {version: 8}) RETURN m.checksum AS c')).records[0].get('c');
    await s.run('MATCH (m:Migration {version: 8}) SET m.checksum = $old', { old });
    try {
      const registry = new CypherRegistry(join(ROOT, 'cypher'));
      await expect(
        applyMigrations(driver, registry, join(ROOT, 'cypher', 'migrations'), pino({ level: 'silent' }), undefined, 4000),
      ).resolves.not.toThrow();
    } finally {
      await s.run('MATCH (m:Migration {version: 8}) SET m.checksum = $current', { current });
    }
  } finally {
    await s.close();
  }
});
