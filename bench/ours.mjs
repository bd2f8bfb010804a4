// Our service for the benchmarks: a local Neo4j 5.26 and the compiled service as its own
// process, and the dataset loaded through the public API (bulk endpoints, as a user would).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_JVM_ARGS, isPortOpen, pidFileFor, startLocalNeo4j } from '../scripts/neo4j-local.mjs';
import { client, inBatches } from './http.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The launcher's JVM flags for a bench's own Neo4j, and BENCH_NEO4J_JVM's after them (e.g. '-XX:TieredStopAtLevel=1'). */
export const benchJvmArgs = () => [...DEFAULT_JVM_ARGS, ...(process.env.BENCH_NEO4J_JVM ?? '').split(' ').filter(Boolean)];

/**
 * Starts Neo4j (fresh data, unless one already listens on that port, or BENCH_KEEP_NEO4J keeps its files) and the service;
 * answers API clients for the project/env `bench/bench` and a stop function.
 */
export async function startOurs({ port, neo4jPort, concurrency, main, env: extraEnv = {}, nodeArgs = process.env.BENCH_NODE_ARGS ?? '' }) {
  // BENCH_NEO4J_DATA: the data directory of another benchmark's kept graph (bench/writeCost.mjs), whatever the port.
  const dataDir = process.env.BENCH_NEO4J_DATA ?? join(root, '.neo4j', `bench-data-${neo4jPort}`);
  // A Neo4j already listening on the port is reused: its files are never cleared under it.
  if (!process.env.BENCH_KEEP_NEO4J && !(await isPortOpen(neo4jPort))) rmSync(dataDir, { recursive: true, force: true });
  const neo4j = await startLocalNeo4j({ port: neo4jPort, dataDir, log: () => undefined });
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  // A Neo4j that was already running holds earlier runs: a project of its own then.
  const project = neo4j.reused ? `bench${Date.now()}` : 'bench';
  const service = spawn(
    process.execPath,
    [...nodeArgs.split(' ').filter(Boolean), main ?? process.env.BENCH_MAIN ?? join(root, 'dist/src/main.js')],
    {
      env: {
        ...process.env,
        ...extraEnv,
        NEO4J_URI: neo4j.uri,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_API_KEY: adminKey,
        LOG_LEVEL: 'warn',
        BOOTSTRAP_PROJECT: project,
        BOOTSTRAP_ENV: 'bench',
        // A cold Neo4j on a busy box may take seconds to plan its first traversals: not a failure here.
        DB_TIMEOUT_MS: process.env.DB_TIMEOUT_MS ?? '30000',
        // One environment alone, 16 in flight: its checks queue behind its own batches (3 at once), and
        // on a cold Neo4j a wait can pass the default 2 s; the fair share between environments is
        // bench/fairness.mjs's to measure, not a refusal here.
        ADMISSION_WAIT_MS: process.env.ADMISSION_WAIT_MS ?? '30000',
        // An export holds its environment's writers while it reads it (EXPORT_HOLD_MS, 2 s by
        // default): the dataset (193,800 facts) takes longer to read; no writer waits on it here.
        EXPORT_HOLD_MS: process.env.EXPORT_HOLD_MS ?? '20000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((ok) => service.on('exit', ok));
  await new Promise((ok, fail) => {
    service.stdout.on('data', (c) => {
      if (process.env.BENCH_SERVICE_OUT) process.stderr.write(c); // the service's own lines, for a look
      if (String(c).includes('is ready at')) ok();
    });
    service.on('exit', (code) => fail(new Error(`service exited (${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const admin = client(base, adminKey, concurrency);
  const { secret } = await admin('POST', `/v2/api-key/${project}/bench`, { name: 'bench' });
  const neoPid = () => Number(readFileSync(pidFileFor(neo4jPort), 'utf8').trim());
  return {
    base,
    project,
    adminKey,
    /** The environment key `bench/bench` of `api` (for clients of their own, bench/flood.mjs). */
    secret,
    api: client(base, secret, concurrency),
    pid: service.pid,
    neoPid,
    stop: async () => {
      service.kill('SIGTERM');
      await exited;
      await neo4j.stop();
    },
  };
}

/**
 * Loads the dataset through the public API: schema, users, repos and groups, then the facts
 * (tuples and role assignments) in bulk calls of `batch` items (BENCH_BATCH, default 1,000), `loaders` calls in flight,
 * into environment `env` (default `bench`).
 * Answers the fact count and the seconds of the whole load (records included).
 */
export async function loadOurs(
  api,
  project,
  ds,
  { batch = Number(process.env.BENCH_BATCH ?? 1000), loaders = 2, log = () => undefined, env = 'bench' } = {},
) {
  const facts = `/v2/facts/${project}/${env}`;
  const schema = `/v2/schema/${project}/${env}`;
  const started = Date.now();
  let mark = started;
  const phases = {};
  const phase = (name) => {
    phases[name] = (Date.now() - mark) / 1000;
    log(`  ${name}: ${phases[name].toFixed(2)} s`);
    mark = Date.now();
  };
  await api('POST', `${schema}/resources`, { key: 'repo', name: 'Repository', actions: { push: {}, pull: {} } });
  await api('POST', `${schema}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['push', 'pull'] });
  await api('POST', `${schema}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['pull'] });
  phase('schema');
  await inBatches(
    ds.userKeys.map((key) => ({ key })),
    batch,
    loaders,
    (ops) => api('POST', `${facts}/users/bulk`, { operations: ops }),
  );
  phase('users');
  await inBatches(
    ds.repoKeys.map((key) => ({ key, resource: 'repo', tenant: 'default' })),
    batch,
    loaders,
    (ops) => api('POST', `${facts}/resource_instances/bulk`, { operations: ops }),
  );
  phase('repos');
  await inBatches(
    ds.groups.map((g) => ({ group_instance_key: g, group_tenant: 'default' })),
    batch,
    loaders,
    (ops) => api('POST', `${schema}/groups/bulk`, { operations: ops }),
  );
  phase('groups');
  // The first grant of each kind goes through the groups API, which creates the relations and
  // derivations; the rest are the same tuples, loaded in bulk.
  const [first, ...rest] = ds.groupGrants;
  await api('POST', `${schema}/groups/${encodeURIComponent(first.group)}/roles`, {
    resource: 'repo',
    resource_instance: first.repo,
    role: first.role,
    tenant: 'default',
  });
  const other = rest.find((g) => g.role !== first.role);
  await api('POST', `${schema}/groups/${encodeURIComponent(other.group)}/roles`, {
    resource: 'repo',
    resource_instance: other.repo,
    role: other.role,
    tenant: 'default',
  });
  const [n0, ...nest] = ds.nesting;
  await api('PUT', `${schema}/groups/${encodeURIComponent(n0.child)}/assign_group`, { group_instance_key: n0.parent });
  const tuples = [
    ...rest.map((g) => ({ subject: `group:${g.group}`, relation: `group_${g.role}_group`, object: `repo:${g.repo}`, tenant: 'default' })),
    ...nest.map((n) => ({ subject: `group:${n.child}`, relation: 'group', object: `group:${n.parent}`, tenant: 'default' })),
  ];
  await inBatches(tuples, batch, loaders, (ops) => api('POST', `${facts}/relationship_tuples/bulk`, { operations: ops }));
  phase('tuples');
  const assignments = [
    ...ds.memberships.map((m) => ({ user: m.user, role: 'member', tenant: 'default', resource_instance: `group:${m.group}` })),
    ...ds.direct.map((d) => ({ user: d.user, role: d.role, tenant: 'default', resource_instance: `repo:${d.repo}` })),
  ];
  await inBatches(assignments, batch, loaders, (ops) => api('POST', `${facts}/role_assignments/bulk`, ops));
  phase('assignments');
  const factCount = ds.groupGrants.length + ds.nesting.length + assignments.length;
  return {
    facts: factCount,
    records: ds.userKeys.length + ds.repoKeys.length + ds.groups.length,
    seconds: (Date.now() - started) / 1000,
    phases,
  };
}

/**
 * The conditions of bench:peers' "decided by conditions" case (bench/dataset.mjs buildConditions),
 * through Permit's API: attribute schemas (`__user`: department, clearance; repo: classification),
 * the stored attributes (bulk replace of users and resource instances, `loaders` calls in flight),
 * the condition sets and the set rules. Answers the count of records given attributes.
 */
export async function loadOursConditions(api, project, cds, { batch = Number(process.env.BENCH_BATCH ?? 1000), loaders = 2 } = {}) {
  const schema = `/v2/schema/${project}/bench`;
  const facts = `/v2/facts/${project}/bench`;
  await api('POST', `${schema}/resources/__user/attributes`, { key: 'department', type: 'string' });
  await api('POST', `${schema}/resources/__user/attributes`, { key: 'clearance', type: 'number' });
  await api('POST', `${schema}/resources/repo/attributes`, { key: 'classification', type: 'string' });
  await inBatches([...cds.userAttributes], batch, loaders, (us) =>
    api('PUT', `${facts}/bulk/users`, { operations: us.map(([key, attributes]) => ({ key, attributes })) }),
  );
  await inBatches([...cds.repoAttributes], batch, loaders, (rs) =>
    api('PUT', `${facts}/bulk/resource_instances`, {
      operations: rs.map(([key, attributes]) => ({ key, resource: 'repo', tenant: 'default', attributes })),
    }),
  );
  await api('POST', `${schema}/condition_sets`, {
    key: 'engineering',
    name: 'Engineering, clearance 3 and up',
    type: 'userset',
    conditions: { allOf: [{ 'user.department': { equals: 'engineering' } }, { 'user.clearance': { 'greater-than-equals': 3 } }] },
  });
  await api('POST', `${schema}/condition_sets`, {
    key: 'engineering-office',
    name: 'Engineering on the office network',
    type: 'userset',
    parent_id: 'engineering',
    conditions: { allOf: [{ 'context.network': { equals: 'office' } }] },
  });
  await api('POST', `${schema}/condition_sets`, {
    key: 'internal-docs',
    name: 'Internal repos',
    type: 'resourceset',
    resource_id: 'repo',
    conditions: { allOf: [{ 'resource.classification': { equals: 'internal' } }] },
  });
  await api('POST', `${facts}/set_rules`, { user_set: 'engineering', permission: 'repo:pull', resource_set: 'internal-docs' });
  await api('POST', `${facts}/set_rules`, { user_set: 'engineering-office', permission: 'repo:push', resource_set: 'internal-docs' });
  return cds.userAttributes.size + cds.repoAttributes.size;
}

/** Our service asked as the peers are: checks (uncached or from the decision cache), bulk, list-objects. */
export function oursAdapter(api, project) {
  const allowedPath = `/v2/allowed/${project}/bench`;
  let listObjectsServed = true;
  return {
    name: 'ours',
    load: (ds, opts) => loadOurs(api, project, ds, opts),
    loadConditions: (cds, opts) => loadOursConditions(api, project, cds, opts),
    async allowed(q, cached) {
      const r = await api('POST', allowedPath, {
        user: q.user,
        action: q.action,
        resource: q.resource,
        ...(q.context ? { context: q.context } : {}),
        consistency: cached ? 'minimize_latency' : 'fully_consistent',
      });
      return r.allow === true;
    },
    async bulk(qs) {
      const r = await api(
        'POST',
        `${allowedPath}/bulk`,
        qs.map((q) => ({ user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent' })),
      );
      return r.allow.map((a) => a.allow === true);
    },
    /** Null when this build has no list-objects endpoint (docs/behaviour.md section 13). */
    async listObjects(user, action) {
      if (!listObjectsServed) return null;
      const keys = [];
      let token;
      try {
        do {
          const r = await api('POST', `${allowedPath}/list-objects`, {
            user,
            action,
            resource_type: 'repo',
            page_size: 1000,
            ...(token ? { continuation_token: token } : {}),
          });
          keys.push(...r.objects.map((o) => o.key));
          token = r.continuation_token;
        } while (token);
      } catch (err) {
        if (!/: 40[45] /.test(String(err.message))) throw err;
        listObjectsServed = false;
        return null;
      }
      return keys;
    },
  };
}
