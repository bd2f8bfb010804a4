// Neo4j's side of the bulk writes, statement by statement (a profiling aid, not a benchmark): loads
// the bench dataset (BENCH_SCALE, 0.25) through the API, then writes new batches of role
// assignments and tuples (PROF_BATCH items, 1,000) straight through the driver with each
// statement the service runs for them, each batch a committed transaction of its own, and prints
// Neo4j's CPU a row and each statement's PROFILE (rolled back).
//   npm run build && node bench/writeProfile.mjs   (alone on the box: it starts a Neo4j)
// PROF_ONLY=name,name: only those variants.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { buildDataset, mulberry32 } from './dataset.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';

const require = createRequire(import.meta.url);
const { CypherRegistry } = require(join(root, 'dist', 'src', 'db', 'cypherRegistry.js'));
const { columnsOf } = require(join(root, 'dist', 'src', 'areas', 'assignments', 'store.js'));
const registry = new CypherRegistry(join(root, 'cypher'));
const scale = Number(process.env.BENCH_SCALE ?? 0.25);
const batch = Number(process.env.PROF_BATCH ?? 1000);
const batches = Number(process.env.PROF_BATCHES ?? 8);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? process.env.TEST_NEO4J_PORT ?? 7749);
const only = process.env.PROF_ONLY?.split(',');

const ours = await startOurs({ port: Number(process.env.BENCH_PORT ?? 18098), neo4jPort, concurrency: 16 });
const driver = neo4j.driver(`bolt://127.0.0.1:${neo4jPort}`, neo4j.auth.basic('neo4j', 'neo4j'));
try {
  const ds = buildDataset({
    users: Math.round(10_000 * scale),
    chains: Math.max(10, Math.round(200 * scale)),
    repos: Math.round(20_000 * scale),
  });
  await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
  const session = driver.session();
  const env = (
    await session.run('MATCH (p:Project {key: $p}) MATCH (e:Environment {project_id: p.id, key: "bench"}) RETURN e.id AS id', {
      p: ours.project,
    })
  ).records[0].get('id');
  const rnd = mulberry32(4242);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const nowIso = new Date().toISOString();
  const common = { env, nowIso, nowMs: neo4j.int(Date.parse(nowIso)) };
  const assignments = () =>
    Array.from({ length: batch }, () => ({
      user: pick(ds.userKeys),
      role: rnd() < 0.3 ? 'editor' : 'viewer',
      tenant: 'default',
      resource: 'repo',
      instance: pick(ds.repoKeys),
      expires_at: null,
    })).sort((a, b) => (a.instance < b.instance ? -1 : a.instance > b.instance ? 1 : 0));
  // The columns the store sends (src/areas/assignments/store.ts), from the build.
  const columns = columnsOf;
  const tuples = () =>
    Array.from({ length: batch }, () => {
      const role = rnd() < 0.5 ? 'viewer' : 'editor';
      return {
        subject_type: 'group',
        subject_key: pick(ds.groups),
        relation: `group_${role}_group`,
        object_type: 'repo',
        object_key: pick(ds.repoKeys),
        tenant: 'default',
        expires_at: null,
      };
    }).sort((a, b) => (a.object_key < b.object_key ? -1 : 1));
  const variants = [
    { name: 'assignInstanceRoles', text: registry.get('assignments/assignInstanceRoles'), params: () => columns(assignments()) },
    {
      name: 'joinTenants',
      text: registry.get('assignments/joinTenants'),
      params: () => ({ members: [...new Set(assignments().map((a) => a.user))].map((user) => ({ user, tenant: 'default' })) }),
    },
    { name: 'createTuples', text: registry.get('assignments/createTuples'), params: () => ({ items: tuples(), objectTypes: ['repo'] }) },
    ...(process.env.PROF_IMPORT ? await importVariants() : []),
    ...(process.env.PROF_EXTRA ? (await import(process.env.PROF_EXTRA)).variants({ registry, assignments, columns, tuples, ds }) : []),
  ].filter((v) => !only || only.includes(v.name));

  /**
   * PROF_IMPORT=1: the environment's export (GET /v2/export) imported into a new one marked as
   * importing: its records once, then its links by each variant (removed again after each run).
   */
  async function importVariants() {
    const text = await (
      await fetch(`${ours.base}/v2/export/${ours.project}/bench`, { headers: { authorization: `Bearer ${ours.adminKey}` } })
    ).text();
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const nodes = lines.filter((l) => l.type === 'node').map((l) => ({ labels: [...new Set([...l.labels, 'InEnv'])], props: l.props }));
    const rels = lines.filter((l) => l.type === 'relationship').map((l) => ({ type: l.rel, from: l.from, to: l.to, props: l.props }));
    const target = `imp${Date.now()}`;
    const made = await fetch(`${ours.base}/v2/projects/${ours.project}/envs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ours.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: target, name: target }),
    });
    const envId = (await made.json()).id;
    await session.run("MATCH (e:Environment {id: $envId}) SET e.import_id = 'prof' WITH e MATCH (t:Tenant {env: $envId}) DETACH DELETE t", {
      envId,
    });
    const nodeText = registry.get('import/createNodes');
    let staged = 0;
    for (let i = 0; i < nodes.length; i += 5000) {
      const r = await session.executeWrite((t) =>
        t.run(nodeText, { env: envId, importId: 'prof', rows: nodes.slice(i, i + 5000), leaseUntil: neo4j.int(Date.now() + 600_000) }),
      );
      staged += r.records[0]?.get('created').toNumber() ?? 0;
    }
    if (staged !== nodes.length) throw new Error(`import profile: ${staged} of ${nodes.length} records staged in ${envId}`);
    console.log(`import profile into ${envId}: ${nodes.length} records, ${rels.length} links (batches of ${batch})`);
    let at = 0;
    const relBatch = () => {
      if (at + batch > rels.length) at = 0;
      const rows = rels.slice(at, at + batch);
      at += batch;
      return { env: envId, importId: 'prof', rows, leaseUntil: neo4j.int(Date.now() + 600_000) };
    };
    const clear = () => session.run('MATCH (a:InEnv {env: $envId})-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 10000 ROWS', { envId });
    const extra = process.env.PROF_IMPORT_EXTRA ? (await import(process.env.PROF_IMPORT_EXTRA)).variants({ registry }) : [];
    return [{ name: 'createRelationships', text: registry.get('import/createRelationships') }, ...extra].map((v) => ({
      ...v,
      params: relBatch,
      after: clear,
    }));
  }
  const printPlan = (p, depth = 0) => {
    const a = p.arguments ?? {};
    console.log(
      `${'  '.repeat(depth)}${p.operatorType} rows=${p.rows} dbHits=${p.dbHits}${a.Details ? ` ${String(a.Details).slice(0, 140)}` : ''}`,
    );
    for (const c of p.children ?? []) printPlan(c, depth + 1);
  };
  for (const v of variants) {
    // One PROFILE, rolled back.
    const tx = session.beginTransaction();
    const res = await tx.run(`PROFILE ${v.text}`, { ...common, ...v.params() });
    await tx.rollback();
    if (!process.env.PROF_QUIET) {
      console.log(`\n== ${v.name}: PROFILE (rolled back), ${res.summary.counters.updates().relationshipsCreated} relationships created`);
      printPlan(res.summary.profile);
    }
    await session.executeWrite((t) => t.run(v.text, { ...common, ...v.params() })); // planned once
    if (v.after) await v.after();
  }
  // Committed batches (PROF_ROLLBACK=1: rolled back), the variants in turn, PROF_ROUNDS rounds:
  // Neo4j's CPU and the wall time a row, the median of the rounds.
  const rounds = Number(process.env.PROF_ROUNDS ?? 3);
  const runs = new Map(variants.map((v) => [v.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      const c0 = cpuSeconds(ours.neoPid());
      const t0 = Date.now();
      let created = 0;
      for (let i = 0; i < batches; i++) {
        const params = { ...common, ...v.params() };
        if (process.env.PROF_ROLLBACK) {
          const t = session.beginTransaction();
          const r = await t.run(v.text, params);
          created += r.summary.counters.updates().relationshipsCreated;
          await t.rollback();
        } else {
          const r = await session.executeWrite((t) => t.run(v.text, params));
          created += r.summary.counters.updates().relationshipsCreated;
        }
      }
      runs.get(v.name).push({ cpu: cpuSeconds(ours.neoPid()) - c0, wall: (Date.now() - t0) / 1000, created });
      if (v.after) await v.after();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const rows = batches * batch;
  for (const v of variants) {
    const rs = runs.get(v.name);
    console.log(
      `== ${v.name}: ${batches} ${process.env.PROF_ROLLBACK ? 'rolled-back' : 'committed'} batches of ${batch}, ${rounds} rounds: Neo4j CPU ${rs.map((r) => ((r.cpu * 1e6) / rows).toFixed(0)).join('/')} µs a row (median ${((median(rs.map((r) => r.cpu)) * 1e6) / rows).toFixed(0)}), wall median ${((median(rs.map((r) => r.wall)) * 1e6) / rows).toFixed(0)} µs a row, ${rs[0].created} relationships created a round`,
    );
  }
  await session.close();
} finally {
  await driver.close();
  await ours.stop();
}
