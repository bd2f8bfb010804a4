// Soak and crash test (not part of `npm test`): the compiled service on its own Neo4j under a
// mixed load (80% checks, 20% writes: role assignments added and removed, group memberships
// added and removed, bulk assignments, approvals requested and approved) at a fixed concurrency
// for SOAK_SECONDS. Every SOAK_REPORT_SECONDS it prints throughput, p99 and the service's RSS.
// Half-way it kills Neo4j with SIGKILL and restarts it on the same data. At the end it sends
// SIGTERM to the service under load (in-flight requests must finish), then checks in the graph
// that every acknowledged write is there (and every acknowledged removal gone) and that no bulk
// write is half-applied. Exits 1 when a check fails.
//   npm run soak              SOAK_SECONDS=60 npm run soak
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4jDriver from 'neo4j-driver';
import { isPortOpen, pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 16);
const reportEvery = Number(process.env.SOAK_REPORT_SECONDS ?? 30);
/** RSS growth is measured from the first report after this much load (JIT, pools, caches filling). */
const warmUpSeconds = Number(process.env.SOAK_WARMUP_SECONDS ?? 60);
/** Small enough to fill during the warm-up (480 users x 300 docs), so that growth after it is not the cache filling up. */
const decisionCacheSize = process.env.DECISION_CACHE_SIZE ?? '5000';
const neo4jPort = Number(process.env.SOAK_NEO4J_PORT ?? 7853);
const port = Number(process.env.SOAK_PORT ?? 18093);
const dbTimeoutMs = Number(process.env.DB_TIMEOUT_MS ?? 4000);
/**
 * Errors are expected from the kill until this long after Neo4j is back: the driver reconnects,
 * and a restarted Neo4j answers slowly until its JVM is warm again. The bound a deployment is
 * held to: every error within 30 s of Neo4j's return (SOAK_RECOVERY_MS to change it).
 */
const recoveryGraceMs = Number(process.env.SOAK_RECOVERY_MS ?? 30_000);
const DOCS = 300;
const GROUPS = 10;
const USERS_PER_WORKER = 30;

const started = Date.now();
const at = () => ((Date.now() - started) / 1000).toFixed(1);
const log = (msg) => console.log(`[soak ${at().padStart(6)} s] ${msg}`);
const pick = (n) => Math.floor(Math.random() * n);

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 4 });
/** One HTTP call; answers {status, body, headers}; a network error answers status 0. */
function call(method, path, body, headers = {}, onSent) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode, body: parsed, headers: res.headers });
        });
      },
    );
    req.on('error', (err) => resolve({ status: 0, body: err.message, headers: {} }));
    if (onSent) req.on('finish', onSent);
    req.end(payload);
  });
}
const ok = (r) => r.status >= 200 && r.status < 300;

/** Latencies and outcomes per report window; errors with their time, for the outage check. */
const stats = { window: [], errors: [], total: 0, failed: 0 };
function record(op, t0, r) {
  const ms = Date.now() - t0;
  stats.total++;
  stats.window.push(ms);
  if (!ok(r)) {
    stats.failed++;
    stats.errors.push({
      t: Date.now(),
      op,
      status: r.status,
      body: typeof r.body === 'string' ? r.body.slice(0, 120) : `${r.body?.error_code}: ${String(r.body?.message).slice(0, 100)}`,
    });
  }
  return r;
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  const dataDir = join(root, '.neo4j', `soak-data-${neo4jPort}`);
  // A Neo4j already started on this port and data (to keep its start out of the run) is reused.
  if (!(await isPortOpen(neo4jPort))) rmSync(dataDir, { recursive: true, force: true });
  let neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined, timeoutMs: 900_000 });
  const adminKey = `soak_${randomBytes(16).toString('hex')}`;
  const service = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      NEO4J_URI: neo4j.uri,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      DB_TIMEOUT_MS: String(dbTimeoutMs),
      DECISION_CACHE_SIZE: decisionCacheSize,
      BOOTSTRAP_PROJECT: 'soak',
      BOOTSTRAP_ENV: 'soak',
      // One requester asks for an approval every few requests of a worker, thousands an hour: far
      // past the per-user bound (ELEMENTS_REQUESTS_PER_HOUR, 100), whose 429 is the product's answer
      // (test/http/elements-abuse.test.ts), not a refusal of load. The soak measures load, so it lifts it.
      ELEMENTS_REQUESTS_PER_HOUR: '1000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((ok) => service.on('exit', (code, signal) => ok({ code, signal })));
  try {
    // The service's log (warn and above: every 5xx with its cause) is kept for after the run.
    const serviceLog = createWriteStream(join(root, '.neo4j', `soak-service-${port}.log`));
    service.stdout.pipe(serviceLog);
    log(`the service's log: ${serviceLog.path}`);
    await new Promise((ok, fail) => {
      service.stdout.on('data', (c) => String(c).includes('is ready at') && ok());
      exited.then(({ code }) => fail(new Error(`service exited (${code})`)));
    });
    const world = await setUp(adminKey);
    log(
      `set up: ${DOCS} docs, ${GROUPS} groups, ${concurrency * USERS_PER_WORKER} users; load for ${seconds} s at concurrency ${concurrency}`,
    );

    // The load, the reports and the outage.
    let running = true;
    const outage = { killAt: 0, backAt: 0 };
    const loadStart = Date.now();
    const workers = Array.from({ length: concurrency }, (_, w) => worker(world, w, () => running));
    const rss = [];
    let reported = 0;
    const reporter = setInterval(() => {
      const sorted = stats.window.sort((a, b) => a - b);
      const p99 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] : 0;
      const mb = rssMb(service.pid);
      rss.push({ at: Date.now() - loadStart, mb });
      // This window's errors by operation and answer (`check 429 TOO_MANY_REQUESTS x12`), as they happen.
      const kinds = new Map();
      for (const e of stats.errors.slice(reported)) {
        const kind = `${e.op} ${e.status} ${e.body}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      reported = stats.errors.length;
      const these = [...kinds].map(([k, n]) => `${k} x${n}`).join('; ');
      log(
        `${(sorted.length / reportEvery).toFixed(0)} req/s, p99 ${p99} ms, errors so far ${stats.failed}, service RSS ${mb.toFixed(0)} MB` +
          (these ? ` (this window: ${these})` : ''),
      );
      stats.window = [];
    }, reportEvery * 1000);
    const crash = (async () => {
      await sleep((seconds * 1000) / 2);
      const pid = Number(readFileSync(pidFileFor(neo4jPort), 'utf8').trim());
      outage.killAt = Date.now();
      process.kill(pid, 'SIGKILL');
      log(`Neo4j (pid ${pid}) killed with SIGKILL`);
      await sleep(3000);
      neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined, timeoutMs: 900_000 });
      outage.backAt = Date.now();
      log(`Neo4j restarted on the same data (${((outage.backAt - outage.killAt) / 1000).toFixed(1)} s after the kill)`);
    })();
    await sleep(seconds * 1000);
    await crash;
    // At least 30 s of load after Neo4j is back: recovery is part of what is measured.
    await sleep(Math.max(0, outage.backAt + 30_000 - Date.now()));
    const loadSeconds = (Date.now() - loadStart) / 1000;
    running = false;
    await Promise.all(workers);
    clearInterval(reporter);
    const last = rssMb(service.pid);

    const shutdown = await sigtermUnderLoad(world, service, exited);
    const verdict = await verify(world, neo4j.uri);
    const outside = stats.errors.filter((e) => e.t < outage.killAt || e.t > outage.backAt + recoveryGraceMs);
    const inOutage = stats.errors.length - outside.length;
    const warm = (rss.find((r) => r.at >= warmUpSeconds * 1000) ?? rss[0])?.mb;
    const growth = warm ? (last - warm) / warm : 0;
    const lastError = stats.errors.length ? stats.errors[stats.errors.length - 1].t : 0;
    console.log('\nsummary');
    console.log(
      `requests ${stats.total} in ${loadSeconds.toFixed(0)} s (${(stats.total / loadSeconds).toFixed(0)}/s at concurrency ${concurrency}); ` +
        `errors ${stats.failed}: ${inOutage} in the outage window, ${outside.length} outside`,
    );
    if (outage.killAt)
      console.log(
        `outage: Neo4j down ${((outage.backAt - outage.killAt) / 1000).toFixed(1)} s; last error ${lastError ? ((lastError - outage.backAt) / 1000).toFixed(1) : '-'} s after it was back`,
      );
    for (const e of outside.slice(0, 5)) console.log(`  outside the window: ${e.op} -> ${e.status} ${JSON.stringify(e.body)}`);
    console.log(
      `RSS after ${warmUpSeconds} s of warm-up ${warm?.toFixed(0)} MB, at the end of the load ${last.toFixed(0)} MB: growth ${(growth * 100).toFixed(1)}% ` +
        `(decision cache ${decisionCacheSize} entries)`,
    );
    console.log(
      `acknowledged writes: ${verdict.checked} checked, ${verdict.lost.length} lost; bulk writes: ${verdict.bulks} acknowledged complete, ` +
        `${verdict.unacked} unacknowledged (${verdict.unackedApplied} applied whole), ${verdict.half.length} half-applied`,
    );
    for (const l of verdict.lost.slice(0, 5)) console.log(`  lost: ${l}`);
    console.log(
      `SIGTERM under load: ${shutdown.inFlight} requests in flight, ${shutdown.finished} finished with 2xx, exit ${JSON.stringify(shutdown.exit)}` +
        (shutdown.failures.length ? `; the others: ${[...new Set(shutdown.failures)].join(', ')}` : ''),
    );
    // A run of 15 minutes or more also checks that memory plateaus: the mean RSS of its last 5
    // minutes within 5% of the mean over its 10th minute (one sample swings with the GC by more).
    const mean = (xs) => xs.reduce((a, r) => a + r.mb, 0) / xs.length;
    const tenth = rss.filter((r) => r.at > 540_000 && r.at <= 600_000);
    const lastFive = rss.filter((r) => r.at >= loadSeconds * 1000 - 300_000);
    const plateau =
      loadSeconds >= 900 && tenth.length && lastFive.length ? Math.abs(mean(lastFive) - mean(tenth)) / mean(tenth) : undefined;
    if (plateau !== undefined)
      console.log(
        `RSS over the 10th minute ${mean(tenth).toFixed(0)} MB; over the last 5 minutes ${mean(lastFive).toFixed(0)} MB ` +
          `(samples ${Math.min(...lastFive.map((r) => r.mb)).toFixed(0)}-${Math.max(...lastFive.map((r) => r.mb)).toFixed(0)}): ` +
          `${(plateau * 100).toFixed(1)}% apart (bound 5%)`,
      );
    const pass =
      outside.length === 0 &&
      (plateau === undefined || plateau <= 0.05) &&
      verdict.lost.length === 0 &&
      verdict.half.length === 0 &&
      growth < 0.1 &&
      shutdown.finished === shutdown.inFlight &&
      shutdown.exit.code === 0;
    console.log(pass ? 'PASS' : 'FAIL');
    process.exitCode = pass ? 0 : 1;
  } finally {
    service.kill('SIGKILL');
    await neo4j.stop();
  }
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

async function setUp(adminKey) {
  const admin = { authorization: `Bearer ${adminKey}` };
  let key;
  // A fresh Neo4j on a busy box may take longer than DB_TIMEOUT_MS to plan its first statements:
  // the set-up (not measured) retries a 503, and a 409 after it means the first attempt was applied.
  const must = async (method, path, body, headers = key) => {
    for (let attempt = 1; ; attempt++) {
      const r = await call(method, path, body, headers);
      if (ok(r) || (attempt > 1 && r.status === 409)) return r;
      if (r.status !== 503 || attempt === 6) throw new Error(`set-up ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      log(`set-up ${method} ${path}: 503, retrying`);
    }
  };
  const {
    body: { secret },
  } = await must('POST', '/v2/api-key/soak/soak', { name: 'soak' }, admin);
  key = { authorization: `Bearer ${secret}` };
  const schema = '/v2/schema/soak/soak';
  const facts = '/v2/facts/soak/soak';
  await must('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
  await must('POST', `${schema}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await must('POST', `${schema}/resources/doc/roles`, { key: 'editor', name: 'Editor', permissions: ['read', 'write'] });
  await must('POST', `${schema}/roles`, { key: 'approver', name: 'Approver', permissions: [] });
  const users = Array.from(
    { length: concurrency * USERS_PER_WORKER },
    (_, i) => `w${Math.floor(i / USERS_PER_WORKER)}-u${i % USERS_PER_WORKER}`,
  );
  const lastUsers = Array.from({ length: concurrency }, (_, i) => `last-u${i}`);
  await must('POST', `${facts}/users/bulk`, { operations: [...users, ...lastUsers, 'requester', 'reviewer'].map((k) => ({ key: k })) });
  await must('POST', `${facts}/resource_instances/bulk`, {
    operations: Array.from({ length: DOCS }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' })),
  });
  await must('POST', `${schema}/groups/bulk`, {
    operations: Array.from({ length: GROUPS }, (_, g) => ({ group_instance_key: `g${g}`, group_tenant: 'default' })),
  });
  for (let g = 0; g < GROUPS; g++) {
    for (let d = 0; d < 3; d++)
      await must('POST', `${schema}/groups/g${g}/roles`, {
        resource: 'doc',
        resource_instance: `d${g * 3 + d}`,
        role: 'reader',
        tenant: 'default',
      });
  }
  await must('POST', `${facts}/role_assignments`, { user: 'requester', role: 'reader', tenant: 'default', resource_instance: 'doc:d0' });
  await must('POST', `${facts}/role_assignments`, { user: 'reviewer', role: 'approver', tenant: 'default' });
  const config = await must('POST', '/v2/elements/soak/soak/config', {
    key: 'ops',
    name: 'Ops approvals',
    elements_type: 'operation_approval',
    settings: { resources: ['doc'] },
    roles_to_levels: { LEVEL_1: ['approver'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  const session = async (user) => {
    const r = await must('POST', '/v2/auth/elements_login_as', { user_id: user, tenant_id: 'default' });
    return { authorization: `Bearer ${r.body.element_bearer_token}`, element_id: config.body.id };
  };
  const envId = (await must('GET', '/v2/api-key/scope', undefined)).body.environment_id;
  return {
    key,
    schema,
    facts,
    users,
    lastUsers,
    envId,
    approvals: `/v2/elements/soak/soak/config/${config.body.id}/operation_approval`,
    requester: await session('requester'),
    reviewer: await session('reviewer'),
    /** Expected final state of every write a worker made: "present", "absent" (acknowledged) or "unknown" (not acknowledged). */
    state: new Map(),
    bulks: [],
    approved: new Map(),
  };
}

/** One closed loop; it owns its users, so the writes on a given edge are sequential and their last acknowledged outcome is the truth. */
async function worker(world, w, running) {
  const mine = world.users.filter((u) => u.startsWith(`w${w}-`));
  let bulkNo = 0;
  const edge = (user, role, target) => `${user}|${role}|${target}`;
  const set = (k, r, value) => world.state.set(k, ok(r) ? value : 'unknown');
  const withState = (value, role) =>
    [...world.state].filter(([k, v]) => v === value && k.startsWith(`w${w}-`) && k.split('|')[1] === role).map(([k]) => k);
  while (running()) {
    const t0 = Date.now();
    const roll = Math.random();
    if (roll < 0.8) {
      const user = Math.random() < 0.5 ? mine[pick(mine.length)] : world.users[pick(world.users.length)];
      record(
        'check',
        t0,
        await call('POST', '/v2/allowed/soak/soak', { user, action: 'read', resource: { type: 'doc', key: `d${pick(DOCS)}` } }, world.key),
      );
    } else if (roll < 0.86) {
      const [user, doc] = [mine[pick(mine.length)], `d${pick(DOCS)}`];
      const k = edge(user, 'reader', `doc:${doc}`);
      if (world.state.has(k) && world.state.get(k) !== 'absent') continue;
      const r = record(
        'assign',
        t0,
        await call(
          'POST',
          `${world.facts}/role_assignments`,
          { user, role: 'reader', tenant: 'default', resource_instance: `doc:${doc}` },
          world.key,
        ),
      );
      set(k, r, 'present');
    } else if (roll < 0.9) {
      const present = withState('present', 'reader');
      if (!present.length) continue;
      const k = present[pick(present.length)];
      const [user, , target] = k.split('|');
      const r = record(
        'unassign',
        t0,
        await call(
          'DELETE',
          `${world.facts}/role_assignments`,
          { user, role: 'reader', tenant: 'default', resource_instance: target },
          world.key,
        ),
      );
      set(k, r, 'absent');
    } else if (roll < 0.93) {
      const [user, g] = [mine[pick(mine.length)], `g${pick(GROUPS)}`];
      const k = edge(user, 'member', `group:${g}`);
      if (world.state.has(k) && world.state.get(k) !== 'absent') continue;
      const r = record('join', t0, await call('PUT', `${world.schema}/groups/${g}/users/${user}`, { tenant: 'default' }, world.key));
      set(k, r, 'present');
    } else if (roll < 0.95) {
      const members = withState('present', 'member');
      if (!members.length) continue;
      const k = members[pick(members.length)];
      const [user, , target] = k.split('|');
      const r = record(
        'leave',
        t0,
        await call('DELETE', `${world.schema}/groups/${target.slice('group:'.length)}/users/${user}`, { tenant: 'default' }, world.key),
      );
      set(k, r, 'absent');
    } else if (roll < 0.98) {
      // Ten editor assignments at once, on edges no other write touches: all or none.
      const n = bulkNo++;
      const ops = Array.from({ length: 10 }, (_, i) => ({
        user: mine[(n * 10 + i) % mine.length],
        role: 'editor',
        tenant: 'default',
        resource_instance: `doc:d${(Math.floor((n * 10 + i) / mine.length) * 7 + i) % DOCS}`,
      }));
      const keys = [...new Set(ops.map((o) => edge(o.user, 'editor', o.resource_instance)))];
      if (keys.length < 10 || keys.some((k) => world.state.has(k))) continue;
      const r = record('bulk', t0, await call('POST', `${world.facts}/role_assignments/bulk`, ops, world.key));
      for (const k of keys) world.state.set(k, 'bulk');
      world.bulks.push({ keys, acknowledged: ok(r) });
    } else {
      const created = record(
        'request',
        t0,
        await call(
          'POST',
          world.approvals,
          { access_request_details: { tenant: 'default', resource: 'doc' }, reason: 'soak' },
          world.requester,
        ),
      );
      if (!ok(created)) continue;
      world.approved.set(created.body.id, null);
      const r = record('approve', Date.now(), await call('PUT', `${world.approvals}/${created.body.id}/approve`, {}, world.reviewer));
      world.approved.set(created.body.id, ok(r) ? 'approved' : 'unknown');
    }
  }
}

/** Requests in flight when SIGTERM arrives must all finish; the service then exits 0. */
async function sigtermUnderLoad(world, service, exited) {
  const n = concurrency * 2;
  let sent = 0;
  let signalled;
  const allSent = new Promise((ok) => (signalled = ok));
  const onSent = () => ++sent === n && signalled();
  const answers = Array.from({ length: n }, (_, i) => {
    if (i % 2)
      return call(
        'POST',
        '/v2/allowed/soak/soak',
        { user: world.users[i], action: 'read', resource: { type: 'doc', key: `d${i}` } },
        world.key,
        onSent,
      );
    // Users no worker touched: each of these writes is the only one on its edge.
    const [user, doc] = [world.lastUsers[i / 2], `d${i}`];
    const k = `${user}|reader|doc:${doc}`;
    return call(
      'POST',
      `${world.facts}/role_assignments`,
      { user, role: 'reader', tenant: 'default', resource_instance: `doc:${doc}` },
      world.key,
      onSent,
    ).then((r) => (world.state.set(k, ok(r) ? 'present' : 'unknown'), r));
  });
  await allSent;
  await sleep(20); // let the server read them
  const termAt = Date.now();
  service.kill('SIGTERM');
  const results = await Promise.all(answers.map((a) => a.then((r) => ({ ...r, after: Date.now() - termAt }))));
  const failures = results
    .filter((r) => !ok(r))
    .map(
      (r) =>
        `${r.status} ${typeof r.body === 'string' ? r.body.slice(0, 60) : r.body?.error_code} ${(r.after / 1000).toFixed(0)} s after SIGTERM`,
    );
  return { inFlight: n, finished: results.filter(ok).length, failures, exit: await exited };
}

/** Every acknowledged write is in the graph, every acknowledged removal is not, every bulk is whole or absent. */
async function verify(world, uri) {
  const driver = neo4jDriver.driver(uri, neo4jDriver.auth.basic('neo4j', 'neo4j'), { disableLosslessIntegers: true });
  try {
    const session = driver.session({ defaultAccessMode: neo4jDriver.session.READ });
    const edges = await session.run(
      `MATCH (u:User {env: $env})-[r:HAS_ROLE]->(i:Instance {env: $env})
       RETURN u.key + '|' + r.role + '|' + i.resource + ':' + i.key AS edge`,
      { env: world.envId },
    );
    const approvals = await session.run(`MATCH (a:OperationApproval {env: $env}) RETURN a.id AS id, a.status AS status`, {
      env: world.envId,
    });
    await session.close();
    const inGraph = new Set(edges.records.map((r) => r.get('edge')));
    const statusOf = new Map(approvals.records.map((r) => [r.get('id'), r.get('status')]));
    const lost = [];
    let checked = 0;
    for (const [k, v] of world.state) {
      if (v === 'present' || v === 'absent') checked++;
      if (v === 'present' && !inGraph.has(k)) lost.push(`${k} acknowledged, missing`);
      if (v === 'absent' && inGraph.has(k)) lost.push(`${k} removal acknowledged, still there`);
    }
    for (const [id, v] of world.approved) {
      checked++;
      if (!statusOf.has(id)) lost.push(`approval ${id} acknowledged, missing`);
      else if (v === 'approved' && statusOf.get(id) !== 'approved') lost.push(`approval ${id} approved, status ${statusOf.get(id)}`);
    }
    const half = [];
    let unackedApplied = 0;
    for (const b of world.bulks) {
      const present = b.keys.filter((k) => inGraph.has(k)).length;
      if (b.acknowledged) checked += b.keys.length;
      if (present !== 0 && present !== b.keys.length) half.push(b);
      else if (b.acknowledged && present === 0) lost.push(`bulk ${b.keys[0]}.. acknowledged, missing`);
      else if (!b.acknowledged && present) unackedApplied++;
    }
    return {
      checked,
      lost,
      half,
      bulks: world.bulks.filter((b) => b.acknowledged).length,
      unacked: world.bulks.filter((b) => !b.acknowledged).length,
      unackedApplied,
    };
  } finally {
    await driver.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
