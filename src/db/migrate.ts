import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Driver, Session } from 'neo4j-driver';
import type { Logger } from 'pino';
import { CypherRegistry } from './cypherRegistry';
import { withDeadline } from './deadline';
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
  checksum: string;
  statements: string[];
}

export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^V\d{4}__.+\.cypher$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const m = /^V(\d{4})__(.+)\.cypher$/.exec(file)!;
      return {
        version: Number(m[1]),
        name: m[2],
        checksum: createHash('sha256').update(text).digest('hex'),
        statements: splitStatements(text),
      };
    });
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
  const [APPLIED, RECORD, AWAIT] = ['appliedMigrations', 'recordMigration', 'awaitIndexes'].map((n) => registry.get(`system/${n}`));
  const open = driver.session({ database });
  // Each statement is bounded by DB_TIMEOUT_MS like any other call (a hung Neo4j fails the start
  // instead of hanging it); after a timeout the session is abandoned, not awaited.
  let timedOut = false;
  const session = {
    run: (text: string, params?: Record<string, unknown>) =>
      withDeadline(Promise.resolve(open.run(text, params)), timeoutMs, () => {
        timedOut = true;
        return new Unavailable('timeout', timeoutMs);
      }),
  };
  try {
    const applied = new Map(
      (await session.run(APPLIED)).records.map((r) => [r.get('version') as number, r.get('checksum') as string]),
    );
    let count = 0;
    for (const m of migrations) {
      const seen = applied.get(m.version);
      if (seen !== undefined) {
        if (seen !== m.checksum) log.warn({ version: m.version }, 'migration file changed after it was applied');
        continue;
      }
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
