// Processes for the benchmarks: memory of a process (and of its children), pinned Go builds of
// the peers, and starting a server that is ready when a port answers.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/** RSS and peak RSS of a process, in MB. */
export function memOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: kb('VmRSS'), peakMb: kb('VmHWM') };
}

/** CPU seconds (user + system) a process has used so far: a figure other load on the box does not inflate much. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * CPU seconds of each kind of thread of a process so far (/proc/<pid>/task: thread names with their
 * digits dropped, "neo4j.BoltWorker-12" as "neo4j.BoltWorker-#"): which threads a process's CPU
 * went to (a JVM's GC and JIT compiler threads are native and absent from JFR's execution samples).
 */
export function threadCpuSeconds(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+/g, '#');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

/** The CPU seconds each kind of thread spent between two `threadCpuSeconds` snapshots. */
export function threadCpuDelta(before, after) {
  return new Map([...after].map(([name, s]) => [name, s - (before.get(name) ?? 0)]));
}

/** A JVM's thread kinds, by name: its JIT compilers, Bolt (Neo4j's workers and network), its GC, the rest. */
const JVM_THREAD_KINDS = [
  ['JIT compilers', /Compiler/],
  ['Bolt (workers, network)', /Bolt/],
  ['GC', /^(GC|G1)/],
  ['other', /./],
];

/** The CPU seconds of a JVM between two `threadCpuSeconds` snapshots, by kind of thread (JVM_THREAD_KINDS). */
export function jvmCpuByKind(before, after) {
  const spent = new Map(JVM_THREAD_KINDS.map(([k]) => [k, 0]));
  for (const [name, s] of threadCpuDelta(before, after)) {
    const [kind] = JVM_THREAD_KINDS.find(([, re]) => re.test(name));
    spent.set(kind, spent.get(kind) + s);
  }
  return spent;
}

/** RSS of a process and all its descendants, in MB (a PostgreSQL cluster is a postmaster and its backends). */
export function treeRssMb(pid) {
  const parent = new Map();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(Number(p), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const inTree = (p) => {
    for (let q = p; q > 1; q = parent.get(q) ?? 0) if (q === pid) return true;
    return false;
  };
  let mb = 0;
  for (const p of parent.keys())
    if (inTree(p)) {
      try {
        mb += memOf(p).rssMb;
      } catch {
        /* gone */
      }
    }
  return mb;
}

/**
 * The binary of a Go module command at a pinned version, built once with `go install` into
 * `.cache/peers/<name>-<version>/` (the module cache stays under ~/go).
 */
export function goBinary(root, { module, command, version }, log) {
  const name = command.split('/').pop();
  const dir = join(root, '.cache', 'peers', `${name}-${version}`);
  const bin = join(dir, name);
  if (existsSync(bin)) return bin;
  log(`building ${module}@${version} with go install (minutes on 2 cores; cached afterwards in ${dir})...`);
  execFileSync('go', ['install', `${module}/${command}@${version}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, GOBIN: dir, GOFLAGS: '-buildvcs=false' },
  });
  return bin;
}

const portAnswers = (port) =>
  new Promise((ok) => {
    const s = connect({ port, host: '127.0.0.1' }, () => {
      s.destroy();
      ok(true);
    });
    s.on('error', () => ok(false));
  });

/** Spawns a server and waits until `port` accepts connections; output goes to `logFile`'s stream. */
export async function startServer(bin, args, { port, env = {}, timeoutMs = 60_000, out = 'ignore' }) {
  const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + timeoutMs;
  while (!(await portAnswers(port))) {
    if (exited !== null) throw new Error(`${bin} exited (${exited}) before listening on ${port}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`${bin} did not listen on ${port} in ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: child.pid,
    stop: () =>
      new Promise((ok) => {
        if (exited !== null) return ok();
        child.on('exit', ok);
        child.kill('SIGTERM');
      }),
  };
}

/** Runs a command to its end; throws with its output when it fails. */
export function runOnce(bin, args, env = {}) {
  return execFileSync(bin, args, { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
