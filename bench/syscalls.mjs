// Syscalls a request of the cached path, counted by the kernel's tracepoints (`perf stat -e
// 'syscalls:sys_enter_*'` attached to the server's process while bench/flood.mjs drives it): a
// repeated check at the default consistency and `GET /healthz` on the service, each next to the
// bare node:http floor (bench/floor.mjs) under the same client. Prints each row's rate and the
// syscalls a request, most frequent first, and its context switches and CPU migrations a request
// (docs/benchmarks.md, "Syscalls a request").
//   npm run build && node bench/syscalls.mjs        (needs `perf` with tracepoint access; BENCH_REQUESTS=60000 BENCH_ROUNDS=2)
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { describeRound, floodClient } from './flood.mjs';
import { warmUntilSteady } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { startServer } from './proc.mjs';
const port = Number(process.env.BENCH_PORT ?? 18391);
const floorPort = port + 1;
const concurrency = 16;
const n = Number(process.env.BENCH_REQUESTS ?? 60000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
if (spawnSync('perf', ['stat', '-e', 'syscalls:sys_enter_read', 'true']).status !== 0) {
  console.error('perf cannot read the syscall tracepoints here (install perf; run as root or lower kernel.perf_event_paranoid)');
  process.exit(2);
}
const ours = await startOurs({ port, neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7771), concurrency });
/** The scheduler's events counted beside the syscalls. */
const SCHEDULER = new Set(['context-switches', 'cpu-migrations']);
/** perf counting every syscall tracepoint of `pid` until stopped; `stop` answers its CSV (count,,event,...). */
const perfStat = (pid) => {
  const p = spawn('perf', ['stat', '-x', ',', '-e', ['syscalls:sys_enter_*', ...SCHEDULER].join(','), '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  p.stderr.on('data', (c) => (out += c));
  return {
    stop: () =>
      new Promise((ok) => {
        p.on('close', () => ok(out));
        p.kill('SIGINT');
      }),
  };
};
try {
  const ds = buildDataset({ users: 500, chains: 10, repos: 1000 });
  await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
  const qs = buildQuestions(ds, 500)['direct role'];
  const path = `/v2/allowed/${ours.project}/bench`;
  const auth = { authorization: `Bearer ${ours.secret}` };
  /** The same check requests, to the floor or to the service. */
  const checksTo = (to) =>
    qs.map((q) => ({ method: 'POST', path: to, headers: auth, body: { user: q.user, action: q.action, resource: q.resource } }));
  await warmUntilSteady(qs, concurrency, (q) =>
    ours.api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' }),
  );
  const floor = await startServer(process.execPath, [join(root, 'bench', 'floor.mjs'), String(floorPort)], { port: floorPort });
  const toFloor = await floodClient({ port: floorPort, processes: 2, connections: concurrency });
  const toOurs = await floodClient({ port, processes: 2, connections: concurrency });
  const rows = {
    'floor POST': [toFloor, checksTo('/'), floor.pid],
    'check (default)': [toOurs, checksTo(path), ours.pid],
    'floor GET': [toFloor, [{ method: 'GET', path: '/healthz' }], floor.pid],
    '/healthz': [toOurs, [{ method: 'GET', path: '/healthz' }], ours.pid],
  };
  for (const [, [c, reqs, pid]] of Object.entries(rows)) await c.run(reqs, 10000, { serverPid: pid });
  for (let r = 0; r < rounds; r++)
    for (const [name, [c, reqs, pid]] of Object.entries(rows)) {
      const perf = perfStat(pid);
      await new Promise((ok) => setTimeout(ok, 300));
      const out = await c.run(reqs, n, { serverPid: pid });
      const text = await perf.stop();
      const all = text
        .split('\n')
        .map((l) => l.split(','))
        .filter((f) => Number(f[0]) > 0)
        .map((f) => [f[2].replace('syscalls:sys_enter_', ''), Number(f[0])]);
      const scheduler = all.filter(([k]) => SCHEDULER.has(k));
      const counts = all.filter(([k]) => !SCHEDULER.has(k));
      counts.sort((a, b) => b[1] - a[1]);
      const total = counts.reduce((s, [, v]) => s + v, 0);
      console.log(`${name}: ${describeRound(out)}`);
      console.log(
        `   ${(total / n).toFixed(2)} syscalls a request: ${counts
          .slice(0, 10)
          .map(([k, v]) => `${k} ${(v / n).toFixed(3)}`)
          .join(', ')}; ${scheduler.map(([k, v]) => `${k} ${(v / n).toFixed(3)}`).join(', ')} a request`,
      );
    }
  await toFloor.close();
  await toOurs.close();
  await floor.stop();
} finally {
  await ours.stop();
}
