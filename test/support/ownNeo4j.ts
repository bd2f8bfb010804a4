import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const LAUNCHER = resolve(ROOT, 'scripts/neo4j-local.mjs');

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

export interface OwnNeo4j {
  uri: string;
  stop(): Promise<void>;
}

/**
 * A Neo4j of the calling test's own (not the run's shared one), on `port`, its data in `dataDir`;
 * `extension: false` without the walk extension in its plugins (as a Neo4j that takes none);
 * `systemProperties` set in its JVM.
 */
export async function startOwnNeo4j(
  port: number,
  dataDir: string,
  opts: { extension?: boolean; systemProperties?: Record<string, string> } = {},
): Promise<OwnNeo4j> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (opts.extension !== undefined) env.NEO4J_LOCAL_EXTENSION = opts.extension ? '1' : '0';
  // Java system properties for Neo4j's JVM (the JVM reads JAVA_TOOL_OPTIONS itself; the launcher passes its environment on).
  const props = Object.entries(opts.systemProperties ?? {}).map(([k, v]) => `-D${k}=${v}`);
  if (props.length) env.JAVA_TOOL_OPTIONS = [process.env.JAVA_TOOL_OPTIONS, ...props].filter(Boolean).join(' ');
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--input-type=module', '-e', CHILD, `file://${LAUNCHER}`, String(port), dataDir],
    { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
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
      if (m[2] === 'true') fail(new Error(`port ${port} is already served by a Neo4j this test did not start; stop it first`));
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
export function stopLeftover(port: number): void {
  spawnSync(process.execPath, [LAUNCHER, 'stop', '--port', String(port)], { cwd: ROOT, stdio: 'ignore', timeout: 60_000 });
}
