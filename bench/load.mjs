// The load alone, with the time of each phase: `npm run build && node bench/load.mjs`.
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' profiles the service's JS side.
// BENCH_LOAD_ROUNDS (default 2): round 1 loads into a freshly started Neo4j (its JIT compiler
// still busy: measured, it took about as much CPU as the load itself); each later round loads the
// same dataset into a new project of the same, now warm, Neo4j, through a new service process.
// Each round also prints Neo4j's CPU by kind of thread (its JIT compilers, Bolt workers, GC).
// BENCH_NEO4J_JVM: JVM flags added to the launcher's for this Neo4j (e.g. '-XX:TieredStopAtLevel=1').
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset } from './dataset.mjs';
import { benchJvmArgs, loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds, jvmCpuByKind, threadCpuSeconds } from './proc.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const rounds = Number(process.env.BENCH_LOAD_ROUNDS ?? 2);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7741);
const dataDir = join(root, '.neo4j', `bench-load-${neo4jPort}`);
rmSync(dataDir, { recursive: true, force: true });
const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, jvmArgs: benchJvmArgs(), log: () => undefined });
try {
  const ds = buildDataset({
    users: Math.round(10_000 * scale),
    chains: Math.max(10, Math.round(200 * scale)),
    repos: Math.round(20_000 * scale),
  });
  for (let round = 1; round <= rounds; round++) {
    // Neo4j is already listening: startOurs makes a project of its own and leaves Neo4j running.
    const ours = await startOurs({ port: Number(process.env.BENCH_PORT ?? 18091), neo4jPort, concurrency: 16 });
    try {
      const cpu = () => ({
        service: cpuSeconds(ours.pid),
        neo4j: cpuSeconds(ours.neoPid()),
        bench: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
      });
      let before = cpu();
      const first = before;
      const threads0 = threadCpuSeconds(ours.neoPid());
      // Each phase with the CPU seconds each process spent on it (the wall time depends on the box's other load).
      const log = (line) => {
        const now = cpu();
        console.log(
          `${line}  (CPU s: service ${(now.service - before.service).toFixed(1)}, Neo4j ${(now.neo4j - before.neo4j).toFixed(1)}, loader ${(now.bench - before.bench).toFixed(1)})`,
        );
        before = now;
      };
      console.log(`round ${round} (${round === 1 ? 'Neo4j just started' : 'Neo4j warm, new project'}):`);
      const load = await loadOurs(ours.api, ours.project, ds, { loaders: Number(process.env.BENCH_LOADERS ?? 2), log });
      const end = cpu();
      const spent = jvmCpuByKind(threads0, threadCpuSeconds(ours.neoPid()));
      console.log(`Neo4j CPU s by thread: ${[...spent].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
      console.log(
        `load: ${load.facts} facts in ${load.seconds.toFixed(2)} s = ${Math.round(load.facts / load.seconds)} facts/s (with ${load.records} users, repos, groups); CPU s: service ${(end.service - first.service).toFixed(1)}, Neo4j ${(end.neo4j - first.neo4j).toFixed(1)}`,
      );
    } finally {
      await ours.stop();
    }
  }
} finally {
  await neo4j.stop();
}
