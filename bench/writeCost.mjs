// The cost of one write on a large environment against a tiny one: `node bench/writeCost.mjs`
// (through /work/tools/testslot: it starts a Neo4j). The bench dataset (bench/dataset.mjs, 193,800
// facts at BENCH_SCALE=1) is loaded once into environment `bench` (kept in BENCH_NEO4J_DATA, default
// .neo4j/write-cost-data), a tiny one (20 users, 20 repos) into `tiny`; then, for each arm of
// BENCH_ARMS (`name=path/to/main.js,...`, default this checkout's dist), the service is started on
// that Neo4j and each write kind is timed on each environment: BENCH_WRITES (default 200) writes of
// a kind one after the other, then the same with BENCH_IN_FLIGHT (default 6) in flight. The kinds:
// user created, attribute changed, direct role granted on a repo and taken back, group membership
// given and taken back, user deleted (on users the run created, each write on another user).
// Arms run one after the other on the same graph, in the order given (repeat an arm to pair them:
// `old=...,new=...,old=...,new=...`). BENCH_WRITES_PER_S (default 0: none): first, on each
// environment, writes at that rate for BENCH_OPEN_S (default 20) seconds, open loop, mixed; 503s
// (DB_TIMEOUT_MS, default here 4000) counted. BENCH_SKIP_KINDS: the open loop only; BENCH_KINDS_TINY=0:
// the kinds one by one on the large environment only. BENCH_EXPORT_FIRST=1: an export of the large
// environment before its open loop. Prints p50/p99 per kind, environment and arm, with the load average.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import { startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset } from './dataset.mjs';
import { client } from './http.mjs';
import { loadOurs, root } from './ours.mjs';

const neo4jPort = Number(process.env.TEST_NEO4J_PORT ?? process.env.BENCH_NEO4J_PORT ?? 7747);
const port = Number(process.env.BENCH_PORT ?? neo4jPort + 10_420);
const dataDir = process.env.BENCH_NEO4J_DATA ?? join(root, '.neo4j', 'write-cost-data');
const scale = Number(process.env.BENCH_SCALE ?? 1);
const writes = Number(process.env.BENCH_WRITES ?? 200);
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 6);
const rate = Number(process.env.BENCH_WRITES_PER_S ?? 0);
const openS = Number(process.env.BENCH_OPEN_S ?? 20);
const arms = (process.env.BENCH_ARMS ?? `new=${join(root, 'dist/src/main.js')}`).split(',').map((a) => a.split('='));
const project = 'bench';
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};

/** A set-up call, tried again after a 503 (a cold Neo4j plans its first statements slowly). */
async function settle(f) {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (err) {
      if (i >= 5 || !/: 503 /.test(err.message)) throw err;
    }
  }
}

async function startService(main, adminKey) {
  const service = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NEO4J_URI: neo4j.uri,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_API_KEY: adminKey,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_PROJECT: project,
      BOOTSTRAP_ENV: 'bench',
      DB_TIMEOUT_MS: process.env.DB_TIMEOUT_MS ?? '4000',
      ADMIN_TIMEOUT_MS: process.env.ADMIN_TIMEOUT_MS ?? '60000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((ok) => service.on('exit', ok));
  await new Promise((ok, fail) => {
    service.stdout.on('data', (c) => {
      if (process.env.BENCH_SERVICE_OUT) process.stderr.write(c);
      if (String(c).includes('is ready at')) ok();
    });
    service.on('exit', (code) => fail(new Error(`service exited (${code})`)));
  });
  return {
    stop: async () => {
      service.kill('SIGTERM');
      await exited;
    },
  };
}

const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
const base = `http://127.0.0.1:${port}`;
const big = buildDataset({
  users: Math.round(10_000 * scale),
  chains: Math.max(10, Math.round(200 * scale)),
  repos: Math.round(20_000 * scale),
});
const tiny = buildDataset({ users: 20, chains: 2, repos: 20 });
const tinyEnv = process.env.BENCH_TINY_ENV ?? 'tiny';
const envs = [
  [tinyEnv, tiny],
  ['bench', big],
];
const results = [];
try {
  let run = 0;
  for (const [arm, main] of arms) {
    const adminKey = `bench_${randomBytes(16).toString('hex')}`;
    const service = await startService(main, adminKey);
    try {
      const admin = client(base, adminKey, 16);
      const envList = await settle(() => admin('GET', `/v2/projects/${project}/envs`));
      if (!(envList.data ?? envList).some((e) => e.key === tinyEnv))
        await settle(() => admin('POST', `/v2/projects/${project}/envs`, { key: tinyEnv, name: tinyEnv }));
      for (const [env, ds] of envs) {
        const { secret } = await settle(() => admin('POST', `/v2/api-key/${project}/${env}`, { name: `write-cost-${arm}` }));
        const api = client(base, secret, 32);
        const facts = `/v2/facts/${project}/${env}`;
        const present = await settle(() => api('GET', `${facts}/users?per_page=1`));
        if (!((present.total_count ?? 0) > 1)) {
          const l = await loadOurs(api, project, ds, { loaders: 2, env });
          console.log(`${env}: loaded ${l.facts} facts in ${l.seconds.toFixed(1)} s`);
        }
        const prefix = `wc${Date.now().toString(36)}r${run++}-`;
        const repo = (i) => `repo:${ds.repoKeys[(i * 7919) % ds.repoKeys.length]}`;
        const group = (i) => `group:${ds.groups[(i * 31) % ds.groups.length]}`;
        const grant = (u, i) => ({ user: u, role: 'viewer', resource_instance: repo(i), tenant: 'default' });
        const member = (u, i) => ({ user: u, role: 'member', resource_instance: group(i), tenant: 'default' });
        const kinds = [
          ['user create', (u) => ['POST', `${facts}/users`, { key: u, attributes: { level: 1 } }]],
          ['user attribute', (u, i) => ['PATCH', `${facts}/users/${u}`, { attributes: { level: i } }]],
          ['repo role grant', (u, i) => ['POST', `${facts}/role_assignments`, grant(u, i)]],
          ['repo role revoke', (u, i) => ['DELETE', `${facts}/role_assignments`, grant(u, i)]],
          ['membership add', (u, i) => ['POST', `${facts}/role_assignments`, member(u, i)]],
          ['membership remove', (u, i) => ['DELETE', `${facts}/role_assignments`, member(u, i)]],
          ['user delete', (u) => ['DELETE', `${facts}/users/${u}`]],
        ];
        // Warm-up: plans of each statement made once (on users of their own).
        for (let i = 0; i < 5; i++) for (const [, w] of kinds) await api(...w(`${prefix}warm${i}`, i)).catch(() => undefined);
        if (rate > 0 && process.env.BENCH_EXPORT_FIRST && env !== tinyEnv) {
          // An export of the environment first (its answer dropped): does the writer keep up after one?
          const t = performance.now();
          const r = await fetch(`${base}/v2/export/${project}/${env}`, { headers: { authorization: `Bearer ${adminKey}` } });
          const bytes = (await r.arrayBuffer()).byteLength;
          console.log(`${arm} ${env}: an export first, ${r.status}, ${bytes} bytes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
        }
        if (rate > 0) {
          // Open loop: one write started every 1/rate s whatever the answers, for openS seconds, mixed
          // (users created, attributes changed, repo roles granted, memberships given, users deleted).
          const pool = Array.from({ length: 1000 }, (_, i) => `${prefix}pool${i}`);
          await settle(() => api('POST', `${facts}/users/bulk`, { operations: pool.map((key) => ({ key })) }));
          const mixed = [
            (j) => ['POST', `${facts}/users`, { key: `${prefix}open${j}`, attributes: { level: j } }],
            (j) => ['PATCH', `${facts}/users/${pool[j % pool.length]}`, { attributes: { level: j } }],
            (j) => ['POST', `${facts}/role_assignments`, grant(pool[j % pool.length], j)],
            (j) => ['POST', `${facts}/role_assignments`, member(pool[j % pool.length], j)],
            (j) => ['DELETE', `${facts}/users/${prefix}open${j - 4}`],
          ];
          const ms = [];
          let failed = 0;
          let refused = 0;
          const pending = [];
          const t0 = performance.now();
          for (let j = 0; performance.now() - t0 < openS * 1000; j++) {
            const wait = t0 + (j * 1000) / rate - performance.now();
            if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
            const t = performance.now();
            pending.push(
              api(...mixed[j % mixed.length](j)).then(
                () => ms.push(performance.now() - t),
                (err) => {
                  ms.push(performance.now() - t);
                  if (/: 5\d\d /.test(err.message)) failed++;
                  else refused++;
                },
              ),
            );
          }
          await Promise.all(pending);
          const row = { arm, env, flight: `${rate}/s`, kind: 'open loop, mixed', p50: pct(ms, 50), p99: pct(ms, 99), failed, load: load() };
          results.push(row);
          console.log(
            `${arm.padEnd(4)} ${env.padEnd(5)} ${rate} writes/s open loop, mixed: p50 ${row.p50.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms  failed (5xx) ${failed} of ${ms.length}, 4xx ${refused}  (load average ${row.load})`,
          );
        }
        for (const flight of process.env.BENCH_SKIP_KINDS || (env === tinyEnv && process.env.BENCH_KINDS_TINY === '0')
          ? []
          : [1, inFlight]) {
          const users = Array.from({ length: writes }, (_, i) => `${prefix}f${flight}-${i}`);
          for (const [kind, w] of kinds) {
            const ms = [];
            let next = 0;
            let failed = 0;
            const worker = async () => {
              while (next < users.length) {
                const i = next++;
                const t = performance.now();
                try {
                  await api(...w(users[i], i));
                } catch (err) {
                  failed++;
                  if (failed < 3) console.error(String(err.message).slice(0, 200));
                }
                ms.push(performance.now() - t);
              }
            };
            await Promise.all(Array.from({ length: flight }, worker));
            const row = { arm, env, flight, kind, p50: pct(ms, 50), p99: pct(ms, 99), failed, load: load() };
            results.push(row);
            console.log(
              `${arm.padEnd(4)} ${env.padEnd(5)} in flight ${flight}  ${kind.padEnd(18)} p50 ${row.p50.toFixed(1).padStart(7)} ms  p99 ${row.p99.toFixed(1).padStart(7)} ms  failed ${failed}  (load average ${row.load})`,
            );
          }
        }
      }
    } finally {
      await service.stop();
    }
  }
} finally {
  await neo4j.stop();
}
// Ratios of each arm against the first, kind by kind (p50 and p99), when several arms ran.
if (arms.length > 1) {
  const first = arms[0][0];
  for (const r of results.filter((x) => x.arm !== first)) {
    const o = results.filter((x) => x.arm === first && x.env === r.env && x.flight === r.flight && x.kind === r.kind);
    const p50 = pct(
      o.map((x) => x.p50),
      50,
    );
    const p99 = pct(
      o.map((x) => x.p99),
      50,
    );
    console.log(
      `${r.arm}/${first} ${r.env} in flight ${r.flight} ${r.kind}: p50 ×${(r.p50 / p50).toFixed(2)}, p99 ×${(r.p99 / p99).toFixed(2)}`,
    );
  }
}
