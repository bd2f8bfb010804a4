import { resolve } from 'node:path';
import { bootService, REPO_ROOT } from './boot';
import { type Config, ConfigError, loadConfig } from './config';
import { MigrationChecksumError } from './db/migrate';
import { resolveNeo4j } from './db/resolveNeo4j';
import { createHttpServer } from './http/server';
import { createLogger } from './logger';
import { gracefulDrain } from './shutdown';

/** config -> logger -> Neo4j -> driver -> migrations -> listen; graceful stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee docs/configuration.md for every variable and its default.\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const neo4j = await resolveNeo4j({
    uri: config.neo4jUri,
    user: config.neo4jUser,
    password: config.neo4jPassword,
    localPort: config.neo4jLocalPort,
    dataDir: resolve(REPO_ROOT, config.dataDir, 'data'),
    repoRoot: REPO_ROOT,
    log,
  });
  const service = await bootService(config, log, neo4j);

  const server = createHttpServer(service.app.handler, log, { lane: service.app.lane });
  const drain = gracefulDrain(server);
  await new Promise<void>((ok) => server.listen(config.port, config.host, ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host}:${port}`;
  log.info({ url, neo4j: neo4j.source }, 'listening');
  const keyHint =
    service.adminKeySource === 'ADMIN_API_KEY'
      ? 'the admin key is the value of ADMIN_API_KEY'
      : `admin key (kept in ${config.dataDir}/admin-api-key): ${service.adminKey}`;
  process.stdout.write(
    [
      '',
      `graph-authz is ready at ${url}  (Neo4j: ${neo4j.source}, ${neo4j.uri})`,
      `Authenticate with "Authorization: Bearer <key>"; ${keyHint}`,
      `Try: curl -H "Authorization: Bearer <key>" ${url}/v2/projects`,
      `Bootstrap project/env: ${config.bootstrapProject}/${config.bootstrapEnv}`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, drainMs: config.shutdownDrainMs }, 'stopping: no new connections, finishing in-flight requests');
    const { cut } = await drain(config.shutdownDrainMs);
    if (cut) log.warn({ cut, drainMs: config.shutdownDrainMs }, 'requests still running at the drain deadline were cut');
    await service.stop(); // every job, the decision log flushed, then the driver
    await neo4j.stop();
    log.info('stopped');
    process.exit(cut ? 1 : 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`graph-authz failed to start: ${(err as Error).message}\n`);
  // A changed migration file is a configuration fault, like a bad setting (exit 2), not a crash.
  process.exit(err instanceof MigrationChecksumError ? err.exitCode : 1);
});
