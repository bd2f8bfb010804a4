import { resolve } from 'node:path';
import { resolveNeo4j } from '../../src/db/resolveNeo4j';

/**
 * One real Neo4j per test run (NEO4J_URI, else testcontainers, else the local launcher).
 * Test files share it and work in their own project/environment.
 */
export default async function globalSetup(): Promise<void> {
  const root = resolve(__dirname, '../..');
  const port = Number(process.env.TEST_NEO4J_PORT ?? 7697);
  const neo4j = await resolveNeo4j({
    uri: process.env.NEO4J_URI,
    user: process.env.NEO4J_USER ?? 'neo4j',
    password: process.env.NEO4J_PASSWORD ?? 'neo4j',
    localPort: port,
    dataDir: resolve(root, '.neo4j', `test-data-${port}`),
    repoRoot: root,
    log: { info: () => undefined, warn: (o: unknown) => console.warn(o) } as never,
  });
  // Every Neo4j call gives up after DB_TIMEOUT_MS (default 4 s). Test files share a busy machine,
  // where a call may take longer without anything being wrong; only the outage test sets it low.
  process.env.DB_TIMEOUT_MS ??= '30000';
  // An export holds its environment's writers while it reads it, at most EXPORT_HOLD_MS (2 s by
  // default): a busy machine reads more slowly. Below DB_TIMEOUT_MS (the outage test sets its own).
  process.env.EXPORT_HOLD_MS ??= '10000';
  // Likewise a question may wait longer for its environment's turn (fair share, docs/behaviour.md section
  // 15) than the default ADMISSION_WAIT_MS; test/http/fair-share.test.ts and the unit tests of the
  // fair queue check the bound itself.
  process.env.ADMISSION_WAIT_MS ??= '30000';
  // Every service of the run delivers the webhooks of every environment in the shared Neo4j (as
  // replicas do): they all poll and retry at the pace test/http/webhooks.test.ts waits for.
  process.env.WEBHOOK_POLL_MS ??= '100';
  process.env.WEBHOOK_RETRY_BASE_MS ??= '100';
  // The tests' webhook receivers listen on loopback, which webhooks may not reach by default
  // (test/http/webhooks.test.ts checks that default with a service of its own).
  process.env.WEBHOOK_ALLOWED_NETWORKS ??= '127.0.0.0/8,::1/128';
  process.env.NEO4J_URI = neo4j.uri;
  process.env.NEO4J_USER = neo4j.user;
  process.env.NEO4J_PASSWORD = neo4j.password;
  (globalThis as { __neo4jStop?: () => Promise<void> }).__neo4jStop = neo4j.stop;
}
