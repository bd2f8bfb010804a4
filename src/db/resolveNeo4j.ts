import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

/** The Neo4j version used everywhere: Docker image, testcontainers and the local launcher. */
export const NEO4J_IMAGE = 'neo4j:5.26-community';
const CONTAINER_PASSWORD = 'authz-test-password';

export interface ResolvedNeo4j {
  uri: string;
  user: string;
  password: string;
  source: 'NEO4J_URI' | 'testcontainers' | 'local launcher';
  /** Stops what this process started; a no-op for a database it only connected to. */
  stop: () => Promise<void>;
}

export interface ResolveOptions {
  uri?: string;
  user: string;
  password: string;
  localPort: number;
  dataDir: string;
  repoRoot: string;
  log: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Resolution order (docs/operations.md, "Neo4j"): NEO4J_URI when set; else a Docker engine through
 * testcontainers when one answers; else the local launcher (real Neo4j from Maven Central).
 */
export async function resolveNeo4j(opts: ResolveOptions): Promise<ResolvedNeo4j> {
  if (opts.uri) {
    return { uri: opts.uri, user: opts.user, password: opts.password, source: 'NEO4J_URI', stop: async () => undefined };
  }
  if (dockerMayAnswer()) {
    try {
      return await startContainer(opts);
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'no usable Docker engine; using the local Neo4j launcher');
    }
  }
  return startLauncher(opts);
}

function dockerMayAnswer(): boolean {
  if (process.env.DOCKER_HOST) return true;
  return ['/var/run/docker.sock', join(process.env.HOME ?? '', '.docker/run/docker.sock')].some((p) => existsSync(p));
}

/** The walk extension's procedures, as neo4j/Dockerfile allows them (nothing unrestricted). */
export const PROCEDURE_ALLOWLIST = 'graphauthz.*';
/** Neo4j's JVM flag that neo4j/Dockerfile and the local launcher (scripts/neo4j-local.mjs) add too. */
export const JVM_ADDITIONAL = '-XX:-UseCodeCacheFlushing';

async function startContainer(opts: ResolveOptions): Promise<ResolvedNeo4j> {
  // testcontainers is a development dependency; production images always set NEO4J_URI.
  const { GenericContainer, Wait } = await import('testcontainers');
  // The walk extension loads as neo4j/Dockerfile loads it: the jar in /plugins, the allowlist set
  // (NEO4J_LOCAL_EXTENSION=0: a Neo4j without it, as Neo4j Aura). Without Maven to build it, the
  // container runs without it and the service answers with the Cypher walk (docs/walk-extension.md).
  let jar: string | null = null;
  if (process.env.NEO4J_LOCAL_EXTENSION !== '0') {
    try {
      jar = await (await launcherModule(opts)).buildExtension({ log: (msg) => opts.log.info(msg) });
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'the walk extension could not be built; Neo4j starts without it');
    }
  }
  const container = await new GenericContainer(NEO4J_IMAGE)
    .withEnvironment({
      NEO4J_AUTH: `neo4j/${CONTAINER_PASSWORD}`,
      NEO4J_dbms_security_procedures_allowlist: PROCEDURE_ALLOWLIST,
      // As neo4j/Dockerfile: appended to Neo4j's JVM flags, no code-cache flushing.
      NEO4J_server_jvm_additional: JVM_ADDITIONAL,
    })
    .withCopyFilesToContainer(jar ? [{ source: jar, target: '/plugins/graph-authz-walk.jar' }] : [])
    .withExposedPorts(7687)
    .withWaitStrategy(Wait.forLogMessage(/Started\./))
    .withStartupTimeout(180_000)
    .start();
  const uri = `bolt://${container.getHost()}:${container.getMappedPort(7687)}`;
  opts.log.info({ uri }, 'Neo4j started by testcontainers');
  return { uri, user: 'neo4j', password: CONTAINER_PASSWORD, source: 'testcontainers', stop: async () => void (await container.stop()) };
}

interface LauncherModule {
  startLocalNeo4j(o: {
    port: number;
    dataDir: string;
    log?: (msg: string) => void;
  }): Promise<{ uri: string; reused: boolean; stop: () => Promise<void> }>;
  buildExtension(o: { log?: (msg: string) => void }): Promise<string>;
}

// TypeScript compiles import() to require() under CommonJS; the launcher is an ES module.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

async function launcherModule(opts: ResolveOptions): Promise<LauncherModule> {
  return (await importEsm(`file://${join(opts.repoRoot, 'scripts', 'neo4j-local.mjs')}`)) as LauncherModule;
}

async function startLauncher(opts: ResolveOptions): Promise<ResolvedNeo4j> {
  const mod = await launcherModule(opts);
  const started = await mod.startLocalNeo4j({
    port: opts.localPort,
    dataDir: opts.dataDir,
    log: (msg) => opts.log.info(msg),
  });
  opts.log.info({ uri: started.uri, reused: started.reused }, 'Neo4j from the local launcher');
  return { uri: started.uri, user: opts.user, password: opts.password, source: 'local launcher', stop: started.stop };
}
