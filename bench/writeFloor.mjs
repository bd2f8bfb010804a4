// Neo4j's own floor for the bench:peers load, against SpiceDB's load in the same run:
// `node bench/writeFloor.mjs`. No service, no HTTP: the dataset's records (users, repos, groups)
// and its 193,800 facts written straight through the Bolt driver in the barest Cypher that makes
// the same graph (CREATE, each edge's ends found by a unique (env, id) index), in the loader's
// batches (BENCH_BATCH, 1,000) with its two loaders, each batch one committed transaction. No
// change set, no revision, no lock of ours, no MERGE. Round 1 writes into a freshly started Neo4j
// (the launcher's JVM flags, the walk extension loaded), as bench:peers loads; later rounds
// (BENCH_FLOOR_ROUNDS, default 2) into the same Neo4j, now warm, under a new environment key.
// Then SpiceDB (on PostgreSQL, as bench:peers starts it) loads the same facts (less the 31 the
// dataset repeats, which one SpiceDB request may not name twice). BENCH_RUNS (3)
// alternates the two; each ratio is against the SpiceDB load of its own run. BENCH_NEO4J_JVM: JVM
// flags added to the launcher's for this Neo4j (e.g. '-XX:TieredStopAtLevel=1'). BENCH_VERBOSE: the
// launcher's log.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset, factsOf } from './dataset.mjs';
import { inBatches, median } from './http.mjs';
import { benchJvmArgs, root } from './ours.mjs';
import { startPostgres } from './peers/postgres.mjs';
import { spicedbAdapter, startSpiceDB } from './peers/spicedb.mjs';
import { cpuSeconds, jvmCpuByKind, threadCpuSeconds } from './proc.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 3);
const rounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 2);
const batch = Number(process.env.BENCH_BATCH ?? 1000);
const loaders = Number(process.env.BENCH_LOADERS ?? 2);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7743);
const pgPort = Number(process.env.BENCH_PG_PORT ?? 5463);
const log = (...a) => console.error('[floor]', ...a);
const ds = buildDataset();
const facts = factsOf(ds);

// BENCH_FLOOR_PATH=kernel writes the edges through graphauthz.importLinks instead (the import's
// procedure: each end found once a batch by the kernel's index seek, the edge made through the
// kernel's API), the fastest write path this repository has.
const kernel = process.env.BENCH_FLOOR_PATH === 'kernel';
const NODES = 'UNWIND $keys AS k CREATE (:InEnv {env: $env, id: k})';
const EDGES = kernel
  ? 'CALL graphauthz.importLinks($env, [r IN $rows | {type: "FLOOR_EDGE", from: r[0], to: r[1], props: {role: r[2]}}]) YIELD created RETURN created'
  : 'UNWIND $rows AS r MATCH (a:InEnv {env: $env, id: r[0]}) MATCH (b:InEnv {env: $env, id: r[1]}) CREATE (a)-[:FLOOR_EDGE {role: r[2]}]->(b)';

async function floorRound(driver, env) {
  const write = (cypher, params) => driver.executeQuery(cypher, { ...params, env }, { routing: neo4j.routing.WRITE });
  const started = Date.now();
  const records = [...ds.userKeys.map((k) => `user:${k}`), ...ds.repoKeys.map((k) => `repo:${k}`), ...ds.groups.map((g) => `group:${g}`)];
  await inBatches(records, batch, loaders, (keys) => write(NODES, { keys }));
  const recordsAt = Date.now();
  const rows = [
    ...ds.nesting.map((n) => [`group:${n.child}`, `group:${n.parent}`, 'member']),
    ...ds.groupGrants.map((g) => [`group:${g.group}`, `repo:${g.repo}`, g.role]),
    ...ds.memberships.map((m) => [`user:${m.user}`, `group:${m.group}`, 'member']),
    ...ds.direct.map((d) => [`user:${d.user}`, `repo:${d.repo}`, d.role]),
  ];
  await inBatches(rows, batch, loaders, (r) => write(EDGES, { rows: r }));
  const end = Date.now();
  // A floor measured on a partial write is not a floor: every record and every edge is there.
  const { records: made } = await driver.executeQuery(
    'MATCH (n:InEnv {env: $env}) WITH count(n) AS nodes RETURN nodes, COUNT { (:InEnv {env: $env})-[:FLOOR_EDGE]->() } AS edges',
    { env },
  );
  const [nodes, edges] = [made[0].get('nodes'), made[0].get('edges')];
  if (nodes !== records.length || edges !== rows.length)
    throw new Error(`floor round wrote ${nodes} of ${records.length} records and ${edges} of ${rows.length} edges`);
  return { records: (recordsAt - started) / 1000, facts: (end - recordsAt) / 1000, seconds: (end - started) / 1000 };
}

async function neo4jFloor(run) {
  const dataDir = join(root, '.neo4j', `bench-floor-${neo4jPort}`);
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startLocalNeo4j({
    port: neo4jPort,
    dataDir,
    jvmArgs: benchJvmArgs(),
    log: process.env.BENCH_VERBOSE ? log : () => undefined,
  });
  const driver = neo4j.driver(server.uri, undefined, { disableLosslessIntegers: true });
  const pid = Number(readFileSync(pidFileFor(neo4jPort), 'utf8').trim());
  const out = [];
  try {
    await driver.executeQuery('CREATE CONSTRAINT floor_key IF NOT EXISTS FOR (n:InEnv) REQUIRE (n.env, n.id) IS UNIQUE');
    await driver.executeQuery('CALL db.awaitIndexes(60)');
    for (let round = 1; round <= rounds; round++) {
      const cpu0 = cpuSeconds(pid);
      const threads0 = threadCpuSeconds(pid);
      const r = await floorRound(driver, `run${run}-round${round}`);
      const jit = jvmCpuByKind(threads0, threadCpuSeconds(pid)).get('JIT compilers');
      out.push({ ...r, neo4jCpu: cpuSeconds(pid) - cpu0, jit });
      log(
        `run ${run}, Neo4j floor round ${round} (${round === 1 ? 'Neo4j just started' : 'warm'}): records ${r.records.toFixed(2)} s, ` +
          `facts ${r.facts.toFixed(2)} s (${Math.round(facts / r.facts)} facts/s), whole ${r.seconds.toFixed(2)} s; ` +
          `Neo4j CPU ${out.at(-1).neo4jCpu.toFixed(1)} s, of it JIT ${jit.toFixed(1)} s`,
      );
    }
  } finally {
    await driver.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

async function spicedbLoad(run) {
  const pg = await startPostgres({ port: pgPort, log });
  try {
    const peer = await startSpiceDB({ root, pgUri: pg.uri('spicedb'), grpcPort: neo4jPort + 10, httpPort: neo4jPort + 11, log });
    try {
      const started = Date.now();
      const n = await spicedbAdapter(peer.api).load(ds, { loaders });
      const seconds = (Date.now() - started) / 1000;
      log(`run ${run}, SpiceDB load: ${n} facts in ${seconds.toFixed(2)} s (${Math.round(n / seconds)} facts/s)`);
      return { seconds, perSecond: n / seconds };
    } finally {
      await peer.stop();
    }
  } finally {
    await pg.stop();
  }
}

const table = [];
for (let run = 1; run <= runs; run++) {
  const floor = await neo4jFloor(run);
  const spice = await spicedbLoad(run);
  table.push({ floor, spice });
}
console.log(
  `edges by ${kernel ? 'graphauthz.importLinks (the kernel)' : 'Cypher'}; dataset: ${facts} facts, ${ds.userKeys.length + ds.repoKeys.length + ds.groups.length} records; batches of ${batch}, ${loaders} loaders`,
);
console.log('run | SpiceDB load s | Neo4j floor round 1: facts s (records s) | ratio to SpiceDB | round 2+: facts s | ratio');
for (const [i, { floor, spice }] of table.entries()) {
  const warm = floor.slice(1).map((r) => r.facts);
  console.log(
    `${i + 1} | ${spice.seconds.toFixed(2)} | ${floor[0].facts.toFixed(2)} (${floor[0].records.toFixed(2)}) | ${(spice.seconds / floor[0].facts).toFixed(2)}x | ` +
      `${warm.map((s) => s.toFixed(2)).join(', ')} | ${warm.map((s) => `${(spice.seconds / s).toFixed(2)}x`).join(', ')}`,
  );
}
const col = (f) => median(table.map(f)).toFixed(2);
console.log(
  `median: facts alone, round 1 ${col((t) => t.spice.seconds / t.floor[0].facts)}x SpiceDB's load; with the records ${col((t) => t.spice.seconds / t.floor[0].seconds)}x; ` +
    (rounds > 1
      ? `warm (last round) ${col((t) => t.spice.seconds / t.floor.at(-1).facts)}x, with the records ${col((t) => t.spice.seconds / t.floor.at(-1).seconds)}x`
      : ''),
);
