// The load alone, with the time of each phase: `npm run build && node bench/load.mjs`.
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' profiles the service's JS side.
import { buildDataset } from './dataset.mjs';
import { loadOurs, startOurs } from './ours.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ours = await startOurs({ port: Number(process.env.BENCH_PORT ?? 18091), neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7741), concurrency: 16 });
try {
  const ds = buildDataset({ users: Math.round(10_000 * scale), chains: Math.max(10, Math.round(200 * scale)), repos: Math.round(20_000 * scale) });
  const load = await loadOurs(ours.api, ours.project, ds, { batch: Number(process.env.BENCH_BATCH ?? 1000), loaders: Number(process.env.BENCH_LOADERS ?? 2), log: console.log });
  console.log(`load: ${load.facts} facts in ${load.seconds.toFixed(2)} s = ${Math.round(load.facts / load.seconds)} facts/s (with ${load.records} users, repos, groups)`);
} finally {
  await ours.stop();
}
