#!/usr/bin/env node
// Run a real Neo4j Community 5.26 (embedded DBMS with Bolt, see neo4j/Launcher.java) as a local
// process, without Docker. Needs `java` (17+) and `mvn` on PATH; Maven resolves the jars into ~/.m2.
//
// Library use:
//   import { startLocalNeo4j, stopLocalNeo4j } from './scripts/neo4j-local.mjs';
//   const { uri, reused, stop } = await startLocalNeo4j({ port: 7687 });
//   ...; await stop();
//
// CLI:
//   node scripts/neo4j-local.mjs [start|stop|status] [--port N] [--data-dir DIR] [--detach]
//   start (default) runs in the foreground until SIGINT/SIGTERM; with --detach it starts a
//   background server and exits (stop it later with `stop`). Port also from NEO4J_LOCAL_PORT.
//
// Plain ESM JavaScript on purpose: runs with bare `node`, no build step.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const POM = path.join(REPO_ROOT, 'neo4j', 'pom.xml');
const LAUNCHER = path.join(REPO_ROOT, 'neo4j', 'Launcher.java');
const EXTENSION_DIR = path.join(REPO_ROOT, 'neo4j', 'extension');
/** The walk extension's jar (neo4j/extension, docs/walk-extension.md), built by buildExtension(). */
export const EXTENSION_JAR = path.join(EXTENSION_DIR, 'target', 'graph-authz-walk.jar');
/** What the jar is made of: its sources, its pom, and the Cypher fragments it packages. */
const EXTENSION_SOURCES = [
  path.join(EXTENSION_DIR, 'pom.xml'),
  path.join(EXTENSION_DIR, 'src'),
  path.join(REPO_ROOT, 'cypher', 'fragments'),
];
const STATE_DIR = path.join(REPO_ROOT, '.neo4j');
const HOST = '127.0.0.1';
const READY_MARKER = 'NEO4J_READY';
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

// Same opens as Neo4j's own neo4j.conf; without them the page cache runs in a slower fallback
// mode and transaction-log fadvise calls fail (warnings in debug.log).
export const DEFAULT_JVM_ARGS = [
  '-Xms256m',
  '-Xmx768m',
  '-XX:+ExitOnOutOfMemoryError',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '-Dio.netty.tryReflectionSetAccessible=true',
  // JDK 17's code-cache sweeper flushed most of Neo4j's C2-compiled methods while uncached checks
  // ran (9,800 to 1,550 in 40 s, after 150 s of warm-up), to be compiled again; the compiler
  // threads took as much CPU as the Bolt workers (docs/benchmarks.md, "Where an uncached check's
  // Neo4j CPU goes"). The same flag as neo4j/Dockerfile's and testcontainers'.
  '-XX:-UseCodeCacheFlushing',
];

const defaultPort = () => {
  const p = Number.parseInt(process.env.NEO4J_LOCAL_PORT ?? '', 10);
  return Number.isInteger(p) && p > 0 ? p : 7687;
};
const defaultDataDir = () => path.join(STATE_DIR, 'data');
export const pidFileFor = (port) => path.join(STATE_DIR, `neo4j-${port}.pid`);
const outFileFor = (port) => path.join(STATE_DIR, `neo4j-${port}.out`);
const boltUri = (port) => `bolt://${HOST}:${port}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The Neo4j version pinned in neo4j/pom.xml. */
export function neo4jVersion() {
  const m = /<neo4j\.version>\s*([^<\s]+)\s*<\/neo4j\.version>/.exec(fs.readFileSync(POM, 'utf8'));
  if (!m) throw new Error(`cannot find <neo4j.version> in ${POM}`);
  return m[1];
}

/** True if something accepts TCP connections on host:port. */
export function isPortOpen(port, host = HOST, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (ok) => {
      sock.removeAllListeners();
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Best effort: does pid look like our launcher? (Linux: /proc; elsewhere assume yes.) */
function looksLikeLauncher(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('Launcher.java');
  } catch {
    return !fs.existsSync('/proc/self'); // no procfs -> cannot tell, trust the pid file
  }
}

function readPid(port) {
  try {
    const pid = Number.parseInt(fs.readFileSync(pidFileFor(port), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function removePidFile(port, pid) {
  // Only remove it if it still names the process we are stopping.
  if (pid === undefined || readPid(port) === pid) fs.rmSync(pidFileFor(port), { force: true });
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(cmd, args, {
        ...opts,
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: process.platform === 'win32',
      });
    } catch (e) {
      reject(e);
      return;
    }
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, out }));
  });
}

/**
 * Resolve the Neo4j runtime classpath with Maven, cached in .neo4j/classpath-<version>.txt.
 * The cache is keyed by a hash of neo4j/pom.xml (stored next to it), so editing the pom re-resolves;
 * it is also re-resolved if a cached jar vanished from ~/.m2.
 */
export async function resolveClasspath({ log = console.error } = {}) {
  const version = neo4jVersion();
  const pomHash = createHash('sha256').update(fs.readFileSync(POM)).digest('hex');
  const cpFile = path.join(STATE_DIR, `classpath-${version}.txt`);
  const hashFile = `${cpFile}.pomhash`;
  try {
    const [cp, hash] = await Promise.all([fsp.readFile(cpFile, 'utf8'), fsp.readFile(hashFile, 'utf8')]);
    const entries = cp.trim().split(path.delimiter).filter(Boolean);
    if (hash.trim() === pomHash && entries.length > 0 && entries.every((p) => fs.existsSync(p))) {
      return cp.trim();
    }
  } catch {
    // no cache yet
  }

  await fsp.mkdir(STATE_DIR, { recursive: true });
  const tmp = `${cpFile}.${process.pid}.tmp`;
  log(`[neo4j-local] resolving Neo4j ${version} classpath with Maven (the first run downloads ~150 MB into ~/.m2)...`);
  const t0 = Date.now();
  const mvn = process.env.NEO4J_LOCAL_MVN || (process.platform === 'win32' ? 'mvn.cmd' : 'mvn');
  let res;
  try {
    res = await run(mvn, ['-q', '-B', '-Dstyle.color=never', '-f', POM, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`], {
      cwd: REPO_ROOT,
    });
  } catch (e) {
    throw new Error(`[neo4j-local] cannot run Maven ('${mvn}'): ${e.message}. Is Maven installed and on PATH?`);
  }
  if (res.code !== 0 || !fs.existsSync(tmp)) {
    fs.rmSync(tmp, { force: true });
    throw new Error(
      `[neo4j-local] Maven failed to resolve the Neo4j classpath (exit ${res.code ?? res.signal}):\n` +
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour escapes (ESC [ ... m) from Maven's output
        res.out.replace(/\x1b\[[0-9;]*m/g, '').trim(),
    );
  }
  const cp = fs.readFileSync(tmp, 'utf8').trim();
  await fsp.rename(tmp, cpFile);
  await fsp.writeFile(hashFile, `${pomHash}\n`);
  log(`[neo4j-local] classpath resolved in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return cp;
}

/** The newest modification time (ms) of a file or of any file under a directory. */
function newestMtime(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/**
 * Build the walk extension's jar with Maven (`mvn package` of neo4j/extension/pom.xml) when it is
 * missing or older than any of its sources (neo4j/extension/src, its pom, cypher/fragments);
 * otherwise nothing runs. Returns the jar's path.
 */
export async function buildExtension({ log = console.error } = {}) {
  let jarTime = 0;
  try {
    jarTime = fs.statSync(EXTENSION_JAR).mtimeMs;
  } catch {
    // not built yet
  }
  if (jarTime > 0 && EXTENSION_SOURCES.every((p) => newestMtime(p) <= jarTime)) return EXTENSION_JAR;
  log(`[neo4j-local] building the walk extension (mvn package, neo4j/extension)...`);
  const t0 = Date.now();
  const mvn = process.env.NEO4J_LOCAL_MVN || (process.platform === 'win32' ? 'mvn.cmd' : 'mvn');
  let res;
  try {
    res = await run(mvn, ['-q', '-B', '-Dstyle.color=never', '-f', path.join(EXTENSION_DIR, 'pom.xml'), 'package'], { cwd: REPO_ROOT });
  } catch (e) {
    throw new Error(`[neo4j-local] cannot run Maven ('${mvn}'): ${e.message}. Is Maven installed and on PATH?`);
  }
  if (res.code !== 0 || !fs.existsSync(EXTENSION_JAR)) {
    throw new Error(
      `[neo4j-local] Maven failed to build the walk extension (exit ${res.code ?? res.signal}):\n` +
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour escapes (ESC [ ... m) from Maven's output
        res.out.replace(/\x1b\[[0-9;]*m/g, '').trim(),
    );
  }
  // Maven keeps the jar's time when nothing changed in its classes: mark it as new.
  const now = new Date();
  fs.utimesSync(EXTENSION_JAR, now, now);
  log(`[neo4j-local] walk extension built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return EXTENSION_JAR;
}

/**
 * The launcher's plugin directory (<dataDir>/plugins, as /plugins in the official image): the
 * extension's jar copied in, or (withExtension false: a Neo4j without it, like Neo4j Aura) removed.
 */
async function preparePlugins(absData, withExtension, log) {
  const plugins = path.join(absData, 'plugins');
  await fsp.mkdir(plugins, { recursive: true });
  const target = path.join(plugins, path.basename(EXTENSION_JAR));
  if (!withExtension) {
    await fsp.rm(target, { force: true });
    return;
  }
  const jar = await buildExtension({ log });
  const tmp = `${target}.${process.pid}.tmp`;
  await fsp.copyFile(jar, tmp);
  await fsp.rename(tmp, target);
}

/** Wait for a process to exit; SIGTERM first, SIGKILL after timeoutMs. */
async function terminate(pid, child, timeoutMs = STOP_TIMEOUT_MS) {
  const exited = child
    ? new Promise((r) => {
        if (child.exitCode !== null || child.signalCode !== null) r();
        else child.once('exit', () => r());
      })
    : null;
  const waitExit = async (ms) => {
    const deadline = Date.now() + ms;
    if (exited) {
      let timer;
      const timeout = new Promise((r) => (timer = setTimeout(() => r(false), ms)));
      return Promise.race([exited.then(() => true), timeout]).finally(() => clearTimeout(timer));
    }
    while (Date.now() < deadline) {
      if (!isAlive(pid)) return true;
      await sleep(100);
    }
    return !isAlive(pid);
  };

  if (child ? child.exitCode !== null || child.signalCode !== null : !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch (e) {
    if (e.code === 'ESRCH') return;
    throw e;
  }
  if (await waitExit(timeoutMs)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch (e) {
    if (e.code !== 'ESRCH') throw e;
  }
  await waitExit(5000);
}

/**
 * Start (or reuse) a local Neo4j with Bolt on 127.0.0.1:port, auth disabled.
 *
 * @param {object} [opts]
 * @param {number} [opts.port] Bolt port (default NEO4J_LOCAL_PORT or 7687)
 * @param {string} [opts.dataDir] Neo4j home (store in <dataDir>/data, logs in <dataDir>/logs);
 *   default <repo>/.neo4j/data
 * @param {(msg: string) => void} [opts.log] progress/output logger (default console.error)
 * @param {boolean} [opts.detached] true: background server that outlives this process (output in
 *   .neo4j/neo4j-<port>.out); false (default): child of this process, exits when this process dies
 * @param {string[]} [opts.jvmArgs] replaces the default JVM flags (-Xms256m -Xmx768m, --add-opens...)
 * @param {number} [opts.timeoutMs] startup timeout (default 180 s)
 * @param {boolean} [opts.extension] load the walk extension from <dataDir>/plugins (default true,
 *   unless NEO4J_LOCAL_EXTENSION=0): the jar is built first when its sources are newer
 * @returns {Promise<{ uri: string, reused: boolean, stop: () => Promise<void>,
 *   exited?: Promise<{ code: number | null, signal: string | null }> }>}
 */
export async function startLocalNeo4j({
  port = defaultPort(),
  dataDir = defaultDataDir(),
  log = console.error,
  detached = false,
  jvmArgs = DEFAULT_JVM_ARGS,
  timeoutMs = START_TIMEOUT_MS,
  extension = process.env.NEO4J_LOCAL_EXTENSION !== '0',
} = {}) {
  const uri = boltUri(port);
  const reuse = () => ({ uri, reused: true, stop: async () => {} });

  if (await isPortOpen(port)) {
    log(`[neo4j-local] reusing Neo4j already listening on ${uri}`);
    return reuse();
  }
  // A launcher of ours may still be starting (e.g. parallel test workers): wait for it.
  const existing = readPid(port);
  if (existing !== undefined) {
    if (isAlive(existing) && looksLikeLauncher(existing)) {
      log(`[neo4j-local] launcher pid ${existing} is starting on port ${port}, waiting for it...`);
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && isAlive(existing)) {
        if (await isPortOpen(port)) return reuse();
        await sleep(250);
      }
      if (await isPortOpen(port)) return reuse();
    }
    removePidFile(port, existing); // stale
  }

  const cp = await resolveClasspath({ log });
  await fsp.mkdir(STATE_DIR, { recursive: true });
  const absData = path.resolve(dataDir);
  await fsp.mkdir(absData, { recursive: true });
  await preparePlugins(absData, extension, log);

  const javaBin = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const args = [...jvmArgs, '-cp', cp, LAUNCHER, String(port), absData];
  const t0 = Date.now();
  log(`[neo4j-local] starting Neo4j ${neo4jVersion()} on ${uri} (data: ${path.relative(REPO_ROOT, absData) || '.'})`);

  // Output: piped through `log` when attached; to .neo4j/neo4j-<port>.out when detached.
  const outFile = outFileFor(port);
  let outFd;
  let child;
  try {
    if (detached) outFd = fs.openSync(outFile, 'w');
    child = spawn(javaBin, args, {
      cwd: REPO_ROOT,
      detached,
      env: { ...process.env, NEO4J_LAUNCHER_EXIT_ON_STDIN_EOF: detached ? '0' : '1' },
      stdio: detached ? ['ignore', outFd, outFd] : ['pipe', 'pipe', 'pipe'],
    });
  } finally {
    if (outFd !== undefined) fs.closeSync(outFd);
  }

  const tail = [];
  let ready = false;
  let exitInfo = null;
  let spawnError = null;
  const onLine = (line) => {
    if (!line) return;
    tail.push(line);
    if (tail.length > 40) tail.shift();
    if (line.includes(READY_MARKER)) ready = true;
    if (!detached) log(`[neo4j] ${line}`);
  };
  child.once('error', (e) => (spawnError = e));
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  if (!detached) {
    // stdin stays open; the launcher exits when it reaches EOF (i.e. when we die).
    child.stdin.on('error', () => {});
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (d) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, i).trimEnd());
          buf = buf.slice(i + 1);
        }
      });
      stream.on('end', () => onLine(buf.trimEnd()));
    }
  }
  const readDetachedOutput = () => {
    try {
      tail.length = 0;
      for (const l of fs.readFileSync(outFile, 'utf8').split('\n')) onLine(l.trimEnd());
    } catch {
      // not written yet
    }
  };

  if (child.pid !== undefined) fs.writeFileSync(pidFileFor(port), `${child.pid}\n`);
  const stop = async () => {
    if (child.pid === undefined) return;
    await terminate(child.pid, child);
    removePidFile(port, child.pid);
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await sleep(200);
    if (detached) readDetachedOutput();
    if (spawnError) {
      removePidFile(port, child.pid);
      throw new Error(`[neo4j-local] cannot start '${javaBin}': ${spawnError.message}. Is Java 17+ installed?`);
    }
    if (exitInfo) {
      removePidFile(port, child.pid);
      if (detached) readDetachedOutput();
      // Lost a race with another starter that now serves the port? Then use that one.
      if (await isPortOpen(port)) {
        log(`[neo4j-local] another Neo4j took port ${port} first; reusing it`);
        return reuse();
      }
      throw new Error(
        `[neo4j-local] Neo4j launcher exited before becoming ready (exit ${exitInfo.code ?? exitInfo.signal}). ` +
          `Last output:\n${tail.join('\n')}` +
          `\n(Neo4j logs: ${path.join(absData, 'logs', 'debug.log')})`,
      );
    }
    if (ready && (await isPortOpen(port))) break;
    if (Date.now() > deadline) {
      await stop().catch(() => {});
      throw new Error(
        `[neo4j-local] Neo4j did not become ready on ${uri} within ${Math.round(timeoutMs / 1000)} s. ` +
          `Last output:\n${tail.join('\n')}`,
      );
    }
  }

  if (detached) {
    child.unref();
  }
  log(`[neo4j-local] Neo4j ready on ${uri} in ${((Date.now() - t0) / 1000).toFixed(1)} s (pid ${child.pid})`);
  // `exited` (not part of the reused result) resolves when the launcher process ends.
  return { uri, reused: false, stop, exited };
}

/** Stop the launcher recorded in .neo4j/neo4j-<port>.pid (SIGTERM, SIGKILL after 30 s). */
export async function stopLocalNeo4j({ port = defaultPort(), log = console.error } = {}) {
  const pid = readPid(port);
  if (pid === undefined) {
    log(`[neo4j-local] no pid file for port ${port}; nothing to stop`);
    return false;
  }
  if (!isAlive(pid) || !looksLikeLauncher(pid)) {
    log(`[neo4j-local] pid ${pid} (port ${port}) is not running; removing stale pid file`);
    removePidFile(port, pid);
    return false;
  }
  log(`[neo4j-local] stopping Neo4j pid ${pid} (port ${port})...`);
  await terminate(pid, undefined);
  removePidFile(port, pid);
  log('[neo4j-local] stopped');
  return true;
}

// ---------------------------------------------------------------- CLI

async function main(argv) {
  let cmd = 'start';
  let port = defaultPort();
  let dataDir;
  let detach = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port' || a === '-p') port = Number.parseInt(argv[++i], 10);
    else if (a.startsWith('--port=')) port = Number.parseInt(a.slice(7), 10);
    else if (a === '--data-dir') dataDir = argv[++i];
    else if (a.startsWith('--data-dir=')) dataDir = a.slice(11);
    else if (a === '--detach' || a === '-d') detach = true;
    else if (['start', 'stop', 'status'].includes(a)) cmd = a;
    else {
      console.error(`usage: node scripts/neo4j-local.mjs [start|stop|status] [--port N] [--data-dir DIR] [--detach]`);
      return 2;
    }
  }
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error('[neo4j-local] invalid --port');
    return 2;
  }

  if (cmd === 'stop') {
    await stopLocalNeo4j({ port });
    return 0;
  }
  if (cmd === 'status') {
    const open = await isPortOpen(port);
    const pid = readPid(port);
    console.log(`${boltUri(port)} ${open ? 'UP' : 'DOWN'}${pid ? ` (pid file: ${pid})` : ''}`);
    return open ? 0 : 1;
  }

  const server = await startLocalNeo4j({ port, dataDir, detached: detach });
  console.log(server.uri);
  if (server.reused || detach) {
    if (server.reused) console.error('[neo4j-local] already running; not starting another one');
    else console.error(`[neo4j-local] running in background; stop with: node scripts/neo4j-local.mjs stop --port ${port}`);
    return 0;
  }
  await new Promise((resolve) => {
    let stopping = false;
    const onSignal = (sig) => {
      if (stopping) return;
      stopping = true;
      console.error(`[neo4j-local] ${sig}: stopping Neo4j...`);
      server.stop().then(resolve, (e) => {
        console.error(e);
        resolve();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    server.exited.then(({ code, signal }) => {
      if (stopping) return; // server.stop() resolves once it has cleaned up
      stopping = true;
      console.error(`[neo4j-local] Neo4j exited unexpectedly (${code ?? signal})`);
      process.exitCode = 1;
      server.stop().finally(resolve); // removes the pid file
    });
  });
  console.error('[neo4j-local] stopped');
  return process.exitCode ?? 0;
}

const invokedDirectly = (() => {
  try {
    return !!process.argv[1] && pathToFileURL(fs.realpathSync(process.argv[1])).href === import.meta.url;
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err?.message ?? err);
      process.exit(1);
    },
  );
}
