import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Driver, Session } from 'neo4j-driver';
import type { Logger } from 'pino';
import type { CypherRegistry } from './cypherRegistry';
import { withDeadline } from './deadline';
import { withoutAnswerDeadline } from './driver';
import { Unavailable } from './storeErrors';

/**
 * Migrations are immutable files `cypher/migrations/V<nnnn>__<name>.cypher`, statements
 * separated by `;` on their own line end. Each file is applied once and recorded as a
 * (:Migration {version}) node; its statements are idempotent (IF NOT EXISTS), so two
 * replicas starting together do no harm.
 */
export interface Migration {
  version: number;
  name: string;
  file: string;
  checksum: string;
  /**
   * Checksums of earlier texts of the file that differ from it in comments only
   * (cypher/migrations/superseded-checksums.json): a database that recorded one of them was built
   * from the same statements.
   */
  superseded: string[];
  statements: string[];
}

export function readMigrations(dir: string): Migration[] {
  const supersededFile = join(dir, 'superseded-checksums.json');
  const superseded: Record<string, string[]> = existsSync(supersededFile) ? JSON.parse(readFileSync(supersededFile, 'utf8')) : {};
  return readdirSync(dir)
    .filter((f) => /^V\d{4}__.+\.cypher$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const m = /^V(\d{4})__(.+)\.cypher$/.exec(file)!;
      return {
        version: Number(m[1]),
        name: m[2],
        file,
        checksum: createHash('sha256').update(text).digest('hex'),
        superseded: superseded[file] ?? [],
        statements: splitStatements(text),
      };
    });
}

/**
 * A migration file changed after it was applied: the database was built from other statements
 * than the file now says. The start stops (exit code 2) before anything is applied; restore the
 * file, or add the change as a new migration.
 */
export class MigrationChecksumError extends Error {
  readonly exitCode = 2;
  constructor(readonly files: string[]) {
    super(
      `Migration file${files.length > 1 ? 's' : ''} ${files.map((f) => `cypher/migrations/${f}`).join(', ')} changed after ` +
        'being applied (checksum differs from the one recorded in the database). Nothing was applied. ' +
        'Restore the file as it was, and put the change in a new migration file.',
    );
  }
}

export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export async function applyMigrations(
  driver: Driver,
  registry: CypherRegistry,
  dir: string,
  log: Logger,
  database: string | undefined,
  timeoutMs: number,
): Promise<number> {
  const migrations = readMigrations(dir);
  const [APPLIED, RECORD, AWAIT, PING] = ['appliedMigrations', 'recordMigration', 'awaitIndexes', 'ping'].map((n) =>
    registry.get(`system/${n}`),
  );
  const open = driver.session({ database });
  // A schema statement may run long (index population) and must not be cut: Neo4j can leave it
  // half done (an index without its constraint), which fails every later start. So it runs without
  // the channel deadline, and each DB_TIMEOUT_MS without an answer the server is pinged (bounded
  // by DB_TIMEOUT_MS itself): a busy server answers and we keep waiting, a hung or gone one does
  // not and the start fails. A hung Neo4j thus stops the start within 2 x DB_TIMEOUT_MS.
  let timedOut = false;
  const session = {
    run: async (text: string, params?: Record<string, unknown>) => {
      const work = withoutAnswerDeadline(async () => open.run(text, params));
      for (;;) {
        try {
          return await withDeadline(work, timeoutMs, () => new Unavailable('timeout', timeoutMs));
        } catch (err) {
          if (!(err instanceof Unavailable)) throw err;
          if (await answers(driver, database, PING, timeoutMs)) continue; // busy, not hung: keep waiting
          timedOut = true;
          throw err;
        }
      }
    },
  };
  try {
    const applied = new Map((await session.run(APPLIED)).records.map((r) => [r.get('version') as number, r.get('checksum') as string]));
    const changed = migrations.filter(
      (m) => applied.has(m.version) && applied.get(m.version) !== m.checksum && !m.superseded.includes(applied.get(m.version)!),
    );
    if (changed.length) throw new MigrationChecksumError(changed.map((m) => m.file));
    let count = 0;
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      for (const stmt of m.statements) await session.run(stmt);
      await session.run(RECORD, { version: m.version, name: m.name, checksum: m.checksum, at: new Date().toISOString() });
      log.info({ version: m.version, name: m.name }, 'migration applied');
      count++;
    }
    await session.run(AWAIT);
    return count;
  } finally {
    if (timedOut) void closeQuietly(open);
    else await closeQuietly(open);
  }
}

async function closeQuietly(session: Session): Promise<void> {
  await session.close().catch(() => undefined);
}

/** Does the server answer a trivial query within `timeoutMs` (on another connection)? */
async function answers(driver: Driver, database: string | undefined, ping: string, timeoutMs: number): Promise<boolean> {
  const session = driver.session({ database });
  try {
    await withDeadline(Promise.resolve(session.run(ping)), timeoutMs, () => new Unavailable('timeout', timeoutMs));
    return true;
  } catch {
    return false;
  } finally {
    void closeQuietly(session);
  }
}
