import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Driver, Neo4jError } from 'neo4j-driver';
import type { Logger } from 'pino';
import type { App } from './app';
import { ChangeStore } from './areas/changes/store';
import { Revisions } from './areas/decisions/revisions';
import { RevisionsStore } from './areas/decisions/revisionsStore';
import { hashSecret } from './auth/secrets';
import { compose, type Composition } from './compose';
import type { Config } from './config';
import { CypherRegistry } from './db/cypherRegistry';
import { Db } from './db/db';
import { Replicas } from './db/replicas';
import { createDriver } from './db/driver';
import { WalkSelection } from './db/walkSelection';
import { applyMigrations } from './db/migrate';
import { resolveOrganization } from './db/organization';
import { Conflict, Unavailable } from './db/storeErrors';
import { Metrics } from './metrics/metrics';
import { startJobs } from './util/jobs';

/** src/ under ts-jest, dist/src/ once compiled: the repository root is where cypher/ is. */
export const REPO_ROOT = existsSync(resolve(__dirname, '..', 'cypher')) ? resolve(__dirname, '..') : resolve(__dirname, '../..');
export const CYPHER_DIR = join(REPO_ROOT, 'cypher');

export interface Service {
  app: App;
  /** Every object src/compose.ts built (the revision ledger, the sweeps, the decision log...). */
  parts: Composition;
  driver: Driver;
  db: Db;
  /** This replica's heartbeat and its view of the others (src/db/replicas.ts). */
  replicas: Replicas;
  adminKey: string;
  adminKeySource: 'ADMIN_API_KEY' | 'generated file';
  /** Stops every job (the reverse of their start: heartbeat, gauges, ..., revision poll), then closes the driver. */
  stop(): Promise<void>;
}

/**
 * The admin key: ADMIN_API_KEY when set; otherwise one generated on first start and kept
 * in DATA_DIR/admin-api-key (mode 0600), so that restarts keep it.
 */
export function adminKeyOf(config: Config): { key: string; source: Service['adminKeySource']; file?: string } {
  if (config.adminApiKey) return { key: config.adminApiKey, source: 'ADMIN_API_KEY' };
  const file = resolve(REPO_ROOT, config.dataDir, 'admin-api-key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), source: 'generated file', file };
  mkdirSync(dirname(file), { recursive: true });
  const key = `admin_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, source: 'generated file', file };
}

/**
 * The start-up sequence: builds the infrastructure (driver, statements, the Db and its revision
 * ledger), waits for the database, applies migrations, resolves the organisation, then has the
 * composition root (src/compose.ts) build the rest, starts its jobs and bootstraps the default
 * project/env.
 */
export async function bootService(config: Config, log: Logger, neo4j: { uri: string; user: string; password: string }): Promise<Service> {
  const registry = new CypherRegistry(CYPHER_DIR);
  const driver = createDriver({
    uri: neo4j.uri,
    user: neo4j.user,
    password: neo4j.password,
    timeoutMs: config.dbTimeoutMs,
    longestCallMs: Math.max(config.writeTimeoutMs, config.adminTimeoutMs),
  });
  const metrics = new Metrics();
  // Which walk answers decisions (src/db/walkSelection.ts); it watches the transactions for a reconnection.
  const walk = new WalkSelection(config.walk, log.child({ area: 'walk' }));
  // A routing URI (neo4j://, neo4j+s://) reaches a cluster: reads may go to a secondary.
  const dbOptions = {
    database: config.neo4jDatabase,
    timeoutMs: config.dbTimeoutMs,
    adminTimeoutMs: config.adminTimeoutMs,
    writeTimeoutMs: config.writeTimeoutMs,
    observer: {
      transaction: (...a: Parameters<Metrics['transaction']>) => {
        metrics.transaction(...a);
        walk.transaction(...a);
      },
      retried: (mode: string) => metrics.retried(mode),
      procedureMissing: () => walk.procedureMissing(),
    },
    routing: neo4j.uri.startsWith('neo4j'),
  };
  // The ledger of revisions and the replica heartbeats read through a Db of their own (reads bump
  // nothing, so it needs no listener); the service's Db tells the ledger each revision its writes commit.
  const plainDb = new Db(driver, registry, dbOptions);
  // Alone, a replica needs no commit wait (src/db/replicas.ts).
  const replicas = new Replicas(plainDb, config.coherenceWindowMs, config.commitWait === 'others');
  const revisions = new Revisions(new RevisionsStore(plainDb), { windowMs: config.coherenceWindowMs, replicas });
  // Every write records its change events in its own transaction (the changes feed).
  // Writes that move a revision are acknowledged COHERENCE_WINDOW_MS after commit while another
  // replica is alive (the window within which every replica's revision reads include them).
  const db: Db = new Db(driver, registry, {
    ...dbOptions,
    revisions,
    changes: new ChangeStore(() => db),
    commitWaitMs: config.coherenceWindowMs,
    replicas,
  });
  const admin = adminKeyOf(config);
  let migrated = false;
  let stopJobs = async () => replicas.leave(); // no heartbeat left beating (or in the graph) for a service that did not start

  try {
    await waitForDatabase(driver, log, 120_000);
    await retryAtStart(
      () =>
        applyMigrations(
          driver,
          registry,
          join(CYPHER_DIR, 'migrations'),
          log.child({ area: 'migrations' }),
          config.neo4jDatabase,
          config.dbTimeoutMs,
        ),
      log,
    );
    migrated = true;
    walk.attach(db);
    walk.onChange((choice) => metrics.walkChosen(choice));
    await walk.check('start');
    // The organisation id is ORG_ID or the one kept in the graph (generated at the first start).
    let orgId = '';
    await retryAtStart(async () => (orgId = await resolveOrganization(plainDb, config.orgId)), log);
    const parts = compose({
      config: { ...config, orgId },
      log,
      db,
      revisions,
      replicas,
      metrics,
      walk,
      adminKeyHash: hashSecret(admin.key),
      isMigrated: () => migrated,
    });
    stopJobs = await startJobs(parts.jobs);
    // A cold Neo4j may take longer than DB_TIMEOUT_MS for its first statements (query planning).
    await retryAtStart(() => parts.provisioning.bootstrap(config.bootstrapProject, config.bootstrapEnv), log);
    await parts.webhooks.reportRefusedUrls();
    const stop = async () => {
      await stopJobs();
      await driver.close();
    };
    return { app: parts.app, parts, driver, db, replicas, adminKey: admin.key, adminKeySource: admin.source, stop };
  } catch (err) {
    await stopJobs();
    await driver.close().catch(() => undefined); // a failed boot leaves no open connections behind
    throw err;
  }
}

/** Raised when another session created the same index/constraint a moment earlier (despite IF NOT EXISTS). */
const RACING_SCHEMA_CODES = new Set([
  'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists',
  'Neo.ClientError.Schema.ConstraintAlreadyExists',
  'Neo.ClientError.Schema.IndexAlreadyExists',
  'Neo.ClientError.Schema.IndexWithNameAlreadyExists',
  'Neo.ClientError.Schema.ConstraintWithNameAlreadyExists',
]);

/**
 * Replicas (or test workers) starting together on a fresh database create the same
 * constraints at once, which Neo4j may abort as a deadlock (a transient error) or report as
 * already existing. Every migration statement is idempotent (IF NOT EXISTS, MERGE), so the
 * run is simply repeated.
 */
async function retryAtStart(run: () => Promise<unknown>, log: Logger, attempts = 8): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run();
      return;
    } catch (err) {
      const racing =
        (err instanceof Neo4jError && (err.retriable || RACING_SCHEMA_CODES.has(err.code))) ||
        err instanceof Unavailable ||
        err instanceof Conflict;
      if (!racing || attempt >= attempts) throw err;
      log.warn(
        { attempt, code: (err as Neo4jError).code ?? (err as Error).message },
        'start-up hit a transient error (another instance migrating? a cold database?); retrying',
      );
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 800 * attempt));
    }
  }
}

async function waitForDatabase(driver: Driver, log: Logger, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await driver.verifyConnectivity();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`Neo4j did not answer within ${timeoutMs / 1000}s: ${(err as Error).message}`);
      if (attempt === 1) log.info('waiting for Neo4j to answer');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
