// The request path of a repeated (cached) check, alone: loads a small dataset, fills the
// decision cache, then asks the same questions again at the default consistency and at
// minimize_latency, next to the HTTP floor measured by the same client in the same run.
//   npm run build && node bench/cachedPath.mjs
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' node bench/cachedPath.mjs   (profile the service)
//   BENCH_CASE=denied node bench/cachedPath.mjs   (another case of bench/dataset.mjs; default 'direct role')
//   BENCH_MAIN=<dir>/dist/src/main.js node bench/cachedPath.mjs   (another build, e.g. the version before)
import { join } from 'node:path';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client, measure } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds, startServer } from './proc.mjs';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 18191);
const floorPort = port + 1;
const ours = await startOurs({ port, neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7761), concurrency });
try {
  const ds = buildDataset({ users: 500, chains: 10, repos: 1000 });
  await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
  const benchCase = process.env.BENCH_CASE ?? 'direct role';
  const qs = buildQuestions(ds, 500)[benchCase];
  if (!qs) throw new Error(`BENCH_CASE: no case "${benchCase}" in bench/dataset.mjs`);
  const path = `/v2/allowed/${ours.project}/bench`;
  const ask = (consistency) => (q) =>
    ours.api('POST', path, { user: q.user, action: q.action, resource: q.resource, ...(consistency ? { consistency } : {}) });
  await measure(qs, concurrency, ask('minimize_latency'));
  const floor = await startServer(process.execPath, [join(root, 'bench', 'floor.mjs'), String(floorPort)], { port: floorPort });
  const floorApi = client(`http://127.0.0.1:${floorPort}`, 'floor', concurrency);
  const many = Array.from({ length: Number(process.env.BENCH_REPEAT ?? 8) }, () => qs).flat();
  const rows = { floor: [], default: [], minimize_latency: [] };
  const busy = { default: [], minimize_latency: [] };
  // The service's CPU per check (ms) and its share of one core while it answers (1.0: CPU-bound).
  const timed = async (key, consistency) => {
    const cpu0 = cpuSeconds(ours.pid) * 1000;
    const r = await measure(many, concurrency, ask(consistency));
    const cpu = cpuSeconds(ours.pid) * 1000 - cpu0;
    rows[key].push(r.perSecond);
    busy[key].push({ perCheck: cpu / many.length, core: cpu / 1000 / r.seconds });
  };
  for (let r = 0; r < rounds; r++) {
    rows.floor.push((await measure(many, concurrency, (q) => floorApi('POST', '/', q))).perSecond);
    await timed('default', undefined);
    await timed('minimize_latency', 'minimize_latency');
  }
  await floor.stop();
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`service: ${process.env.BENCH_MAIN ?? 'dist/src/main.js'}; case: ${benchCase}`);
  console.log(`repeated check, ${many.length} requests a round, ${rounds} rounds, ${concurrency} connections (medians):`);
  console.log(`floor (bare node:http) ${med(rows.floor).toFixed(0)} req/s`);
  for (const k of ['default', 'minimize_latency']) {
    console.log(
      `${k.padEnd(17)} ${med(rows[k]).toFixed(0)} checks/s = ${(med(rows[k]) / med(rows.floor)).toFixed(2)}x floor   (rounds: ${rows[k].map((x, i) => (x / rows.floor[i]).toFixed(2)).join(', ')}); ` +
        `service CPU ${busy[k].map((b) => `${b.perCheck.toFixed(3)} ms/check at ${b.core.toFixed(2)} core`).join(', ')}`,
    );
  }
} finally {
  await ours.stop();
}
