// Export and import of an environment through the `graph-authz` command (docs/behaviour.md section 16),
// shared by `npm run bench:export-import` (bench/exportImport.mjs) and `npm run bench:peers`
// (whose table sets our import beside each peer's load in the same run).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildQuestions } from './dataset.mjs';
import { client } from './http.mjs';
import { root } from './ours.mjs';
import { memOf } from './proc.mjs';

/** The peak RSS (MB) of each process while `work` runs, polled every 50 ms. */
async function peakRss(pids, work) {
  const peak = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const poll = () => {
    for (const [k, pid] of Object.entries(pids)) {
      const p = typeof pid === 'function' ? pid() : pid;
      if (!p) continue;
      try {
        peak[k] = Math.max(peak[k], memOf(p).rssMb, k === 'command' ? memOf(p).peakMb : 0);
      } catch {
        /* exited */
      }
    }
  };
  const timer = setInterval(poll, 50);
  try {
    poll();
    const result = await work();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** Runs the command; answers its exit code, output and wall seconds, and exposes its pid while it runs. */
function command(args, env, holder, cli = join(root, 'bin', 'graph-authz.js')) {
  return new Promise((ok) => {
    const started = Date.now();
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    holder.pid = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      if (process.env.BENCH_VERBOSE) process.stderr.write(c);
    });
    child.on('exit', (code) => ok({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

/**
 * Exports environment `bench` of our running service (`ours`, from startOurs) into a file with
 * `graph-authz export`, imports it with `graph-authz import` into a new, empty environment
 * `target`, and asks both the same sample of questions. Answers each phase's wall seconds and the
 * peak RSS of the service and the command, the file's size and the counts, and how many answers differ.
 */
export async function exportAndImport(ours, ds, { target = 'restored', cli, onImport = { before() {}, after() {} } } = {}) {
  mkdirSync(join(root, '.cache'), { recursive: true });
  const file = join(root, '.cache', `bench-export-${process.pid}.ndjson`);
  try {
    const env = { AUTHZ_URL: ours.base, AUTHZ_KEY: ours.adminKey };
    const admin = client(ours.base, ours.adminKey, 4);
    const exportCmd = {};
    const exp = await peakRss({ service: ours.pid, command: () => exportCmd.pid }, () =>
      command(['export', '--project', ours.project, '--env', 'bench', '-o', file], env, exportCmd, cli),
    );
    if (exp.result.code !== 0) throw new Error(`export failed: ${exp.result.stderr}`);
    const bytes = statSync(file).size;

    await admin('POST', `/v2/projects/${ours.project}/envs`, { key: target, name: target });
    const importCmd = {};
    onImport.before();
    const imp = await peakRss({ service: ours.pid, command: () => importCmd.pid }, () =>
      command(['import', '--project', ours.project, '--env', target, '--json', file], env, importCmd, cli),
    );
    onImport.after();
    if (imp.result.code !== 0) throw new Error(`import failed: ${imp.result.stderr}`);
    const summary = JSON.parse(imp.result.stdout);

    // The same questions get the same answers in the restored environment.
    const questions = Object.values(buildQuestions(ds, 100)).flat();
    let wrong = 0;
    for (let i = 0; i < questions.length; i += 100) {
      const batch = questions.slice(i, i + 100).map((q) => ({ user: q.user, action: q.action, resource: q.resource }));
      const [a, b] = await Promise.all(
        ['bench', target].map((e) =>
          admin('POST', `/v2/allowed/${ours.project}/${e}/bulk`, batch).then((r) => r.allow.map((x) => x.allow)),
        ),
      );
      wrong += a.filter((x, j) => x !== b[j]).length;
    }
    return {
      bytes,
      nodes: summary.nodes,
      relationships: summary.relationships,
      export: { seconds: exp.result.seconds, peak: exp.peak },
      import: { seconds: imp.result.seconds, serviceSeconds: summary.seconds, peak: imp.peak },
      questions: questions.length,
      wrong,
    };
  } finally {
    rmSync(file, { force: true });
  }
}
