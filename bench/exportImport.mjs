// Export and import of an environment (docs/behaviour.md section 16) on the bench dataset (bench/dataset.mjs,
// 193,800 facts at BENCH_SCALE=1): `npm run bench:export-import`. The dataset is loaded through the
// API (as bench/load.mjs does), exported with `graph-authz export` into a file, and imported with
// `graph-authz import` into a new, empty environment of the same deployment; then the same sample
// of questions is asked of both. Measured each way: facts/s (the dataset's facts over the command's
// wall time), the peak RSS of the service during the phase and of the command.
// The reference is SpiceDB's load in bench:peers (32,948 facts/s on 2026-11-26, SpiceDB v1.56.2
// on PostgreSQL, WriteRelationships in batches of 1,000), cited here; bench:peers itself runs this
// export and import too (bench/restore.mjs), so its table gives the ratio from one run.
// BENCH_SCALE (default 1), BENCH_PORT, BENCH_NEO4J_PORT.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset } from './dataset.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { exportAndImport } from './restore.mjs';

const SPICEDB_BULK_IMPORT_FACTS_PER_S = 32_948;
const scale = Number(process.env.BENCH_SCALE ?? 1);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7745);
const port = Number(process.env.BENCH_PORT ?? 18095);
const dataDir = join(root, '.neo4j', `bench-export-${neo4jPort}`);
rmSync(dataDir, { recursive: true, force: true });
const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });

try {
  const ours = await startOurs({ port, neo4jPort, concurrency: 16 });
  try {
    const ds = buildDataset({
      users: Math.round(10_000 * scale),
      chains: Math.max(10, Math.round(200 * scale)),
      repos: Math.round(20_000 * scale),
    });
    const load = await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
    console.log(`loaded ${load.facts} facts (${load.records} users, repos, groups) through the API in ${load.seconds.toFixed(1)} s`);
    const r = await exportAndImport(ours, ds);

    const rate = (s) => Math.round(load.facts / s);
    console.log(
      `export: ${load.facts} facts (${r.bytes.toLocaleString('en-US')} bytes, ${r.nodes} records + ${r.relationships} links) in ${r.export.seconds.toFixed(1)} s = ${rate(r.export.seconds)} facts/s; peak RSS: service ${r.export.peak.service.toFixed(0)} MB, command ${r.export.peak.command.toFixed(0)} MB`,
    );
    console.log(
      `import: ${load.facts} facts in ${r.import.seconds.toFixed(1)} s = ${rate(r.import.seconds)} facts/s (the service's own time: ${r.import.serviceSeconds.toFixed(1)} s); peak RSS: service ${r.import.peak.service.toFixed(0)} MB, command ${r.import.peak.command.toFixed(0)} MB`,
    );
    console.log(
      `import against SpiceDB's load (${SPICEDB_BULK_IMPORT_FACTS_PER_S} facts/s, bench:peers 2026-11-26, cited): ${(rate(r.import.seconds) / SPICEDB_BULK_IMPORT_FACTS_PER_S).toFixed(2)}x; our bulk API's load here: ${rate(load.seconds)} facts/s`,
    );
    console.log(`same answers in the restored environment: ${r.questions - r.wrong} of ${r.questions}${r.wrong ? ' (WRONG)' : ''}`);
    if (r.wrong) process.exitCode = 1;
  } finally {
    await ours.stop();
  }
} finally {
  await neo4j.stop();
}
