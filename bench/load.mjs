// The load alone, with the time of each phase: `npm run build && node bench/load.mjs`.
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' profiles the service's JS side.
import { buildDataset } from './dataset.mjs';
import { loadOurs, startOurs } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ours = await startOurs({ port: Number(process.env.BENCH_PORT ?? 18091), neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7741), concurrency: 16 });
try {
  const ds = buildDataset({ users: Math.round(10_000 * scale), chains: Math.max(10, Math.round(200 * scale)), repos: Math.round(20_000 * scale) });
  const cpu = () => ({ service: cpuSeconds(ours.pid), neo4j: cpuSeconds(ours.neoPid()), bench: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 });
  let before = cpu();
  // Each phase with the CPU seconds each process spent on it (the wall time depends on the box's other load).
  const log = (line) => {
    const now = cpu();
    console.log(`${line}  (CPU s: service ${(now.service - before.service).toFixed(1)}, Neo4j ${(now.neo4j - before.neo4j).toFixed(1)}, loader ${(now.bench - before.bench).toFixed(1)})`);
    before = now;
  };
  const load = await loadOurs(ours.api, ours.project, ds, { loaders: Number(process.env.BENCH_LOADERS ?? 2), log });
  console.log(`load: ${load.facts} facts in ${load.seconds.toFixed(2)} s = ${Math.round(load.facts / load.seconds)} facts/s (with ${load.records} users, repos, groups)`);
} finally {
  await ours.stop();
}
