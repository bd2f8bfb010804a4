// Benchmark: fair share between environments (docs/behaviour.md section 15, issue 29). One environment
// floods heavy questions (BENCH_FLOOD in flight, default 32: list-objects of a user with ~2,400
// objects, and explained checks); another asks plain checks. Prints the plain environment's
// p50/p99 idle and during the flood, their ratio (target: p99 within 2x), what the flood got
// back (200s, 429s, anything else), and the load generator's own headroom (its CPU share and
// event-loop delay: a saturated generator would inflate the latencies it reports). Asserts nothing.
//
//   npm run build && node bench/fairness.mjs
//
// Settings: BENCH_NEO4J_PORT (7857) and BENCH_PORT (7858), or BENCH_NEO4J_URI for a running
// Neo4j; BENCH_REQUESTS plain checks per phase (3000), BENCH_PLAIN_CONCURRENCY (4),
// BENCH_OBJECTS (2400), BENCH_CONSISTENCY of the plain checks (fully_consistent: every check asks
// Neo4j, as a cache miss does; `default` for the service's default). The service's own settings
// (HEAVY_QUERIES_PER_ENV, ADMISSION_WAIT_MS, ...) pass through from the environment.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { client, inBatches, measure } from './http.mjs';
import { root } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';

const requests = Number(process.env.BENCH_REQUESTS ?? 3000);
const plainConcurrency = Number(process.env.BENCH_PLAIN_CONCURRENCY ?? 4);
const floodInFlight = Number(process.env.BENCH_FLOOD ?? 32);
const objects = Number(process.env.BENCH_OBJECTS ?? 2400);
const consistency = process.env.BENCH_CONSISTENCY ?? 'fully_consistent';
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7857);
const port = Number(process.env.BENCH_PORT ?? 7858);

/** One request answering its status (a 429 is an outcome here, not a failure). */
function statusClient(base, token, connections) {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  return (path, body) =>
    new Promise((resolve) => {
      const payload = JSON.stringify(body);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path,
          agent,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          res.resume().on('end', () => resolve(res.statusCode));
        },
      );
      req.on('error', () => resolve('error'));
      req.end(payload);
    });
}

async function startService(neo4jUri, adminKey) {
  const proc = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      NEO4J_URI: neo4jUri,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_PROJECT: 'bench',
      BOOTSTRAP_ENV: 'bench',
      DB_TIMEOUT_MS: process.env.DB_TIMEOUT_MS ?? '30000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ok, fail) => {
    proc.stdout.on('data', (c) => String(c).includes('is ready at') && ok());
    proc.on('exit', (code) => fail(new Error(`service exited (${code})`)));
  });
  return proc;
}

/** An environment of project `bench` with a key, a `doc` type and a `reader` role. */
async function environment(admin, key) {
  await admin('POST', '/v2/projects/bench/envs', { key, name: key });
  const { secret } = await admin('POST', `/v2/api-key/bench/${key}`, { name: 'bench' });
  await admin('POST', `/v2/schema/bench/${key}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await admin('POST', `/v2/schema/bench/${key}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  return secret;
}

/** The bench process's CPU share and event-loop delay over a phase. */
function headroom() {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  return () => {
    loop.disable();
    const used = process.cpuUsage(cpu0);
    const wall = Number(process.hrtime.bigint() - t0) / 1e3;
    return { cpu: (used.user + used.system) / wall, loopP99: loop.percentile(99) / 1e6 };
  };
}

const fmt = (m) => `p50 ${m.p50.toFixed(2)} ms  p99 ${m.p99.toFixed(2)} ms  (${m.perSecond.toFixed(0)} checks/s)`;

async function main() {
  console.log(
    `machine: ${cpus().length} cores; plain checks: ${requests} per phase, ${plainConcurrency} in flight, consistency ${consistency}; flood: ${floodInFlight} in flight over ${objects} objects`,
  );
  let neo4j = { uri: process.env.BENCH_NEO4J_URI, stop: async () => undefined };
  if (!neo4j.uri) {
    const dataDir = join(root, '.neo4j', `bench-fairness-${neo4jPort}`);
    rmSync(dataDir, { recursive: true, force: true });
    neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
  }
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  let proc;
  try {
    proc = await startService(neo4j.uri, adminKey);
    const base = `http://127.0.0.1:${port}`;
    const admin = client(base, adminKey, 8);
    const run = randomBytes(3).toString('hex');
    const floodEnv = `flood_${run}`;
    const plainEnv = `plain_${run}`;

    // The flooding environment: one user reading `objects` docs (list-objects walks them all).
    const floodKey = await environment(admin, floodEnv);
    const docs = Array.from({ length: objects }, (_, i) => `d${String(i).padStart(5, '0')}`);
    await admin('POST', `/v2/facts/bench/${floodEnv}/users`, { key: 'heavy' });
    await inBatches(
      docs.map((key) => ({ key, resource: 'doc', tenant: 'default' })),
      500,
      2,
      (ops) => admin('POST', `/v2/facts/bench/${floodEnv}/resource_instances/bulk`, { operations: ops }),
    );
    await inBatches(
      docs.map((d) => ({ user: 'heavy', role: 'reader', tenant: 'default', resource_instance: `doc:${d}` })),
      500,
      2,
      (ops) => admin('POST', `/v2/facts/bench/${floodEnv}/role_assignments/bulk`, ops),
    );

    // The plain environment: 200 users, 100 docs, half the questions allowed.
    const plainKey = await environment(admin, plainEnv);
    const users = Array.from({ length: 200 }, (_, i) => `u${i}`);
    await admin('POST', `/v2/facts/bench/${plainEnv}/users/bulk`, { operations: users.map((key) => ({ key })) });
    await admin('POST', `/v2/facts/bench/${plainEnv}/resource_instances/bulk`, {
      operations: Array.from({ length: 100 }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' })),
    });
    await admin(
      'POST',
      `/v2/facts/bench/${plainEnv}/role_assignments/bulk`,
      users.map((user, i) => ({ user, role: 'reader', tenant: 'default', resource_instance: `doc:d${i % 50}` })),
    );

    const plain = client(base, plainKey, plainConcurrency);
    const questions = Array.from({ length: requests }, (_, i) => ({
      user: users[i % users.length],
      action: 'read',
      resource: { type: 'doc', key: `d${i % 100}` },
      ...(consistency === 'default' ? {} : { consistency }),
    }));
    const ask = (q) => plain('POST', `/v2/allowed/bench/${plainEnv}`, q);
    const flood = statusClient(base, floodKey, floodInFlight);
    const heavyQuestion = (i) =>
      i % 2 === 0
        ? flood(`/v2/allowed/bench/${floodEnv}/list-objects`, { user: 'heavy', action: 'read', resource_type: 'doc', page_size: 1000 })
        : flood(`/v2/allowed/bench/${floodEnv}?explain=true`, {
            user: 'heavy',
            action: 'read',
            resource: { type: 'doc', key: docs[i % docs.length] },
          });

    // Warm-up: both kinds of question, so that neither phase pays for Neo4j's first plans.
    await measure(questions.slice(0, 300), plainConcurrency, ask);
    for (let i = 0; i < 8; i++) await heavyQuestion(i);

    const neoPid = process.env.BENCH_NEO4J_URI ? undefined : Number(readFileSync(pidFileFor(neo4jPort), 'utf8').trim());
    const cpu = () => ({ service: cpuSeconds(proc.pid), neo4j: neoPid ? cpuSeconds(neoPid) : NaN });
    let c0 = cpu();
    let h = headroom();
    const idle = await measure(questions, plainConcurrency, ask);
    const idleRoom = h();
    let c1 = cpu();
    console.log(
      `idle:        ${fmt(idle)}   [loader CPU ${(idleRoom.cpu * 100).toFixed(0)} % of a core, event-loop p99 ${idleRoom.loopP99.toFixed(1)} ms; service CPU ${(c1.service - c0.service).toFixed(1)} s, Neo4j ${(c1.neo4j - c0.neo4j).toFixed(1)} s]`,
    );

    // The flood: `floodInFlight` workers, each asking its next heavy question as soon as one answers.
    const outcomes = new Map();
    let stop = false;
    let n = 0;
    const workers = Array.from({ length: floodInFlight }, async () => {
      while (!stop) {
        const status = await heavyQuestion(n++);
        outcomes.set(status, (outcomes.get(status) ?? 0) + 1);
        // A refused worker backs off a little, as a client honouring Retry-After would not hammer.
        if (status === 429) await new Promise((r) => setTimeout(r, 20));
      }
    });
    await new Promise((r) => setTimeout(r, 1000));
    c0 = cpu();
    h = headroom();
    const floodStarted = Date.now();
    const during = await measure(questions, plainConcurrency, ask);
    const floodRoom = h();
    c1 = cpu();
    const floodSeconds = (Date.now() - floodStarted) / 1000;
    stop = true;
    await Promise.all(workers);
    console.log(
      `during flood: ${fmt(during)}   [loader CPU ${(floodRoom.cpu * 100).toFixed(0)} % of a core, event-loop p99 ${floodRoom.loopP99.toFixed(1)} ms; service CPU ${(c1.service - c0.service).toFixed(1)} s, Neo4j ${(c1.neo4j - c0.neo4j).toFixed(1)} s]`,
    );
    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    console.log(
      `flood answers: ${[...outcomes.entries()].map(([s, k]) => `${s}: ${k}`).join(', ')} (${(total / floodSeconds).toFixed(0)}/s over the measured phase and after)`,
    );
    console.log(
      `ratio during/idle: p50 ${(during.p50 / idle.p50).toFixed(2)}x, p99 ${(during.p99 / idle.p99).toFixed(2)}x (target: p99 within 2x)`,
    );
    if (floodRoom.cpu > 0.8 || floodRoom.loopP99 > 20) {
      console.log(
        'warning: the load generator itself was near saturation (CPU > 80 % of a core or event-loop p99 > 20 ms): its latencies are inflated.',
      );
    }
  } finally {
    proc?.kill('SIGTERM');
    await neo4j.stop();
  }
}

await main();
