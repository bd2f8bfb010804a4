// Benchmark: the cost of the decision log. Two processes of the compiled service on one Neo4j,
// identical but for DECISION_LOG_SAMPLE (0 and 1.0), answer the same permission checks over HTTP;
// rounds alternate between them (A B A B ...) so that drift of a shared machine hits both alike.
// Prints checks/s of each, and their ratio (median over rounds). Asserts nothing.
//   npm run build && NEO4J_URI=bolt://127.0.0.1:7687 node bench/decisionLog.mjs
//   (without NEO4J_URI a local Neo4j is started on BENCH_NEO4J_PORT, data in .neo4j/bench-dlog)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { client, measure } from './http.mjs';
import { cpuSeconds } from './proc.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Rounds of 50,000 checks (about 5 s each here), as long as the log's flush interval
// (DECISION_LOG_FLUSH_MS, default 5 s, passed to both services): each round of the logging
// service sees about one of its writes land in it. A much shorter round would see none in most
// rounds, and its ratio would flatter the log.
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
const perRound = Number(process.env.BENCH_REQUESTS ?? 50000);
const flushMs = Number(process.env.DECISION_LOG_FLUSH_MS ?? 5000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const basePort = Number(process.env.BENCH_PORT ?? 18095);
const users = 200;

function startService(neo4jUri, port, adminKey, sample) {
  const proc = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      NEO4J_URI: neo4jUri,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_PROJECT: 'bench',
      BOOTSTRAP_ENV: 'dlog',
      DECISION_LOG_SAMPLE: String(sample),
      DECISION_LOG_FLUSH_MS: String(flushMs),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise((ok, fail) => {
    proc.stdout.on('data', (c) => String(c).includes('is ready at') && ok());
    proc.on('exit', (code) => fail(new Error(`service exited (${code})`)));
  });
  return { proc, ready };
}

async function main() {
  let neo4j;
  let uri = process.env.NEO4J_URI;
  if (!uri) {
    const dataDir = join(root, '.neo4j', 'bench-dlog');
    rmSync(dataDir, { recursive: true, force: true });
    neo4j = await startLocalNeo4j({ port: Number(process.env.BENCH_NEO4J_PORT ?? 7745), dataDir, log: () => undefined });
    uri = neo4j.uri;
  }
  const neoPort = Number(new URL(uri.replace(/^bolt/, 'http')).port);
  const neoPid = Number(readFileSync(pidFileFor(neoPort), 'utf8').trim());
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  const off = startService(uri, basePort, adminKey, 0);
  await off.ready; // one at a time: both bootstrap the same project
  const on = startService(uri, basePort + 1, adminKey, 1);
  await on.ready;
  try {
    const api = (port) => client(`http://127.0.0.1:${port}`, adminKey, concurrency);
    const [apiOff, apiOn] = [api(basePort), api(basePort + 1)];
    const proj = `dlog${randomBytes(3).toString('hex')}`;
    await apiOff('POST', '/v2/projects', { key: proj, name: proj });
    await apiOff('POST', `/v2/projects/${proj}/envs`, { key: 'e', name: 'e' });
    const schema = `/v2/schema/${proj}/e`;
    const facts = `/v2/facts/${proj}/e`;
    await apiOff('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
    await apiOff('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
    for (let i = 0; i < users; i++) {
      await apiOff('POST', `${facts}/users`, { key: `u${i}` });
      if (i % 2 === 0) await apiOff('POST', `${facts}/role_assignments`, { user: `u${i}`, role: 'reader', tenant: 'default' });
    }
    // The default consistency: mostly answers from the decision cache, the cheapest check, so the
    // log's share of the work is the largest it can be.
    const questions = Array.from({ length: perRound }, (_, i) => ({
      user: `u${i % users}`,
      action: i % 3 ? 'read' : 'write',
      resource: { type: 'doc', tenant: 'default' },
    }));
    const path = `/v2/allowed/${proj}/e`;
    // Throughput on a shared machine drifts with the neighbours' load; CPU time per check (of the
    // service and of Neo4j, the log's batches included) does much less, so both are reported.
    // Both arms wait the same settle time after their checks, a flush interval and a half second:
    // the log's last write of the round lands in it (counted in the CPU per check, never in the
    // other arm's round), and both CPU figures cover the same idle work (timers, revision polls).
    const settleMs = flushMs + 500;
    const run = async (call, pid) => {
      const [svc0, neo0] = [cpuSeconds(pid), cpuSeconds(neoPid)];
      const r = await measure(questions, concurrency, (q) => call('POST', path, q));
      await new Promise((ok) => setTimeout(ok, settleMs));
      const perCheck = (s) => (s * 1000) / questions.length;
      const [svc, neo] = [perCheck(cpuSeconds(pid) - svc0), perCheck(cpuSeconds(neoPid) - neo0)];
      return { ...r, cpuMsPerCheck: svc + neo, svcMs: svc, neoMs: neo };
    };
    await run(apiOff, off.proc.pid);
    await run(apiOn, on.proc.pid); // warm-up (JIT, plans, caches)
    const ratios = [];
    const cpuRatios = [];
    const p50Ratios = [];
    const pooled = { off: { n: 0, s: 0 }, on: { n: 0, s: 0 } };
    const rows = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate the order, so that neither always runs first.
      const first = r % 2 === 0;
      const a = first ? await run(apiOff, off.proc.pid) : null;
      const b = await run(apiOn, on.proc.pid);
      const a2 = a ?? (await run(apiOff, off.proc.pid));
      ratios.push(b.perSecond / a2.perSecond);
      p50Ratios.push(b.p50 / a2.p50);
      pooled.off.n += a2.count;
      pooled.off.s += a2.seconds;
      pooled.on.n += b.count;
      pooled.on.s += b.seconds;
      cpuRatios.push(b.cpuMsPerCheck / a2.cpuMsPerCheck);
      rows.push(
        `round ${r + 1}: sample 0: ${a2.perSecond.toFixed(0)} checks/s, ${a2.cpuMsPerCheck.toFixed(3)} CPU ms/check (service ${a2.svcMs.toFixed(3)} + Neo4j ${a2.neoMs.toFixed(3)}) p50 ${a2.p50.toFixed(2)} ms | sample 1.0: ${b.perSecond.toFixed(0)} checks/s, p50 ${b.p50.toFixed(2)} ms, ${b.cpuMsPerCheck.toFixed(3)} CPU ms/check (service ${b.svcMs.toFixed(3)} + Neo4j ${b.neoMs.toFixed(3)}) | ratio checks/s ${(b.perSecond / a2.perSecond).toFixed(3)}, CPU/check ${(b.cpuMsPerCheck / a2.cpuMsPerCheck).toFixed(3)}`,
      );
    }
    const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    console.log(
      `CPU per check, sample 1.0 / off: median ratio ${med(cpuRatios).toFixed(3)} (min ${Math.min(...cpuRatios).toFixed(3)}, max ${Math.max(...cpuRatios).toFixed(3)})`,
    );
    const sorted = [...ratios].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    const logged = await apiOn('GET', `/v2/pdps/${proj}/e/audit_logs?per_page=1`);
    console.log(
      `machine: ${cpus().length} cores; node ${process.version}; ${rounds} rounds x ${perRound} checks, concurrency ${concurrency}`,
    );
    for (const row of rows) console.log(row);
    console.log(
      `decision log at sample 1.0 / off: median ratio of checks/s ${median.toFixed(3)} (min ${sorted[0].toFixed(3)}, max ${sorted.at(-1).toFixed(3)}); entries logged: ${logged.total_count} of ${(rounds + 1) * perRound} checks (fewer: the queue dropped some)`,
    );
    const pooledRatio = pooled.on.n / pooled.on.s / (pooled.off.n / pooled.off.s);
    console.log(
      `pooled over all rounds: sample 1.0 / off checks/s ${pooledRatio.toFixed(3)} (${(pooled.on.n / pooled.on.s).toFixed(0)} / ${(pooled.off.n / pooled.off.s).toFixed(0)}); median ratio of p50 latency ${med(p50Ratios).toFixed(3)}`,
    );
  } finally {
    off.proc.kill('SIGTERM');
    on.proc.kill('SIGTERM');
    await neo4j?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
