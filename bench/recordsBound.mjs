// What a write procedure for the records could save the bulk API: `npm run build && node bench/recordsBound.mjs`.
// The bench dataset's 10,000 users and 20,000 repos (resource instances of tenant `default`),
// in the loader's batches (BENCH_BATCH, 1,000) with its two loaders, written three ways into a
// freshly started Neo4j (the launcher's JVM flags, the walk extension loaded), as bench:peers loads,
// then again warm (new keys, same Neo4j):
//   api        POST .../users/bulk and .../resource_instances/bulk, as bench:peers loads them;
//   statement  the same statements the service runs for them (cypher/facts/createUsers,
//              cypher/schema/createInstances), straight through the Bolt driver, one transaction a
//              batch: no HTTP, no validation, no lock of ours, no revision, no change set;
//   kernel     graphauthz.importRecords (and graphauthz.importLinks for each instance's IN_TENANT
//              link, in the same transaction): the kernel's API, no check that a key is free. What
//              a write procedure of the records could at best reach.
// Each way on a Neo4j of its own, started fresh; BENCH_RUNS (3) rotates the order; each ratio is
// against the api figure of its own run.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset } from './dataset.mjs';
import { inBatches, median } from './http.mjs';
import { benchJvmArgs, root, startOurs } from './ours.mjs';

const require = createRequire(import.meta.url);
const { CypherRegistry } = require(join(root, 'dist', 'src', 'db', 'cypherRegistry.js'));
const registry = new CypherRegistry(join(root, 'cypher'));
const runs = Number(process.env.BENCH_RUNS ?? 3);
const batch = Number(process.env.BENCH_BATCH ?? 1000);
const loaders = Number(process.env.BENCH_LOADERS ?? 2);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7745);
const dataDir = join(root, '.neo4j', `bench-records-${neo4jPort}`);
const ds = buildDataset();
const WAYS = ['api', 'statement', 'kernel'];

/** Writes users then repos (keys prefixed by `prefix`) one way; answers the seconds of each. */
async function writeRecords(way, ours, driver, env, tenantId, prefix) {
  const users = ds.userKeys.map((k) => `${prefix}${k}`);
  const repos = ds.repoKeys.map((k) => `${prefix}${k}`);
  const facts = `/v2/facts/${ours.project}/bench`;
  const inTx = (fn) => {
    const session = driver.session();
    return session.executeWrite(fn).finally(() => session.close());
  };
  const row = (key, labels, extra, nowIso) => ({
    labels,
    props: { key, id: randomUUID(), attributes_json: '{}', created_at: nowIso, updated_at: nowIso, ...extra },
  });
  const write = {
    api: {
      users: (keys) => ours.api('POST', `${facts}/users/bulk`, { operations: keys.map((key) => ({ key })) }),
      repos: (keys) =>
        ours.api('POST', `${facts}/resource_instances/bulk`, {
          operations: keys.map((key) => ({ key, resource: 'repo', tenant: 'default' })),
        }),
    },
    statement: {
      users: (keys) =>
        inTx((tx) =>
          tx.run(registry.get('facts/createUsers'), {
            env,
            nowIso: new Date().toISOString(),
            items: keys.map((key) => ({ key, email: null, first_name: null, last_name: null, attributes: '{}' })),
          }),
        ),
      repos: (keys) =>
        inTx((tx) =>
          tx.run(registry.get('schema/createInstances'), {
            env,
            nowIso: new Date().toISOString(),
            items: keys.map((key) => ({ key, resource: 'repo', tenant: 'default', attributes: '{}' })),
          }),
        ),
    },
    kernel: {
      users: (keys) => {
        const nowIso = new Date().toISOString();
        return inTx((tx) =>
          tx.run('CALL graphauthz.importRecords($env, $rows) YIELD created RETURN created', {
            env,
            rows: keys.map((key) => row(key, ['User', 'InEnv'], {}, nowIso)),
          }),
        );
      },
      repos: (keys) => {
        const nowIso = new Date().toISOString();
        const rows = keys.map((key) => row(key, ['Instance', 'InEnv'], { resource: 'repo', tenant: 'default' }, nowIso));
        return inTx(async (tx) => {
          await tx.run('CALL graphauthz.importRecords($env, $rows) YIELD created RETURN created', { env, rows });
          await tx.run('CALL graphauthz.importLinks($env, $links) YIELD created RETURN created', {
            env,
            links: rows.map((r) => ({ type: 'IN_TENANT', from: r.props.id, to: tenantId, props: {} })),
          });
        });
      },
    },
  }[way];
  let mark = Date.now();
  await inBatches(users, batch, loaders, write.users);
  const usersS = (Date.now() - mark) / 1000;
  mark = Date.now();
  await inBatches(repos, batch, loaders, write.repos);
  return { users: usersS, repos: (Date.now() - mark) / 1000 };
}

/** Counts what a way wrote: every user and repo of the prefix, each repo linked to its tenant. */
async function check(driver, env, prefix) {
  const { records } = await driver.executeQuery(
    `MATCH (n:InEnv {env: $env}) WHERE n.key STARTS WITH $prefix AND (n:User OR n:Instance)
     RETURN count(CASE WHEN n:User THEN 1 END) AS users,
            count(CASE WHEN n:Instance AND EXISTS { (n)-[:IN_TENANT]->(:Tenant {key: 'default'}) } THEN 1 END) AS repos`,
    { env, prefix },
  );
  const users = records[0].get('users').toNumber();
  const repos = records[0].get('repos').toNumber();
  if (users !== ds.userKeys.length || repos !== ds.repoKeys.length)
    throw new Error(`wrote ${users} users and ${repos} linked repos, not ${ds.userKeys.length} and ${ds.repoKeys.length}`);
}

async function oneWay(way) {
  rmSync(dataDir, { recursive: true, force: true });
  const neo = await startLocalNeo4j({ port: neo4jPort, dataDir, jvmArgs: benchJvmArgs(), log: () => undefined });
  const ours = await startOurs({ port: Number(process.env.BENCH_PORT ?? 18097), neo4jPort, concurrency: 16 });
  const driver = neo4j.driver(`bolt://127.0.0.1:${neo4jPort}`, neo4j.auth.basic('neo4j', 'neo4j'));
  try {
    const { records } = await driver.executeQuery(
      `MATCH (p:Project {key: $p}) MATCH (e:Environment {project_id: p.id, key: 'bench'})
       MATCH (t:Tenant {env: e.id, key: 'default'}) RETURN e.id AS env, t.id AS tenant`,
      { p: ours.project },
    );
    const env = records[0].get('env');
    const tenantId = records[0].get('tenant');
    await ours.api('POST', `/v2/schema/${ours.project}/bench/resources`, { key: 'repo', name: 'Repository', actions: { pull: {} } });
    const first = await writeRecords(way, ours, driver, env, tenantId, 'a-');
    await check(driver, env, 'a-');
    const warm = await writeRecords(way, ours, driver, env, tenantId, 'b-');
    await check(driver, env, 'b-');
    return { first, warm };
  } finally {
    await driver.close();
    await ours.stop();
    await neo.stop();
  }
}

// Each way's records time over the bulk API's of the same run.
const OTHERS = WAYS.filter((w) => w !== 'api');
const figures = Object.fromEntries(OTHERS.map((w) => [w, []]));
for (let run = 0; run < runs; run++) {
  const order = WAYS.map((_, i) => WAYS[(i + run) % WAYS.length]);
  const got = {};
  for (const way of order) {
    got[way] = await oneWay(way);
    const { first, warm } = got[way];
    console.log(
      `run ${run + 1} ${way.padEnd(9)} first: users ${first.users.toFixed(2)} s, repos ${first.repos.toFixed(2)} s; warm: users ${warm.users.toFixed(2)} s, repos ${warm.repos.toFixed(2)} s`,
    );
  }
  for (const way of OTHERS) {
    const total = (x) => x.users + x.repos;
    figures[way].push({ first: total(got[way].first) / total(got.api.first), warm: total(got[way].warm) / total(got.api.warm) });
  }
}
console.log(`\nthe records' time against the bulk API's in the same run (median of ${runs}; below 1 is faster):`);
for (const way of OTHERS) {
  const f = figures[way];
  console.log(
    `  ${way.padEnd(9)} first load ${median(f.map((x) => x.first)).toFixed(2)}x (${f.map((x) => x.first.toFixed(2)).join(', ')}), warm ${median(f.map((x) => x.warm)).toFixed(2)}x (${f.map((x) => x.warm.toFixed(2)).join(', ')})`,
  );
}
