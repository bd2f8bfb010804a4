// The request path of a repeated (cached) check, alone: loads a small dataset, fills the
// decision cache, then asks the same questions again at the default consistency and at
// minimize_latency, and `GET /healthz`, each round next to the HTTP floor (bench/floor.mjs, a bare
// node:http server answering 'ok' in its own process) measured by the same client in the same round.
// The client is bench/flood.mjs: several processes of raw keep-alive sockets; each round prints each
// client process's CPU share, the server's, Neo4j's and the box's idle share, and a round whose client
// had no idle CPU says it is not a figure (docs/benchmarks.md, "The floor and the client").
//   npm run build && node bench/cachedPath.mjs
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' BENCH_MARKS=1 node bench/cachedPath.mjs   (profile the service;
//     each row prints its window, for `node bench/profileTop.mjs <profile> 40 --between=<from>-<to>`)
//   BENCH_CASE=denied node bench/cachedPath.mjs   (another case of bench/dataset.mjs; default 'direct role')
//   BENCH_MAIN=<dir>/dist/src/main.js node bench/cachedPath.mjs   (another build, e.g. the version before)
//   BENCH_CLIENTS=2 BENCH_CONCURRENCY=16 BENCH_REQUESTS=20000 BENCH_ROUNDS=3   (the defaults)
import { join } from 'node:path';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { describeRound, floodClient } from './flood.mjs';
import { measure, warmUntilSteady } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { startServer } from './proc.mjs';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const processes = Number(process.env.BENCH_CLIENTS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const perRound = Number(process.env.BENCH_REQUESTS ?? 20_000);
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
  // The expected answers, asked once through the plain client (fully consistent: the graph itself).
  const expected = [];
  await measure(qs, concurrency, async (q, i) => {
    const r = await ours.api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' });
    expected[i] = r.allow === true;
  });
  const wrongExpected = qs.filter((q, i) => q.expect !== undefined && q.expect !== expected[i]).length;
  if (wrongExpected) throw new Error(`${wrongExpected} answers differ from the dataset's: not a figure`);
  const auth = { authorization: `Bearer ${ours.secret}` };
  const checks = (consistency) =>
    qs.map((q, i) => ({
      method: 'POST',
      path,
      headers: auth,
      body: { user: q.user, action: q.action, resource: q.resource, ...(consistency ? { consistency } : {}) },
      expect: `"allow":${expected[i]}`,
    }));
  const floorPost = qs.map((q) => ({
    method: 'POST',
    path: '/',
    headers: auth,
    body: { user: q.user, action: q.action, resource: q.resource },
  }));
  const floorGet = [{ method: 'GET', path: '/healthz' }];
  const healthz = [{ method: 'GET', path: '/healthz', expect: '"status":"ok"' }];

  const floor = await startServer(process.execPath, [join(root, 'bench', 'floor.mjs'), String(floorPort)], { port: floorPort });
  const toFloor = await floodClient({ port: floorPort, processes, connections: concurrency });
  const toOurs = await floodClient({ port, processes, connections: concurrency });
  const neo = { neo4j: ours.neoPid() };
  const rows = {
    'floor POST': { client: toFloor, reqs: floorPost, pid: floor.pid },
    default: { client: toOurs, reqs: checks(undefined), pid: ours.pid, others: neo, floor: 'floor POST' },
    minimize_latency: { client: toOurs, reqs: checks('minimize_latency'), pid: ours.pid, others: neo, floor: 'floor POST' },
    'floor GET': { client: toFloor, reqs: floorGet, pid: floor.pid },
    '/healthz': { client: toOurs, reqs: healthz, pid: ours.pid, others: neo, floor: 'floor GET' },
  };
  // Warm-up: first the shared rule (bench/http.mjs) on uncached checks, until the rate is steady and
  // for at least BENCH_WARM_MIN_S: Neo4j compiles for minutes after a start, and its compiler threads
  // take CPU from the service even while every answer comes from the cache (the revision reads).
  // Then the JIT of the cached path, the decision cache and the kept key rows.
  const warmed = await warmUntilSteady(qs, concurrency, (q) =>
    ours.api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' }),
  );
  console.log(`warm-up: ${warmed.rates.length} passes of uncached checks in ${warmed.seconds.toFixed(0)} s`);
  // Then: JIT, the decision cache, the kept key rows.
  for (const row of Object.values(rows)) await row.client.run(row.reqs, Math.min(perRound, 5000), { serverPid: row.pid });
  const results = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, row] of Object.entries(rows)) {
      const from = process.hrtime.bigint() / 1000n; // µs of the monotonic clock a --cpu-prof profile's times use
      const out = await row.client.run(row.reqs, perRound, { serverPid: row.pid, otherPids: row.others });
      results[name].push(out);
      const marks = process.env.BENCH_MARKS ? ` [profile window ${from}-${process.hrtime.bigint() / 1000n}]` : '';
      console.log(`round ${r + 1} ${name.padEnd(16)} ${describeRound(out)}${marks}`);
    }
  }
  await toFloor.close();
  await toOurs.close();
  await floor.stop();

  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nservice: ${process.env.BENCH_MAIN ?? 'dist/src/main.js'}; case: ${benchCase}`);
  console.log(
    `${perRound} requests a row a round, ${rounds} rounds, ${concurrency} connections from ${processes} client processes (medians of rounds; ratios taken round by round against that round's floor):`,
  );
  for (const [name, row] of Object.entries(rows)) {
    const rs = results[name];
    const notFigures = rs.filter((x) => !x.figure).length;
    let line = `${name.padEnd(16)} ${med(rs.map((x) => x.perSecond)).toFixed(0)} req/s, server ${med(rs.map((x) => x.serverCore)).toFixed(2)} core, ${med(rs.map((x) => x.serverUsPerRequest)).toFixed(1)} µs server CPU/req, clients max ${Math.max(...rs.flatMap((x) => x.clients)).toFixed(2)} core`;
    if (row.floor) {
      const fl = results[row.floor];
      const ratios = rs.map((x, i) => x.perSecond / fl[i].perSecond);
      const cpuRatios = rs.map((x, i) => fl[i].serverUsPerRequest / x.serverUsPerRequest);
      line += ` = ${med(ratios).toFixed(2)}x ${row.floor} (rounds ${ratios.map((x) => x.toFixed(2)).join(', ')}); CPU/req: floor's / this ${med(cpuRatios).toFixed(2)}x (rounds ${cpuRatios.map((x) => x.toFixed(2)).join(', ')})`;
    }
    if (notFigures) line += `; ${notFigures} of ${rs.length} rounds NOT FIGURES (a client without idle CPU, or errors)`;
    console.log(line);
  }
  console.log(
    `load average at the end: ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await ours.stop();
}
