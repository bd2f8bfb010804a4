// Benchmark: loads the dataset through the public API into the real service on a real Neo4j,
// then measures permission checks over HTTP with concurrent connections, the service's peak
// memory, and SpiceDB on the same graph and questions. Prints figures; asserts nothing.
//   npm run bench            (full size: 10k users, 2k groups, 20k repos, ~200k facts)
//   BENCH_SCALE=0.1 npm run bench   (a tenth, for a quick look)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client, inBatches, measure } from './http.mjs';
import { loadSpiceDB, measureSpiceDB } from './spicedb.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scale = Number(process.env.BENCH_SCALE ?? 1);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const perCase = Number(process.env.BENCH_REQUESTS ?? 3000);
const port = Number(process.env.BENCH_PORT ?? 18091);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7741);
const loaders = Number(process.env.BENCH_LOADERS ?? 2);

const memOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rssMb: kb('VmRSS'), peakMb: kb('VmHWM') };
};
const fmt = (n, d = 1) => n.toFixed(d);
/** CPU time (user + system) a process has used, in ms, from /proc (clock ticks of 10 ms). */
const cpuMsOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

async function main() {
  console.log(`machine: ${cpus().length} cores (${cpus()[0].model}), ${fmt(totalmem() / 2 ** 30)} GiB; node ${process.version}; scale ${scale}; concurrency ${concurrency}`);
  const dataDir = join(root, '.neo4j', 'bench-data');
  rmSync(dataDir, { recursive: true, force: true });
  const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  const service = spawn(process.execPath, [join(root, 'dist/src/main.js')], {
    env: { ...process.env, NEO4J_URI: neo4j.uri, PORT: String(port), HOST: '127.0.0.1', ADMIN_API_KEY: adminKey, LOG_LEVEL: 'warn',
      BOOTSTRAP_PROJECT: 'bench', BOOTSTRAP_ENV: 'bench' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => { service.kill('SIGTERM'); await neo4j.stop(); };
  try {
    await new Promise((ok, fail) => {
      service.stdout.on('data', (c) => String(c).includes('is ready at') && ok());
      service.on('exit', (code) => fail(new Error(`service exited (${code})`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const admin = client(base, adminKey, concurrency);
    const { secret } = await admin('POST', '/v2/api-key/bench/bench', { name: 'bench' });
    const api = client(base, secret, concurrency);
    const ds = buildDataset({ users: Math.round(10_000 * scale), chains: Math.max(10, Math.round(200 * scale)), repos: Math.round(20_000 * scale) });
    const load = await loadService(api, ds);
    const facts = load.facts;
    console.log(`\nload: ${facts} facts (assignments + tuples) in ${fmt(load.seconds)} s = ${fmt(facts / load.seconds, 0)} facts/s; ` +
      `with ${ds.userKeys.length} users, ${ds.repoKeys.length} repos, ${ds.groups.length} groups: ${fmt(load.all / load.seconds, 0)} records/s`);

    const neoPid = Number(readFileSync(pidFileFor(neo4jPort), 'utf8').trim());
    const cases = buildQuestions(ds, Math.round(perCase));
    const allowedPath = '/v2/allowed/bench/bench';
    const warm = Object.values(buildQuestions(ds, 200)).flat();
    await measure(warm, concurrency, ({ expect, ...q }) => api('POST', allowedPath, { ...q, consistency: 'fully_consistent' })); // warm-up (JIT, plans)
    // Every case four times: the traversal itself (fully_consistent: the decision cache is not
    // used); minimize_latency, which fills the cache (misses); then from the cache at a revision
    // read per group of questions (the default: read-your-revoke), and from the cache at the
    // locally known revision (minimize_latency again).
    const results = {};
    const filling = {};
    const consistent = {};
    const cached = {};
    for (const [name, qs] of Object.entries(cases)) {
      for (const [consistency, into] of [['fully_consistent', results], ['minimize_latency', filling], [undefined, consistent], ['minimize_latency', cached]]) {
        let allowed = 0;
        let wrong = 0;
        const cpu0 = [cpuMsOf(service.pid), cpuMsOf(neoPid)];
        const r = await measure(qs, concurrency, async (q) => {
          const { allow } = await api('POST', allowedPath, { user: q.user, action: q.action, resource: q.resource, ...(consistency ? { consistency } : {}) });
          if (allow) allowed++;
          if (q.expect !== undefined && allow !== q.expect) wrong++;
        });
        // CPU per check of each process: what one more replica, or a larger Neo4j, would take over.
        const cpu = { service: (cpuMsOf(service.pid) - cpu0[0]) / qs.length, neo4j: (cpuMsOf(neoPid) - cpu0[1]) / qs.length };
        into[name] = { ...r, allowed, wrong, cpu };
      }
    }
    const mixed = Object.values(cases).flat();
    const bulks = Array.from({ length: Math.max(20, Math.round(perCase / 20)) }, (_, i) => mixed.slice((i * 100) % (mixed.length - 100), ((i * 100) % (mixed.length - 100)) + 100));
    const bulk = await measure(bulks, concurrency, (b) => api('POST', `${allowedPath}/bulk`, b.map(({ expect, ...q }) => ({ ...q, consistency: 'fully_consistent' }))));
    const mem = memOf(service.pid);
    const neoMem = memOf(neoPid);

    for (const [title, table] of [['traversal (fully_consistent, no cache)', results], ['same questions again (minimize_latency: fills the decision cache)', filling],
      ['same questions again (default consistency: decision cache at a revision read per group of questions)', consistent],
      ['same questions again (minimize_latency: decision cache at the locally known revision)', cached]]) {
      console.log(`\n${title}\ncase              | p50 ms | p99 ms | checks/s | allowed | wrong | CPU ms/check service, Neo4j`);
      for (const [name, r] of Object.entries(table)) {
        console.log(`${name.padEnd(17)} | ${fmt(r.p50, 2).padStart(6)} | ${fmt(r.p99, 2).padStart(6)} | ${fmt(r.perSecond, 0).padStart(8)} | ${String(r.allowed).padStart(7)} | ${String(r.wrong).padStart(5)} | ${fmt(r.cpu.service, 3)}, ${fmt(r.cpu.neo4j, 3)}`);
      }
    }
    const ratios = Object.keys(consistent).map((name) => `${name} ${fmt(consistent[name].perSecond / cached[name].perSecond, 2)}`);
    console.log(`\ndefault / minimize_latency cached checks/s: ${ratios.join(', ')}`);
    console.log(`\nbulk of 100 (no cache): p50 ${fmt(bulk.p50, 2)} ms, p99 ${fmt(bulk.p99, 2)} ms per request; ${fmt(bulk.perSecond * 100, 0)} checks/s`);
    console.log(`\nservice memory: RSS ${fmt(mem.rssMb, 0)} MB, peak RSS ${fmt(mem.peakMb, 0)} MB` + `; Neo4j JVM RSS ${fmt(neoMem.rssMb, 0)} MB`);

    if (process.env.BENCH_SKIP_SPICEDB) return;
    const spice = await loadSpiceDB(ds);
    console.log(`\nSpiceDB (embedded, in-process, memory store): loaded ${spice.relationships} relationships in ${fmt(spice.seconds)} s; ` +
      `first ${process.env.BENCH_SPICEDB_REQUESTS ?? 500} questions of each case`);
    console.log('case              | ours full | SpiceDB full | ratio | ours min-latency | SpiceDB min-latency | ratio');
    // SpiceDB's memory store answers fully consistent checks slowly on a large graph: a sample.
    const spiceSample = Number(process.env.BENCH_SPICEDB_REQUESTS ?? 500);
    for (const [name, all] of Object.entries(cases)) {
      const qs = all.slice(0, spiceSample);
      const full = await measureSpiceDB(spice.db, qs, concurrency, true);
      await measureSpiceDB(spice.db, qs, concurrency, false); // SpiceDB's caches see the questions once, as ours did
      const fast = await measureSpiceDB(spice.db, qs, concurrency, false);
      const ours = results[name].perSecond;
      const oursFast = cached[name].perSecond;
      console.log(`${name.padEnd(17)} | ${fmt(ours, 0).padStart(9)} | ${fmt(full.perSecond, 0).padStart(12)} | ${fmt(ours / full.perSecond, 2).padStart(5)} | ${fmt(oursFast, 0).padStart(16)} | ${fmt(fast.perSecond, 0).padStart(19)} | ${fmt(oursFast / fast.perSecond, 2)}` +
        (fast.allowed !== Math.round((results[name].allowed * qs.length) / all.length) && name !== 'denied' ? `  (SpiceDB allowed ${fast.allowed} of ${qs.length})` : ''));
    }
    spice.db.close();
  } finally {
    await stop();
  }
}

async function loadService(api, ds) {
  const facts = '/v2/facts/bench/bench';
  const schema = '/v2/schema/bench/bench';
  const started = Date.now();
  let mark = started;
  const phase = (name) => {
    if (process.env.BENCH_VERBOSE) console.log(`  ${name}: ${((Date.now() - mark) / 1000).toFixed(1)} s`);
    mark = Date.now();
  };
  await api('POST', `${schema}/resources`, { key: 'repo', name: 'Repository', actions: { push: {}, pull: {} } });
  await api('POST', `${schema}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['push', 'pull'] });
  await api('POST', `${schema}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['pull'] });
  await inBatches(ds.userKeys.map((key) => ({ key })), 1000, loaders, (ops) => api('POST', `${facts}/users/bulk`, { operations: ops }));
  phase('users');
  await inBatches(ds.repoKeys.map((key) => ({ key, resource: 'repo', tenant: 'default' })), 1000, loaders, (ops) => api('POST', `${facts}/resource_instances/bulk`, { operations: ops }));
  phase('repos');
  await inBatches(ds.groups.map((g) => ({ group_instance_key: g, group_tenant: 'default' })), 1000, loaders, (ops) => api('POST', `${schema}/groups/bulk`, { operations: ops }));
  phase('groups');
  // The first grant of each kind goes through the groups API, which creates the relations and
  // derivations; the rest are the same tuples, loaded in bulk.
  const [first, ...rest] = ds.groupGrants;
  await api('POST', `${schema}/groups/${encodeURIComponent(first.group)}/roles`, { resource: 'repo', resource_instance: first.repo, role: first.role, tenant: 'default' });
  const other = rest.find((g) => g.role !== first.role);
  await api('POST', `${schema}/groups/${encodeURIComponent(other.group)}/roles`, { resource: 'repo', resource_instance: other.repo, role: other.role, tenant: 'default' });
  const [n0, ...nest] = ds.nesting;
  await api('PUT', `${schema}/groups/${encodeURIComponent(n0.child)}/assign_group`, { group_instance_key: n0.parent });
  const tuples = [
    ...rest.map((g) => ({ subject: `group:${g.group}`, relation: `group_${g.role}_group`, object: `repo:${g.repo}`, tenant: 'default' })),
    ...nest.map((n) => ({ subject: `group:${n.child}`, relation: 'group', object: `group:${n.parent}`, tenant: 'default' })),
  ];
  await inBatches(tuples, 1000, loaders, (ops) => api('POST', `${facts}/relationship_tuples/bulk`, { operations: ops }));
  phase('tuples');
  const assignments = [
    ...ds.memberships.map((m) => ({ user: m.user, role: 'member', tenant: 'default', resource_instance: `group:${m.group}` })),
    ...ds.direct.map((d) => ({ user: d.user, role: d.role, tenant: 'default', resource_instance: `repo:${d.repo}` })),
  ];
  await inBatches(assignments, 1000, loaders, (ops) => api('POST', `${facts}/role_assignments/bulk`, ops));
  phase('assignments');
  const factCount = ds.groupGrants.length + ds.nesting.length + assignments.length;
  return { facts: factCount, all: factCount + ds.userKeys.length + ds.repoKeys.length + ds.groups.length, seconds: (Date.now() - started) / 1000 };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
