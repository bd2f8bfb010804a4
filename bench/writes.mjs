// The writes alone, before / after: the bench:peers dataset (bench/dataset.mjs) loaded through the
// bulk API (bench/ours.mjs loadOurs: users, repos, groups, tuples, role assignments; BENCH_BATCH
// items a call, BENCH_LOADERS calls in flight), then exported and imported into an empty
// environment with `graph-authz export` / `import` (bench/restore.mjs), by each checkout given, in
// alternating rounds against one warm Neo4j. Printed per round and as medians: facts/s of the load
// and of the import, and the CPU time each process (the service, Neo4j, the loader) spent per fact
// (from /proc/<pid>/stat: a figure the box's other load moves far less than a rate).
//
//   npm run build && node bench/writes.mjs                       (this checkout alone)
//   node bench/writes.mjs ../base-checkout ../new-checkout        (each checkout built: dist/)
//
// BENCH_SCALE (0.25: about 48,000 facts; 1 is bench:peers' 193,800), BENCH_ROUNDS (3: each
// checkout measured 3 times, orders A B, B A, A B ...), BENCH_IMPORT=0 (the load only),
// BENCH_NEO4J_PORT (TEST_NEO4J_PORT, else 7749; a Neo4j already listening there is used, never
// cleared), BENCH_PORT (18097). Before the rounds, each checkout loads the dataset once, without
// the import (Neo4j's JIT compiler and each checkout's query plans warm up; not counted: on a
// freshly started Neo4j the first load took 2-4 times the CPU of the next).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { isPortOpen, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset } from './dataset.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';
import { exportAndImport } from './restore.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 0.25);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const withImport = process.env.BENCH_IMPORT !== '0';
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? process.env.TEST_NEO4J_PORT ?? 7749);
const port = Number(process.env.BENCH_PORT ?? 18097);
const checkouts = (process.argv.slice(2).length ? process.argv.slice(2) : [root]).map((c) => resolve(c));
const label = (c) => {
  try {
    return `${c.split('/').pop()}@${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: c, encoding: 'utf8' }).trim()}`;
  } catch {
    return c;
  }
};
const names = checkouts.map(label);

const datasetOf = (s) =>
  buildDataset({ users: Math.round(10_000 * s), chains: Math.max(10, Math.round(200 * s)), repos: Math.round(20_000 * s) });

const dataDir = join(root, '.neo4j', `bench-writes-${neo4jPort}`);
// A Neo4j already listening on the port is used as it is: its files are never cleared under it.
if (!(await isPortOpen(neo4jPort))) rmSync(dataDir, { recursive: true, force: true });
const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });

/** One checkout's load (and import) of `ds` through a service process of its own; CPU seconds per process. */
async function measure(checkout, ds, importToo = withImport) {
  const ours = await startOurs({ port, neo4jPort, concurrency: 16, main: join(checkout, 'dist', 'src', 'main.js') });
  try {
    const cpu = () => ({
      service: cpuSeconds(ours.pid),
      neo4j: cpuSeconds(ours.neoPid()),
      loader: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    });
    const diff = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));
    const c0 = cpu();
    const load = await loadOurs(ours.api, ours.project, ds, { loaders: Number(process.env.BENCH_LOADERS ?? 2) });
    const out = { load: { facts: load.facts, seconds: load.seconds, cpu: diff(c0, cpu()), phases: load.phases } };
    if (importToo) {
      let before;
      let after;
      const r = await exportAndImport(ours, ds, {
        cli: join(checkout, 'bin', 'graph-authz.js'),
        onImport: { before: () => (before = cpu()), after: () => (after = cpu()) },
      });
      if (r.wrong) throw new Error(`${checkout}: ${r.wrong} answers differ after the import`);
      // The importing command's CPU is not the loader's: it is left out of `loader` (its own process).
      out.import = {
        facts: load.facts,
        seconds: r.import.seconds,
        cpu: { ...diff(before, after), loader: 0 },
        records: r.nodes,
        links: r.relationships,
      };
    }
    return out;
  } finally {
    await ours.stop();
  }
}

const us = (s, facts) => ((s * 1e6) / facts).toFixed(0);
const line = (name, m) =>
  `${m.facts} facts in ${m.seconds.toFixed(1)} s = ${Math.round(m.facts / m.seconds)} facts/s; CPU µs a fact: service ${us(m.cpu.service, m.facts)}, Neo4j ${us(m.cpu.neo4j, m.facts)}${m.cpu.loader ? `, loader ${us(m.cpu.loader, m.facts)}` : ''} (${name})`;

try {
  console.log(
    `bench/writes ${new Date().toISOString()}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; scale ${scale}; ${checkouts.map((c, i) => `${names[i]} = ${c}`).join('; ')}`,
  );
  const ds = datasetOf(scale);
  for (const c of checkouts) await measure(c, ds, false);
  const results = checkouts.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = checkouts.map((_, i) => i);
    if (r % 2 === 1) order.reverse();
    for (const i of order) {
      const m = await measure(checkouts[i], ds);
      results[i].push(m);
      console.log(`round ${r + 1} ${names[i]} (load average ${loadavg()[0].toFixed(1)}):`);
      console.log(`  load:   ${line('bulk API', m.load)}`);
      console.log(
        `          phases: ${Object.entries(m.load.phases)
          .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
          .join(', ')}`,
      );
      if (m.import) console.log(`  import: ${line(`${m.import.records} records + ${m.import.links} links`, m.import)}`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const summary = (i, kind) => {
    const ms = results[i].map((m) => m[kind]).filter(Boolean);
    if (!ms.length) return undefined;
    const facts = ms[0].facts;
    return {
      rate: median(ms.map((m) => m.facts / m.seconds)),
      service: (median(ms.map((m) => m.cpu.service)) * 1e6) / facts,
      neo4j: (median(ms.map((m) => m.cpu.neo4j)) * 1e6) / facts,
      total: (median(ms.map((m) => m.cpu.service + m.cpu.neo4j)) * 1e6) / facts,
    };
  };
  console.log(`\nmedians of ${rounds} rounds (load average now ${loadavg()[0].toFixed(1)}):`);
  for (const kind of ['load', ...(withImport ? ['import'] : [])]) {
    const first = summary(0, kind);
    for (let i = 0; i < checkouts.length; i++) {
      const s = summary(i, kind);
      const vs =
        i > 0
          ? ` | against ${names[0]}: rate ${(s.rate / first.rate).toFixed(2)}x, CPU a fact service ${(s.service / first.service).toFixed(2)}x, Neo4j ${(s.neo4j / first.neo4j).toFixed(2)}x, both ${(s.total / first.total).toFixed(2)}x`
          : '';
      console.log(
        `  ${kind.padEnd(6)} ${names[i]}: ${Math.round(s.rate)} facts/s; CPU µs a fact: service ${s.service.toFixed(0)}, Neo4j ${s.neo4j.toFixed(0)}, both ${s.total.toFixed(0)}${vs}`,
      );
    }
  }
} finally {
  await neo4j.stop();
}
