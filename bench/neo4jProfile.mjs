// Neo4j's side of one kind of question: loads the bench dataset (bench/dataset.mjs, BENCH_SCALE), warms
// up on mixed uncached checks for PROF_WARM seconds, then asks one case for PROF_SECONDS at 16 in
// flight and prints the rate, the CPU each process spent a question (service, Neo4j), their RSS at the end and Neo4j's
// transactions a question (from /metrics). With PROF_JFR=<file>, a JFR recording of Neo4j for the
// measured part (read it with `jfr print --stack-depth 64 --events jdk.ExecutionSample <file>`).
//   npm run build && PROF_CASE='direct role' node bench/neo4jProfile.mjs
//   PROF_CACHED=1 PROF_CASE='direct role' node bench/neo4jProfile.mjs   (repeated questions, answered from the decision cache)
//   PROF_CASE=list BENCH_SCALE=1 PROF_WARM=60 node bench/neo4jProfile.mjs   (list-objects: a user's repos for pull, page_size 1000)
// A profile, not a benchmark: for before/after figures use bench:peers or npm run bench, alone on the box.
import { execFileSync } from 'node:child_process';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { measure } from './http.mjs';
import { loadOurs, startOurs } from './ours.mjs';
import { cpuSeconds, memOf, threadCpuDelta, threadCpuSeconds } from './proc.mjs';
const scale = Number(process.env.BENCH_SCALE ?? 0.1);
const caseName = process.env.PROF_CASE ?? 'direct role';
// Ports: PROF_PORT, and the test slot's Neo4j port when run through a slot (TEST_NEO4J_PORT), so two slots do not meet.
const ours = await startOurs({
  port: Number(process.env.PROF_PORT ?? 18191),
  neo4jPort: Number(process.env.TEST_NEO4J_PORT ?? 7841),
  concurrency: 16,
});
const { api, project } = ours;
const ds = buildDataset({
  users: Math.round(10000 * scale),
  chains: Math.max(10, Math.round(200 * scale)),
  repos: Math.round(20000 * scale),
});
await loadOurs(api, project, ds, { loaders: 2 });
const cases = buildQuestions(ds, 3000);
const path = `/v2/allowed/${project}/bench`;
const ask = (q) => api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' });
// PROF_CACHED=1: the measured part asks at the default consistency (the decision cache), after one pass fills it.
const cachedAsk = (q) => api('POST', path, { user: q.user, action: q.action, resource: q.resource });
const all = Object.values(cases).flat();
const w0 = Date.now();
while (Date.now() - w0 < Number(process.env.PROF_WARM ?? 10) * 1000) await measure(all, 16, ask);
const metrics = async () => (await fetch(`${ours.base}/metrics`, { headers: { authorization: `Bearer ${ours.adminKey}` } })).text();
const txCount = (t) =>
  Object.fromEntries(
    [...t.matchAll(/authz_neo4j_transaction_duration_seconds_count\{mode="(\w+)"\} (\d+)/g)].map((m) => [m[1], Number(m[2])]),
  );
// Sum and count of a histogram's series whose labels match `labels` (a regex over the label text).
const sumCount = (t, name, labels) => {
  let sum = 0;
  let count = 0;
  for (const m of t.matchAll(new RegExp(`^${name}_(sum|count)\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    if (!labels.test(m[2])) continue;
    if (m[1] === 'sum') sum += Number(m[3]);
    else count += Number(m[3]);
  }
  return { sum, count };
};
const latencies = (t) => ({
  http: sumCount(t, 'authz_http_request_duration_seconds', /allowed/),
  db: sumCount(t, 'authz_neo4j_transaction_duration_seconds', /mode="read"/),
});
const firstText = await metrics();
const before = txCount(firstText);
const lat0 = latencies(firstText);
const listing = caseName === 'list';
const qs = listing ? Array.from({ length: 200 }, (_, i) => ds.userKeys[(i * 7919) % ds.userKeys.length]) : cases[caseName];
const listAsk = (u) =>
  api('POST', `/v2/allowed/${project}/bench/list-objects`, { user: u, action: 'pull', resource_type: 'repo', page_size: 1000 });
const neo = ours.neoPid();
if (process.env.PROF_JFR)
  execFileSync('jcmd', [String(neo), 'JFR.start', 'name=p', 'settings=profile', `filename=${process.env.PROF_JFR}`]);
const c0 = [cpuSeconds(ours.pid), cpuSeconds(neo)];
const threads0 = threadCpuSeconds(neo);
const markFrom = process.hrtime.bigint() / 1000n;
let n = 0;
const t0 = Date.now();
while (Date.now() - t0 < Number(process.env.PROF_SECONDS ?? 15) * 1000) {
  await measure(qs, 16, listing ? listAsk : process.env.PROF_CACHED ? cachedAsk : ask);
  n += qs.length;
}
const secs = (Date.now() - t0) / 1000;
console.log(`--between=${markFrom}-${process.hrtime.bigint() / 1000n}`);
const c1 = [cpuSeconds(ours.pid), cpuSeconds(neo)];
const threads1 = threadCpuSeconds(neo);
// Memory at the end of the measured part, as bench:peers reads it after its lists (its "memory RSS" rows).
const rss = { service: memOf(ours.pid).rssMb, neo4j: memOf(neo).rssMb };
if (process.env.PROF_JFR) execFileSync('jcmd', [String(neo), 'JFR.stop', 'name=p']);
const lastText = await metrics();
const after = txCount(lastText);
const lat1 = latencies(lastText);
const meanMs = (k) => (((lat1[k].sum - lat0[k].sum) / Math.max(1, lat1[k].count - lat0[k].count)) * 1000).toFixed(2);
console.log(
  `${caseName}: ${(n / secs).toFixed(0)} checks/s; CPU ms/check service ${(((c1[0] - c0[0]) * 1000) / n).toFixed(3)}, neo4j ${(((c1[1] - c0[1]) * 1000) / n).toFixed(3)}`,
);
// Neo4j's CPU a question by kind of thread (Bolt workers, Bolt I/O, GC, JIT compilers...), the largest first.
const byThread = [...threadCpuDelta(threads0, threads1)].map(([name, s]) => [name, (s * 1000) / n]).filter(([, ms]) => ms >= 0.005);
console.log(
  'neo4j CPU ms/check by thread:',
  byThread
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
    .join(', '),
);
console.log(`RSS MB at the end: service ${rss.service.toFixed(0)}, neo4j ${rss.neo4j.toFixed(0)}`);
console.log(
  'transactions per check:',
  Object.fromEntries(Object.keys(after).map((k) => [k, ((after[k] - (before[k] ?? 0)) / n).toFixed(3)])),
);
// Where a question waits: the client's round trip (16 in flight over the rate), the service's time from
// arrival to answer (its request histogram), and a read statement's time from the driver's call to its rows.
console.log(
  `mean ms: round trip ${((16 / (n / secs)) * 1000).toFixed(2)}, in the service ${meanMs('http')}, a read statement ${meanMs('db')}`,
);
await ours.stop();
