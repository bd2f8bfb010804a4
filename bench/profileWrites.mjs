// The statements of one write of each kind, PROFILEd on the graph bench/writeCost.mjs keeps
// (BENCH_NEO4J_DATA, default .neo4j/write-cost-data; through /work/tools/testslot), with the
// parameters the service sends, each in a transaction rolled back: db hits and rows per operator.
// Then where a write transaction's time goes, step by step (its statements, the revision bump,
// the change record, the commit), alone and with PROFILE_IN_FLIGHT (default 6) on one environment.
import os from 'node:os';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { root } from './ours.mjs';

const { CypherRegistry } = await import(join(root, 'dist/src/db/cypherRegistry.js')).then((m) => m.default ?? m);
const reg = new CypherRegistry(join(root, 'cypher'));
const port = Number(process.env.TEST_NEO4J_PORT ?? 7747);
const dataDir = process.env.BENCH_NEO4J_DATA ?? join(root, '.neo4j', 'write-cost-data');
const server = await startLocalNeo4j({ port, dataDir, log: () => undefined });
const driver = neo4j.driver(server.uri, neo4j.auth.basic('neo4j', 'neo4j'), { disableLosslessIntegers: true });
const int = (p) =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'number' && Number.isInteger(v) ? neo4j.int(v) : v]));

function walkPlan(plan, depth, out) {
  const args = plan.arguments ?? {};
  out.push(
    `${'  '.repeat(depth)}${plan.operatorType.padEnd(40 - 2 * depth)} rows ${String(plan.rows).padStart(7)}  db hits ${String(plan.dbHits).padStart(8)}  ${String(args.Details ?? '').slice(0, 110)}`,
  );
  for (const c of plan.children ?? []) walkPlan(c, depth + 1, out);
}
const totalHits = (plan) => plan.dbHits + (plan.children ?? []).reduce((s, c) => s + totalHits(c), 0);

try {
  const s = driver.session();
  const envId = (
    await s.run("MATCH (:Project {key: 'bench'})-[:HAS_ENV]->(e:Environment {key: 'bench'}) RETURN e.id AS id")
  ).records[0].get('id');
  const users = (
    await s.run('MATCH (u:User {env: $env}) WHERE u.key STARTS WITH "user" RETURN u.key AS k LIMIT 3', { env: envId })
  ).records.map((r) => r.get('k'));
  const repo = (await s.run("MATCH (i:Instance {env: $env, resource: 'repo'}) RETURN i.key AS k LIMIT 1", { env: envId })).records[0].get(
    'k',
  );
  const group = (await s.run("MATCH (i:Instance {env: $env, resource: 'group'}) RETURN i.key AS k LIMIT 1", { env: envId })).records[0].get(
    'k',
  );
  console.log(`environment ${envId}; users ${users.join(', ')}; repo ${repo}; group ${group}`);
  await s.close();
  const nowIso = new Date().toISOString();
  const key = `prof-${Date.now()}`;
  const item = (u, resource, instance, role) => ({ user: u, role, tenant: 'default', resource, instance });
  const cols = (items) => ({
    users: [...new Set(items.map((a) => a.user))],
    userOf: items.map(() => 0),
    roles: items.map((a) => a.role),
    tenants: items.map((a) => a.tenant),
    resources: items.map((a) => a.resource),
    instances: items.map((a) => a.instance),
    expires: items.map(() => null),
    resourceKeys: [...new Set(items.map((a) => a.resource))],
  });
  const grant = item(users[0], 'repo', repo, 'viewer');
  const member = item(users[1], 'group', group, 'member');
  const change = {
    at: nowIso,
    actor_kind: 'api_key',
    actor_id: 'x',
    ops: ['create'],
    kinds: ['user'],
    keys: [key],
    befores: [''],
    afters: ['{}'],
  };
  const cases = [
    ['facts/createUser', { env: envId, id: key, key, email: null, first_name: null, last_name: null, attributes: '{}', nowIso }],
    ['facts/getUser', { env: envId, ref: users[0] }],
    [
      'facts/updateUser',
      {
        env: envId,
        key: users[0],
        set: { email: false, first_name: false, last_name: false },
        email: null,
        first_name: null,
        last_name: null,
        attributes: '{"level":1}',
        nowIso,
      },
    ],
    ['facts/deleteUser', { env: envId, key: users[2] }],
    ['assignments/resolveAssignments', { env: envId, items: [grant] }],
    ['assignments/assignInstanceRoles', { env: envId, nowIso, nowMs: Date.now(), ...cols([grant]) }],
    ['assignments/assignInstanceRoles', { env: envId, nowIso, nowMs: Date.now(), ...cols([member]) }],
    [
      'assignments/listRoleAssignments',
      {
        env: envId,
        users: [grant.user],
        roles: ['viewer'],
        tenants: ['default'],
        resource: 'repo',
        instance: repo,
        instanceId: null,
        tenantLevelOnly: false,
        skip: 0,
        limit: 1,
      },
    ],
    [
      'assignments/listRoleAssignments',
      {
        env: envId,
        users: null,
        roles: null,
        tenants: null,
        resource: 'repo',
        instance: repo,
        instanceId: null,
        tenantLevelOnly: false,
        skip: 0,
        limit: 10,
      },
    ],
    [
      'assignments/listRoleAssignments',
      {
        env: envId,
        users: null,
        roles: null,
        tenants: null,
        resource: null,
        instance: null,
        instanceId: null,
        tenantLevelOnly: false,
        skip: 0,
        limit: 10,
      },
    ],
    ['assignments/unassignRoles', { env: envId, items: [grant] }],
    ['revisions/bumpRevision', { envId }],
    ['changes/recordChanges', { env: envId, revision: 1, ...change }],
  ];
  for (const [name, params] of process.env.PROFILE_SKIP_PLANS
    ? []
    : cases.filter(([n]) => !process.env.PROFILE_ONLY || n.includes(process.env.PROFILE_ONLY))) {
    let text;
    try {
      text = reg.get(name);
    } catch (err) {
      console.log(`${name}: ${err.message}`);
      continue;
    }
    const ses = driver.session();
    const tx = await ses.beginTransaction();
    try {
      const t = performance.now();
      const res = await tx.run(`PROFILE ${text}`, int(params));
      const ms = performance.now() - t;
      const plan = res.summary.profile;
      const out = [];
      walkPlan(plan, 0, out);
      console.log(`\n== ${name}: ${totalHits(plan)} db hits, ${ms.toFixed(1)} ms\n${out.join('\n')}`);
    } catch (err) {
      console.log(`\n== ${name}: ${String(err.message).slice(0, 300)}`);
    } finally {
      await tx.rollback();
      await ses.close();
    }
  }

  // Where a write's time goes: create a user, then the end of the transaction in one of three shapes
  // (`split`: the revision bumped, then the change set created, as before 25a768c; `one`: both in one
  // statement, changes/recordAtNextRevision; `unlocked`: the change set alone, no revision, no lock),
  // then the commit; alone, then several at once. The steps' times are medians (p90).
  const recordSplit = `CREATE (:ChangeSet {env: $env, revision: $revision, at: $at, actor_kind: $actor_kind, actor_id: $actor_id,
    n: size($ops), ops: $ops, kinds: $kinds, keys: $keys, befores: $befores, afters: $afters})`;
  const steps = async (i, shape, flight, round) => {
    const ses = driver.session();
    const t = [performance.now()];
    const tx = await ses.beginTransaction();
    const k = `${key}-${shape}${flight}-${round}-${i}`;
    await tx.run(
      reg.get('facts/createUser'),
      int({ env: envId, id: k, key: k, email: null, first_name: null, last_name: null, attributes: '{}', nowIso }),
    );
    t.push(performance.now());
    const params = int({ env: envId, ...change, keys: [k] });
    if (shape === 'split') {
      const rev = (await tx.run(reg.get('revisions/bumpRevision'), { envId })).records[0].get('revision');
      await tx.run(recordSplit, { ...params, revision: neo4j.int(rev) });
    } else if (shape === 'one') await tx.run(reg.get('changes/recordAtNextRevision'), params);
    else await tx.run(recordSplit, { ...params, revision: neo4j.int(-1 - i - 1000 * flight - 100_000 * round) });
    t.push(performance.now());
    await tx.commit();
    t.push(performance.now());
    await ses.close();
    return t.slice(1).map((x, j) => x - t[j]);
  };
  const n = Number(process.env.PROFILE_WRITES ?? 60);
  for (const flight of n > 0 ? [1, Number(process.env.PROFILE_IN_FLIGHT ?? 6)] : []) {
    for (const [round, shape] of ['split', 'one', 'unlocked', 'split', 'one'].entries()) {
      const all = [];
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: flight }, async () => {
          while (next < n) all.push(await steps(next++, shape, flight, round));
        }),
      );
      const secs = (performance.now() - t0) / 1000;
      const at = (j, q) => all.map((x) => x[j]).sort((a, b) => a - b)[Math.floor(all.length * q)];
      const f = (j) => `${at(j, 0.5).toFixed(1)} (${at(j, 0.9).toFixed(1)})`;
      console.log(
        `in flight ${flight}, ${shape.padEnd(8)}: ${(n / secs).toFixed(0).padStart(3)} writes/s; ms: create ${f(0)}, revision and change set ${f(1)}, commit ${f(2)}  (load average ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')})`,
      );
    }
  }
  const c = driver.session();
  await c.run('MATCH (u:User {env: $env}) WHERE u.key STARTS WITH $key DETACH DELETE u', { env: envId, key });
  await c.run('MATCH (c:ChangeSet {env: $env}) WHERE c.revision < 0 DELETE c', { env: envId });
  await c.close();
} finally {
  await driver.close();
  await server.stop();
}
