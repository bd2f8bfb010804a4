// Benchmark: what the key-lookup cache (AUTH_CACHE_TTL_MS, removed by the trust work) bought.
// Starts one fresh local Neo4j and, on it, one service process per arm, then measures the same
// permission checks over HTTP with an environment key against each arm, in rounds that
// alternate the arms (so a slowdown of this shared box hits every arm alike). Prints checks/s
// per arm and the ratio to the first arm; asserts nothing.
//
//   npm run build && node bench/auth-cache.mjs
//
// An arm is `name=<dist dir>[,VAR=value...]`; `BENCH_ARMS` lists them separated by `;`.
// The default compares the current build with and without AUTH_CACHE_TTL_MS (a no-op once the
// cache is gone). To compare a baseline, build it and copy its `dist/` and `cypher/` into a
// directory, then e.g.:
//   BENCH_ARMS='cache=.neo4j/bench-base/dist,AUTH_CACHE_TTL_MS=5000;no-cache=.neo4j/bench-base/dist,AUTH_CACHE_TTL_MS=0;final=dist'
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { client, measure } from './http.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const perRound = Number(process.env.BENCH_REQUESTS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7845);
const firstPort = Number(process.env.BENCH_PORT ?? 7846);
const arms = (process.env.BENCH_ARMS ?? 'cache=dist,AUTH_CACHE_TTL_MS=5000;no-cache=dist,AUTH_CACHE_TTL_MS=0').split(';').map((spec) => {
  const [name, rest] =
    spec.split('=', 2).length === 2 ? [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)] : [spec, 'dist'];
  const [dist, ...vars] = rest.split(',');
  return { name, dist: resolve(root, dist), env: Object.fromEntries(vars.map((v) => v.split('='))) };
});

async function startService(arm, port, neo4jUri, adminKey) {
  const proc = spawn(process.execPath, [join(arm.dist, 'src/main.js')], {
    env: {
      ...process.env,
      ...arm.env,
      NEO4J_URI: neo4jUri,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_PROJECT: 'bench',
      BOOTSTRAP_ENV: 'bench',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ok, fail) => {
    if (process.env.BENCH_VERBOSE) proc.stdout.pipe(process.stderr);
    proc.stdout.on('data', (c) => String(c).includes('is ready at') && ok());
    proc.on('exit', (code) => fail(new Error(`service ${arm.name} exited (${code})`)));
  });
  return proc;
}

async function main() {
  console.log(`machine: ${cpus().length} cores; concurrency ${concurrency}; ${rounds} rounds of ${perRound} checks per arm`);
  // BENCH_NEO4J_URI: an already running Neo4j (saves the start on a busy box); else a fresh one.
  let neo4j = { uri: process.env.BENCH_NEO4J_URI, stop: async () => undefined };
  if (!neo4j.uri) {
    const dataDir = join(root, '.neo4j', 'bench-auth-data');
    rmSync(dataDir, { recursive: true, force: true });
    neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
  }
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  const procs = [];
  try {
    for (const [i, arm] of arms.entries()) procs.push(await startService(arm, firstPort + i, neo4j.uri, adminKey));
    const admin = client(`http://127.0.0.1:${firstPort}`, adminKey, concurrency);
    // Each run in its own environment, so that a reused Neo4j starts clean.
    const run = `run_${randomBytes(4).toString('hex')}`;
    await admin('POST', '/v2/projects/bench/envs', { key: run, name: run });
    const { secret } = await admin('POST', `/v2/api-key/bench/${run}`, { name: 'bench' });
    const schema = `/v2/schema/bench/${run}`;
    const facts = `/v2/facts/bench/${run}`;
    await admin('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
    await admin('POST', `${schema}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
    const users = Array.from({ length: 200 }, (_, i) => `u${i}`);
    await admin('POST', `${facts}/users/bulk`, { operations: users.map((key) => ({ key })) });
    await admin('POST', `${facts}/resource_instances/bulk`, {
      operations: Array.from({ length: 100 }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' })),
    });
    await admin(
      'POST',
      `${facts}/role_assignments/bulk`,
      users.map((user, i) => ({ user, role: 'reader', tenant: 'default', resource_instance: `doc:d${i % 50}` })),
    );
    // Half allowed, half denied; every arm sees the same questions in the same order.
    const questions = Array.from({ length: perRound }, (_, i) => ({
      user: users[i % users.length],
      action: 'read',
      resource: { type: 'doc', key: `d${i % 100}` },
    }));
    const apis = arms.map((_, i) => client(`http://127.0.0.1:${firstPort + i}`, secret, concurrency));
    for (const api of apis) await measure(questions.slice(0, 300), concurrency, (q) => api('POST', `/v2/allowed/bench/${run}`, q)); // warm-up
    const totals = arms.map(() => ({ count: 0, seconds: 0 }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, api] of apis.entries()) {
        const m = await measure(questions, concurrency, (q) => api('POST', `/v2/allowed/bench/${run}`, q));
        totals[i].count += m.count;
        totals[i].seconds += m.seconds;
        console.log(
          `round ${r + 1} ${arms[i].name.padEnd(10)} ${m.perSecond.toFixed(0).padStart(6)} checks/s  p50 ${m.p50.toFixed(2)} ms  p99 ${m.p99.toFixed(2)} ms`,
        );
      }
    }
    const base = totals[0].count / totals[0].seconds;
    console.log('\narm        | checks/s | ratio to first arm');
    for (const [i, arm] of arms.entries()) {
      const rate = totals[i].count / totals[i].seconds;
      console.log(`${arm.name.padEnd(10)} | ${rate.toFixed(0).padStart(8)} | ${(rate / base).toFixed(2)}`);
    }
  } finally {
    for (const p of procs) p.kill('SIGTERM');
    await neo4j.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
