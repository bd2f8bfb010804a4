// Two builds of the service, paired on one Neo4j and one loaded dataset (bench/dataset.mjs,
// BENCH_SCALE): both serve the same environment (arm B with arm A's key), and each round asks each
// case of uncached checks (16 in flight, `fully_consistent`) of one arm then the other for
// AB_SECONDS, the order swapped every round. Prints each round's checks/s and CPU a check (service,
// Neo4j), then B over A by round and their medians: a before/after whose rounds share the box's weather.
//   node bench/servicePair.mjs            (AB_A_MAIN, AB_B_MAIN: each arm's dist/src/main.js; default this checkout's)
//   AB_A_ARGS / AB_B_ARGS (node flags), AB_A_ENV / AB_B_ENV (JSON: settings of one arm),
//   AB_CASES ('direct role,denied'), AB_ROUNDS (4), AB_SECONDS (15), AB_WARM (40 s, both arms), BENCH_SCALE (1)
// Both arms use the jar this checkout's launcher loads: an arm of another rule version answers with the Cypher walk.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client, measure, median } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const rounds = Number(process.env.AB_ROUNDS ?? 4);
const seconds = Number(process.env.AB_SECONDS ?? 15);
const caseNames = (process.env.AB_CASES ?? 'direct role,denied').split(',');
const neo4jPort = Number(process.env.TEST_NEO4J_PORT ?? 7841);
const mainA = process.env.AB_A_MAIN ?? join(root, 'dist/src/main.js');
const mainB = process.env.AB_B_MAIN ?? mainA;
const start = (port, main, nodeArgs, env) => startOurs({ port, neo4jPort, concurrency: 16, main, env, nodeArgs: nodeArgs ?? '' });
const A = await start(18191, mainA, process.env.AB_A_ARGS, JSON.parse(process.env.AB_A_ENV ?? '{}'));
const ds = buildDataset({
  users: Math.round(10000 * scale),
  chains: Math.max(10, Math.round(200 * scale)),
  repos: Math.round(20000 * scale),
});
await loadOurs(A.api, A.project, ds, { loaders: 2 });
const B = await start(18192, mainB, process.env.AB_B_ARGS, JSON.parse(process.env.AB_B_ENV ?? '{}'));
const cases = buildQuestions(ds, 3000);
const path = `/v2/allowed/${A.project}/bench`;
const arms = {
  A: { s: A, api: client(A.base, A.secret, 16) },
  B: { s: B, api: client(B.base, A.secret, 16) },
};
const ask = (api) => (q) => api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' });
const all = Object.values(cases).flat();
const neo = A.neoPid();
const warm = Number(process.env.AB_WARM ?? 40);
for (let i = 0; i < 2; i++)
  for (const k of ['A', 'B']) {
    const t0 = Date.now();
    while (Date.now() - t0 < (warm / 2) * 1000) await measure(all, 16, ask(arms[k].api));
  }
const results = {};
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  for (const name of caseNames) {
    for (const k of order) {
      const qs = cases[name];
      const c0 = [cpuSeconds(arms[k].s.pid), cpuSeconds(neo)];
      let n = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < seconds * 1000) {
        await measure(qs, 16, ask(arms[k].api));
        n += qs.length;
      }
      const secs = (Date.now() - t0) / 1000;
      const c1 = [cpuSeconds(arms[k].s.pid), cpuSeconds(neo)];
      const x = { rate: n / secs, svc: ((c1[0] - c0[0]) * 1000) / n, neo: ((c1[1] - c0[1]) * 1000) / n };
      (results[name] ??= { A: [], B: [] })[k].push(x);
      console.log(
        `round ${r + 1} ${name} ${k}: ${x.rate.toFixed(0)} checks/s, CPU ms/check service ${x.svc.toFixed(3)} neo4j ${x.neo.toFixed(3)} (load ${loadavg()[0].toFixed(2)})`,
      );
    }
  }
}
for (const [name, { A: a, B: b }] of Object.entries(results)) {
  const ratios = a.map((x, i) => b[i].rate / x.rate);
  const svc = a.map((x, i) => b[i].svc / x.svc);
  const neo4j = a.map((x, i) => b[i].neo / x.neo);
  console.log(
    `${name}: B/A rate ${ratios.map((x) => x.toFixed(2)).join(' ')} (median ${median(ratios).toFixed(3)}); service CPU ${svc.map((x) => x.toFixed(2)).join(' ')} (median ${median(svc).toFixed(3)}); neo4j CPU ${neo4j.map((x) => x.toFixed(2)).join(' ')} (median ${median(neo4j).toFixed(3)})`,
  );
}
await B.stop();
await A.stop();
