// The service's HTTP layers alone, without Neo4j: the compiled app (src/app.ts: the hot path, koa,
// the real authenticator with a key row kept and always fresh, the real route tables' schemas and
// metrics) answering `POST /v2/allowed/{p}/{e}` from a decision handler that answers at once, and
// `GET /healthz`, next to the bare node:http floor, with bench/flood.mjs. What it leaves out: the
// decision service and cache (a stub answers), the revision ledger's reads and Neo4j. What remains
// is what src/http costs a request. Two builds compared in one run, rounds alternated:
//   npm run build && node bench/httpLayers.mjs [<other dist dir, e.g. the version before>]
//   BENCH_CLIENTS=2 BENCH_CONCURRENCY=16 BENCH_REQUESTS=40000 BENCH_ROUNDS=5
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' (profile the builds' processes; bench/profileTop.mjs reads them)
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describeRound, floodClient } from './flood.mjs';
import { root } from './ours.mjs';
import { startServer } from './proc.mjs';

const SECRET = 'bench_layers_secret';

/** The child side: one build's app on a port, in its own process (its CPU is the server's). */
async function serveBuild(dist, port) {
  const req = (m) => import(join(dist, 'src', m)).then((x) => x.default ?? x);
  const { createApp } = await req('app.js');
  const { BearerAuthenticator } = await req('http/authenticator.js');
  const { bindRoutes } = await req('http/routeTable.js');
  const { createHttpServer } = await req('http/server.js');
  const { Metrics } = await req('metrics/metrics.js');
  const { decisionRoutes } = await req('areas/decisions/routes.js');
  const { healthRoutes } = await req('areas/health/routes.js');
  const pino = (await import('pino')).default;
  const hash = createHash('sha256').update(SECRET).digest('hex');
  const row = {
    key: { id: 'k1', hash, access_level: 'read', env_id: 'e1', project_id: 'p1' },
    project: { id: 'p1', key: 'proj', org_id: 'o' },
    environment: { id: 'e1', key: 'env', revision: 1 },
  };
  const auth = new BearerAuthenticator({
    keys: { resolveScope: async () => row, scopeOfKey: async () => row },
    adminKeyHash: createHash('sha256').update('admin').digest('hex'),
    orgId: 'o',
    // Always fresh at revision 1: the kept row serves every request, as under load with the coherence window.
    freshness: { freshFor: () => true, known: () => 1, learnRead: () => undefined },
  });
  const svc = { allowed: async () => ({ allow: true }), allowedBulk: async () => ({ allow: [] }) };
  const routes = [
    ...bindRoutes(decisionRoutes, { svc, listing: {} }),
    ...bindRoutes(healthRoutes, { store: { ping: async () => true }, isMigrated: () => true }),
  ];
  const app = createApp({
    config: { trustProxy: false, bodyLimitBytes: 1024 * 1024, bulkBodyLimitBytes: 8 * 1024 * 1024, jsonMaxDepth: 32 },
    log: pino({ level: process.env.LOG_LEVEL ?? 'warn' }),
    metrics: new Metrics(),
    routes,
    authenticator: auth,
    revisionOf: () => 1,
  });
  const server = createHttpServer(app.handler);
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
}

if (process.argv[2] === 'serve') {
  process.on('SIGTERM', () => process.exit(0)); // an orderly exit: a --cpu-prof profile is written
  await serveBuild(process.argv[3], Number(process.argv[4]));
} else {
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
  const processes = Number(process.env.BENCH_CLIENTS ?? 2);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const perRound = Number(process.env.BENCH_REQUESTS ?? 40_000);
  const base = Number(process.env.BENCH_PORT ?? 18291);
  const builds = [join(root, 'dist'), ...process.argv.slice(2)];
  const me = new URL(import.meta.url).pathname;
  const servers = [];
  for (const [i, dist] of builds.entries()) {
    const port = base + 1 + i;
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof --cpu-prof-dir=...
    servers.push({ dist, port, ...(await startServer(process.execPath, [...nodeArgs, me, 'serve', dist, String(port)], { port })) });
  }
  const floor = await startServer(process.execPath, [join(root, 'bench', 'floor.mjs'), String(base)], { port: base });
  const body = { user: 'u1', action: 'pull', resource: { type: 'repo', key: 'r1', tenant: 'default' } };
  const check = [
    { method: 'POST', path: '/v2/allowed/proj/env', headers: { authorization: `Bearer ${SECRET}` }, body, expect: '"allow":true' },
  ];
  const floorPost = [{ method: 'POST', path: '/', headers: { authorization: `Bearer ${SECRET}` }, body }];
  const rows = [{ name: 'floor POST', port: base, pid: floor.pid, reqs: floorPost }];
  for (const [i, s] of servers.entries())
    rows.push({ name: `check, build ${i}`, port: s.port, pid: s.pid, reqs: check, floor: 'floor POST' });
  rows.push({ name: 'floor GET', port: base, pid: floor.pid, reqs: [{ method: 'GET', path: '/healthz' }] });
  for (const [i, s] of servers.entries())
    rows.push({
      name: `/healthz, build ${i}`,
      port: s.port,
      pid: s.pid,
      reqs: [{ method: 'GET', path: '/healthz', expect: '"ok"' }],
      floor: 'floor GET',
    });
  const clients = new Map();
  for (const r of rows)
    if (!clients.has(r.port)) clients.set(r.port, await floodClient({ port: r.port, processes, connections: concurrency }));
  for (const r of rows) await clients.get(r.port).run(r.reqs, Math.min(perRound, 10_000), { serverPid: r.pid }); // warm-up
  const results = Object.fromEntries(rows.map((r) => [r.name, []]));
  for (let k = 0; k < rounds; k++) {
    // Alternate the builds' order round by round.
    const order = k % 2 ? [...rows].reverse() : rows;
    for (const r of order) {
      const out = await clients.get(r.port).run(r.reqs, perRound, { serverPid: r.pid });
      results[r.name].push(out);
      console.log(`round ${k + 1} ${r.name.padEnd(18)} ${describeRound(out)}`);
    }
  }
  for (const c of clients.values()) await c.close();
  for (const s of [...servers, floor]) await s.stop();
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `\nbuilds: ${builds.map((b, i) => `${i} = ${b}`).join(', ')}; ${perRound} requests a row a round, ${rounds} rounds, ${concurrency} connections from ${processes} client processes (medians):`,
  );
  for (const r of rows) {
    const rs = results[r.name];
    let line = `${r.name.padEnd(18)} ${med(rs.map((x) => x.perSecond)).toFixed(0)} req/s, ${med(rs.map((x) => x.serverUsPerRequest)).toFixed(1)} µs server CPU/req, server ${med(rs.map((x) => x.serverCore)).toFixed(2)} core`;
    if (r.floor) {
      const fl = results[r.floor];
      line += `; over the floor: rate ${med(rs.map((x, i) => x.perSecond / fl[i].perSecond)).toFixed(2)}x, CPU/req floor's / this ${med(rs.map((x, i) => fl[i].serverUsPerRequest / x.serverUsPerRequest)).toFixed(2)}x`;
    }
    const bad = rs.filter((x) => !x.figure).length;
    if (bad) line += `; ${bad} rounds NOT FIGURES`;
    console.log(line);
  }
  console.log(
    `load average at the end: ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
