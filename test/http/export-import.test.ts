import { request as httpRequest } from 'node:http';
import { buildWorld, login, ok, request, type World } from './approvals-support';
import { runCypher, type TestService } from '../support/testService';

/**
 * Export and import of an environment (docs/behaviour.md section 16): GET /v2/export/{p}/{e} streams one
 * consistent snapshot as JSON lines; POST /v2/import/{p}/{e} loads it into an empty environment,
 * all or nothing. The source environment holds a scaled-down bench dataset (bench/dataset.mjs:
 * users in chains of nested groups, group grants on repos, direct role assignments), plus tenant
 * roles with an end, an elements config with a webhook, an operation approval and an access request.
 * The service writes an import in batches of IMPORT_BATCH_ROWS = 40 rows here (5,000 by default), so
 * that every import below is many batches, two of them sent at a time (src/areas/snapshots/service.ts).
 */
let w: World;
let t: TestService;
let exported: string;

// The bench dataset, scaled down (bench/dataset.mjs's shape, deterministic).
const USERS = 150;
const CHAINS = 6;
const DEPTH = 4;
const REPOS = 200;
const DIRECT_PER_USER = 6;
const GRANTS_PER_GROUP = 4;
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = rng(42);
const pick = (n: number) => Math.floor(rnd() * n);
const userKeys = Array.from({ length: USERS }, (_, i) => `user${i}`);
const repoKeys = Array.from({ length: REPOS }, (_, i) => `repo${i}`);
const group = (c: number, l: number) => `g${c}.${l}`;
const groups = Array.from({ length: CHAINS * DEPTH }, (_, i) => group(Math.floor(i / DEPTH), i % DEPTH));

const envPath = (kind: 'facts' | 'schema' | 'allowed', env: string) => `/v2/${kind}/${t.proj}/${env}`;

async function newEnv(key: string): Promise<string> {
  await ok(t, 'POST', `/v2/projects/${t.proj}/envs`, { key, name: key });
  return key;
}

async function loadBench(env: string) {
  const facts = envPath('facts', env);
  const schema = envPath('schema', env);
  await ok(t, 'POST', `${schema}/resources`, { key: 'repo', name: 'Repository', actions: { push: {}, pull: {} } });
  await ok(t, 'POST', `${schema}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['push', 'pull'] });
  // The viewer's one permission is an action group (docs/behaviour.md section 23): it travels with the export.
  await ok(t, 'POST', `${schema}/resources/repo/action_groups`, { key: 'fetch', name: 'Fetch', actions: ['pull'] });
  await ok(t, 'POST', `${schema}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['fetch'] });
  await ok(t, 'POST', `${facts}/users/bulk`, { operations: userKeys.map((key) => ({ key })) });
  await ok(t, 'POST', `${facts}/resource_instances/bulk`, {
    operations: repoKeys.map((key) => ({ key, resource: 'repo', tenant: 'default' })),
  });
  await ok(t, 'POST', `${schema}/groups/bulk`, { operations: groups.map((g) => ({ group_instance_key: g, group_tenant: 'default' })) });
  const grants: { group: string; role: string; repo: string }[] = [];
  for (const g of groups) {
    for (let k = 0; k < GRANTS_PER_GROUP; k++) {
      grants.push({ group: g, role: 'viewer', repo: repoKeys[pick(REPOS)] });
      if (g.endsWith('.0')) grants.push({ group: g, role: 'editor', repo: repoKeys[pick(REPOS)] });
    }
  }
  const uniqueGrants = [...new Map(grants.map((g) => [JSON.stringify(g), g])).values()];
  grants.splice(0, grants.length, ...uniqueGrants);
  // The first grant of each role through the groups API (it makes the managed relation and derivation), the rest as tuples.
  const [first, ...rest] = grants;
  const other = rest.find((g) => g.role !== first.role)!;
  for (const g of [first, other]) {
    await ok(t, 'POST', `${schema}/groups/${encodeURIComponent(g.group)}/roles`, {
      resource: 'repo',
      resource_instance: g.repo,
      role: g.role,
      tenant: 'default',
    });
  }
  await ok(t, 'PUT', `${schema}/groups/${encodeURIComponent(group(0, 1))}/assign_group`, { group_instance_key: group(0, 0) });
  const tuples = [
    ...rest
      .filter((g) => g !== other)
      .map((g) => ({ subject: `group:${g.group}`, relation: `group_${g.role}_group`, object: `repo:${g.repo}`, tenant: 'default' })),
    ...Array.from({ length: CHAINS }, (_, c) => c)
      .flatMap((c) => Array.from({ length: DEPTH - 1 }, (_, l) => ({ child: group(c, l + 1), parent: group(c, l) })))
      .filter((n) => n.child !== group(0, 1))
      .map((n) => ({ subject: `group:${n.child}`, relation: 'group', object: `group:${n.parent}`, tenant: 'default' })),
  ];
  await ok(t, 'POST', `${facts}/relationship_tuples/bulk`, { operations: tuples });
  const assignments = [
    ...userKeys.flatMap((u, i) => [
      { user: u, role: 'member', tenant: 'default', resource_instance: `group:${group(i % CHAINS, DEPTH - 1)}` },
      { user: u, role: 'member', tenant: 'default', resource_instance: `group:${groups[pick(groups.length)]}` },
    ]),
    ...userKeys.flatMap((u) =>
      Array.from({ length: DIRECT_PER_USER }, () => ({
        user: u,
        role: rnd() < 0.3 ? 'editor' : 'viewer',
        tenant: 'default',
        resource_instance: `repo:${repoKeys[pick(REPOS)]}`,
      })),
    ),
  ];
  // Deduplicated: the same (user, role, instance) twice is one fact.
  const unique = [...new Map(assignments.map((a) => [JSON.stringify(a), a])).values()];
  for (let i = 0; i < unique.length; i += 1000) await ok(t, 'POST', `${facts}/role_assignments/bulk`, unique.slice(i, i + 1000));
  // Facts: the two group grants and the nesting made through the API, the tuples, the role assignments.
  return 3 + tuples.length + unique.length;
}

/** The same questions asked of an environment: checks, list-objects, authorized users, user permissions. */
async function answers(env: string) {
  const allowed = envPath('allowed', env);
  const q = rng(7);
  const checks = Array.from({ length: 300 }, () => ({
    user: userKeys[Math.floor(q() * USERS)],
    action: q() < 0.5 ? 'pull' : 'push',
    resource: { type: 'repo', key: repoKeys[Math.floor(q() * REPOS)], tenant: 'default' },
  }));
  const allows: boolean[] = [];
  for (let i = 0; i < checks.length; i += 100) {
    const bulk = await ok(t, 'POST', `${allowed}/bulk`, checks.slice(i, i + 100));
    allows.push(...bulk.allow.map((a: { allow: boolean }) => a.allow));
  }
  const out: Record<string, unknown> = { checks: allows };
  for (const user of ['user0', 'user7', 'user42']) {
    const listed = await ok(t, 'POST', `${allowed}/list-objects`, { user, action: 'pull', resource_type: 'repo', page_size: 1000 });
    out[`objects:${user}`] = listed.objects.map((o: { key: string }) => o.key).sort();
    const perms = await ok(t, 'POST', `${allowed}/user-permissions`, { user: { key: user } });
    out[`permissions:${user}`] = Object.fromEntries(
      Object.entries(perms).map(([k, v]) => [k, (v as { permissions: string[] }).permissions.sort()]),
    );
  }
  for (const repo of ['repo0', 'repo3', 'repo99']) {
    const users = await ok(t, 'POST', `${allowed}/authorized_users`, {
      action: 'pull',
      resource: { type: 'repo', key: repo, tenant: 'default' },
    });
    out[`users:${repo}`] = Object.keys(users.users).sort();
  }
  out['tenant:alice'] = (await ok(t, 'POST', allowed, { user: 'bob', action: 'read', resource: { type: 'doc', tenant: 'acme' } })).allow;
  // Conditions (docs/behaviour.md section 17): ruler holds no role; only the set rule lets them push to repo5.
  for (const repo of ['repo5', 'repo6']) {
    out[`rule:${repo}`] = (
      await ok(t, 'POST', allowed, { user: 'ruler', action: 'push', resource: { type: 'repo', key: repo, tenant: 'default' } })
    ).allow;
  }
  out.conditionSets = (await ok(t, 'GET', `${envPath('schema', env)}/condition_sets`))
    .map((c: { key: string; parent_id: string | null }) => [c.key, c.parent_id !== null])
    .sort();
  out.setRules = (await ok(t, 'GET', `${envPath('facts', env)}/set_rules`)).map((r: { user_set: string }) => r.user_set);
  return out;
}

/** What /allowed_url answers for bob (approver in acme): the plain rule, the regex rule, a regex miss, another tenant. */
async function urlAnswers(key: string) {
  const out: unknown[] = [];
  for (const [url, tenant] of [
    ['https://docs.example.com/docs/7', 'acme'],
    ['https://docs.example.com/v2/seven', 'acme'],
    ['https://docs.example.com/v2/seven/pages', 'acme'],
    ['https://docs.example.com/docs/7', 'other'],
  ]) {
    const res = await t.call('POST', '/allowed_url', { user: { key: 'bob' }, http_method: 'get', url, tenant }, { key });
    expect(res.status).toBe(200);
    out.push(res.body.allow);
  }
  return out;
}
/** An environment's proxy configs and invites, less the fields naming the environment. */
const unscoped = ({ environment_id, project_id, organization_id, ...rest }: Record<string, unknown>) => rest;
const proxyConfigsOf = async (env: string) => (await ok(t, 'GET', `${envPath('facts', env)}/proxy_configs`)).map(unscoped);
const invitesOf = async (env: string) => (await ok(t, 'GET', `${envPath('facts', env)}/user_invites`)).data.map(unscoped);

async function exportOf(env: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${t.url}/v2/export/${t.proj}/${env}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function importInto(env: string, body: string, key = t.adminKey) {
  const res = await fetch(`${t.url}/v2/import/${t.proj}/${env}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An import whose body the test writes itself (in parts, or never whole), `length` bytes declared. */
const importRequest = (env: string, length: number) =>
  httpRequest(`${t.url}/v2/import/${t.proj}/${env}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/x-ndjson', 'content-length': String(length) },
  });

/** An export's record and link lines, each with its properties in one order, sorted (the header and end lines left out). */
const recordsOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .slice(1, -1)
    .map((l) => {
      const { props, ...line } = JSON.parse(l);
      return JSON.stringify({ ...line, props: Object.fromEntries(Object.entries(props).sort()) });
    })
    .sort();

/** An environment holds no facts: no users, no instances, no schema, only its `default` tenant. */
async function expectEmpty(env: string) {
  const facts = envPath('facts', env);
  expect((await ok(t, 'GET', `${facts}/users`)).data).toEqual([]);
  expect((await ok(t, 'GET', `${facts}/tenants`)).map((x: { key: string }) => x.key)).toEqual(['default']);
  expect(await ok(t, 'GET', `${envPath('schema', env)}/resources`)).toEqual([]);
  const lines = (await exportOf(env)).text.trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).kind ?? JSON.parse(l).type)).toEqual(['header', 'tenant', 'end']);
}

let factCount = 0;
let webhookSecret = '';
/** What the source environment answered, its users' ids and carol's assignments, before it was deleted. */
let before: { answers: Record<string, unknown>; users: unknown; assignments: unknown; urls: unknown; configs: unknown; invites: unknown };
async function usersOf(e: string) {
  const out: string[][] = [];
  for (let page = 1; ; page++) {
    const { data } = await ok(t, 'GET', `${envPath('facts', e)}/users?per_page=100&page=${page}`);
    out.push(...data.map((u: { id: string; key: string }) => [u.key, u.id]));
    if (data.length < 100) return out.sort();
  }
}
const assignmentsOf = async (e: string) =>
  (await ok(t, 'GET', `/v2/facts/${t.proj}/${e}/role_assignments?user=carol`)).map(
    (a: { id: string; role: string; expires_at?: string }) => [a.id, a.role, a.expires_at],
  );
/** Rows a batch of an import writes in this file's service: the stream's records and its links are each more than four batches (asserted below). */
const IMPORT_BATCH_ROWS = 40;
beforeAll(async () => {
  w = await buildWorld({ env: { IMPORT_BATCH_ROWS: String(IMPORT_BATCH_ROWS) } });
  t = w.t;
  factCount = await loadBench(t.env);
  // Tenant roles with and without an end, an approval and an access request, a webhook with its secret.
  await ok(t, 'POST', `${w.facts}/role_assignments`, {
    user: 'carol',
    role: 'approver',
    tenant: 'acme',
    expires_at: '2099-01-01T00:00:00Z',
  });
  const updated = await ok(t, 'PATCH', `/v2/elements/${t.proj}/${t.env}/config/${w.configId}`, {
    webhook: { url: 'https://hooks.example.test/authz', bearer_token: 'bearer-secret-token-123' },
  });
  expect(updated.webhook).toBeDefined();
  [{ secret: webhookSecret }] = await runCypher(t, 'MATCH (c:ElementsConfig {id: $id}) RETURN c.webhook_secret AS secret', {
    id: w.configId,
  });
  const alice = await login(w, 'alice');
  expect((await alice.call('POST', '', request())).status).toBe(200);
  // Attributes, a user set, a resource set narrowed by a child set, and a rule over them.
  const schemaPath = envPath('schema', t.env);
  await ok(t, 'POST', `${schemaPath}/resources/__user/attributes`, { key: 'team', type: 'string' });
  await ok(t, 'POST', `${schemaPath}/resources/repo/attributes`, { key: 'tier', type: 'string' });
  await ok(t, 'POST', `${w.facts}/users`, { key: 'ruler', attributes: { team: 'core' } });
  await ok(t, 'PATCH', `${w.facts}/resource_instances/repo:repo5`, { attributes: { tier: 'gold' } });
  await ok(t, 'POST', `${schemaPath}/condition_sets`, {
    key: 'core',
    name: 'Core team',
    type: 'userset',
    conditions: { allOf: [{ 'user.team': { equals: 'core' } }] },
  });
  const tiered = await ok(t, 'POST', `${schemaPath}/condition_sets`, {
    key: 'tiered',
    name: 'Tiered repos',
    type: 'resourceset',
    resource_id: 'repo',
    conditions: { allOf: [{ 'resource.tier': { in: ['gold', 'silver'] } }] },
  });
  await ok(t, 'POST', `${schemaPath}/condition_sets`, {
    key: 'gold',
    name: 'Gold repos',
    type: 'resourceset',
    resource_id: 'repo',
    parent_id: tiered.id,
    conditions: { allOf: [{ 'resource.tier': { equals: 'gold' } }] },
  });
  await ok(t, 'POST', `${w.facts}/set_rules`, { user_set: 'core', permission: 'repo:push', resource_set: 'gold' });
  // URL-mapping rules (a plain one, a regex one) and two invites: a tenant role, a resource role on an instance.
  await ok(t, 'POST', `${w.facts}/proxy_configs`, {
    key: 'docs-api',
    name: 'Docs API',
    secret: 'proxy-secret-value-987',
    mapping_rules: [
      { url: 'https://docs.example.com/docs/{doc_id}', http_method: 'get', resource: 'doc', action: 'read' },
      {
        url: 'https://docs\\.example\\.com/v2/(?P<doc_id>\\w+)$',
        url_type: 'regex',
        http_method: 'GET',
        resource: 'doc',
        action: 'read',
        priority: 3,
      },
    ],
  });
  const acme = (await ok(t, 'GET', `${w.facts}/tenants/acme`)).id;
  const approver = (await ok(t, 'GET', `${schemaPath}/roles/approver`)).id;
  const viewer = (await ok(t, 'GET', `${schemaPath}/resources/repo/roles/viewer`)).id;
  const repo0 = await ok(t, 'GET', `${w.facts}/resource_instances/repo:repo0`);
  await ok(t, 'POST', `${w.facts}/user_invites`, { key: 'invited', email: 'invited@example.com', role_id: approver, tenant_id: acme });
  await ok(t, 'POST', `${w.facts}/user_invites`, {
    key: 'invited2',
    email: 'invited2@example.com',
    role_id: viewer,
    tenant_id: repo0.tenant_id,
    resource_instance_id: repo0.id,
  });
  const res = await exportOf(t.env);
  expect(res.status).toBe(200);
  exported = res.text;
  before = {
    answers: await answers(t.env),
    users: await usersOf(t.env),
    assignments: await assignmentsOf(t.env),
    urls: await urlAnswers(t.envKey),
    configs: await proxyConfigsOf(t.env),
    invites: await invitesOf(t.env),
  };
  expect(before.urls).toEqual([true, true, false, false]);
  // The rule decides these two: the restored environment must still (its sets, attributes and rule travelled).
  expect([before.answers['rule:repo5'], before.answers['rule:repo6']]).toEqual([true, false]);
}, 240_000);
afterAll(async () => t?.close());

describe('export', () => {
  it('streams the environment as JSON lines: a header at one revision, its records, its links, an end line counting them', () => {
    const lines = exported
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'header', format: 'graph-authz-export', version: 1, revision: expect.any(Number) });
    const end = lines[lines.length - 1];
    const nodes = lines.filter((l) => l.type === 'node');
    const rels = lines.filter((l) => l.type === 'relationship');
    expect(end).toEqual({ type: 'end', revision: lines[0].revision, nodes: nodes.length, relationships: rels.length });
    const kinds = new Set(nodes.map((n) => n.kind));
    for (const k of [
      'resource',
      'resource_role',
      'relation',
      'derivation',
      'role',
      'action_group',
      'tenant',
      'user',
      'resource_instance',
      'group',
      'elements_config',
      'operation_approval',
      'proxy_config',
      'user_invite',
    ]) {
      expect(kinds).toContain(k);
    }
    // Every fact of the bench dataset is a link: role assignments, tuples and memberships.
    const ids = new Map(nodes.map((n) => [n.props.id, n]));
    const facts = rels.filter((r) => r.rel === 'RELATED' || (r.rel === 'HAS_ROLE' && ids.get(r.from)?.kind === 'user'));
    expect(facts.length).toBe(factCount);
    const ending = rels.find((r) => r.rel === 'HAS_TENANT_ROLE' && r.props.role === 'approver' && r.props.expires_at);
    expect(ending).toBeDefined();
  });

  it('never holds key, session or webhook secrets', async () => {
    const alice = await login(w, 'alice');
    for (const secret of [
      t.envKey,
      t.adminKey,
      webhookSecret,
      'bearer-secret-token-123',
      alice.token,
      'whsec_',
      'proxy-secret-value-987',
    ]) {
      expect(secret.length).toBeGreaterThan(0);
      expect(exported.includes(secret)).toBe(false);
    }
    expect(exported).not.toMatch(/"(hash|webhook_secret|webhook_bearer_token|secret)"/);
    expect(exported).not.toMatch(/"kind":"(session|api_key|login_code)"/);
  });

  it('is for the admin key only', async () => {
    const res = await t.call('GET', `/v2/export/${t.proj}/${t.env}`, undefined, { key: t.envKey });
    expect(res.status).toBe(403);
  });
});

describe('import', () => {
  // A restore keeps ids, and elements configs' and approvals' ids are unique in a deployment: the
  // source environment goes first (a backup restored after the loss of the original).
  beforeAll(async () => {
    expect((await importInto(t.env, exported)).status).toBe(409);
    await ok(t, 'DELETE', `/v2/projects/${t.proj}/envs/${t.env}`, undefined, 204);
  });

  it('refuses a stream with a bad line at its end and leaves the environment empty', async () => {
    const env = await newEnv('badline');
    const lines = exported.trim().split('\n');
    const res = await importInto(env, [...lines.slice(0, -1), '{"type":"relationship","rel":"HAS_ROLE"'].join('\n'));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/line \d+ is not JSON/);
    await expectEmpty(env);
    // Without its end line (a cut-off export) too.
    const cut = await importInto(env, lines.slice(0, -1).join('\n'));
    expect(cut.status).toBe(400);
    expect(cut.body.message).toMatch(/without its end line/);
    await expectEmpty(env);
    // A proxy config whose rule /allowed_url could not apply (checked as the API checks it): 400 naming it, nothing kept.
    const bent = lines.map((l) => {
      const v = JSON.parse(l);
      if (v.kind !== 'proxy_config') return l;
      v.props.mapping_rules_json = JSON.stringify([{ url: '(?=x)', url_type: 'regex', http_method: 'get', resource: 'doc' }]);
      return JSON.stringify(v);
    });
    const badRule = await importInto(env, bent.join('\n'));
    expect([badRule.status, badRule.body.message]).toEqual([
      400,
      expect.stringMatching(/proxy config's mapping_rules\/0\/url is not a regular expression/),
    ]);
    await expectEmpty(env);
    // A resource-group link (GROUPS) starts at a group (docs/graph-model.md): one from a user is refused, nothing kept.
    let bentOnce = false;
    const fromUser = lines.map((l) => {
      const v = JSON.parse(l);
      if (bentOnce || v.type !== 'relationship' || v.rel !== 'HAS_ROLE') return l;
      bentOnce = true;
      return JSON.stringify({ ...v, rel: 'GROUPS' });
    });
    expect(bentOnce).toBe(true);
    const groupsFromUser = await importInto(env, fromUser.join('\n'));
    expect([groupsFromUser.status, groupsFromUser.body.message]).toEqual([
      400,
      expect.stringMatching(/GROUPS links that do not start at a group/),
    ]);
    await expectEmpty(env);
  }, 60_000);

  it('refuses a record repeated batches apart (409) and a link to a missing record in a middle batch (400), keeping nothing', async () => {
    const env = await newEnv('repeated');
    const lines = exported.trim().split('\n');
    const parsed = lines.map((l) => JSON.parse(l));
    const records = parsed.filter((v) => v.type === 'node');
    const links = parsed.filter((v) => v.type === 'relationship');
    // Both kinds span many batches, written two at a time.
    expect(Math.min(records.length, links.length)).toBeGreaterThan(4 * IMPORT_BATCH_ROWS);
    // The first user again as the last record: its batch fails at commit on the user key, batches after the first.
    const firstUser = lines[parsed.findIndex((v) => v.kind === 'user')];
    const lastRecord = parsed.map((v) => v.type).lastIndexOf('node');
    const repeated = [...lines.slice(0, lastRecord + 1), firstUser, ...lines.slice(lastRecord + 1)];
    const dup = await importInto(env, repeated.join('\n'));
    expect([dup.status, dup.body.message]).toEqual([409, expect.stringMatching(/a key twice in it/)]);
    await expectEmpty(env);
    // A link in the middle of the links names a record the stream does not hold: 400 naming how many, nothing kept.
    const middle = parsed.indexOf(links[Math.floor(links.length / 2)]);
    const dangling = lines.map((l, i) => (i === middle ? JSON.stringify({ ...parsed[i], to: '00000000-0000-4000-8000-000000000000' }) : l));
    const missing = await importInto(env, dangling.join('\n'));
    expect([missing.status, missing.body.message]).toEqual([
      400,
      expect.stringMatching(/, 1 name a record id the stream did not hold before them/),
    ]);
    await expectEmpty(env);
  }, 60_000);

  it('refuses a stream declared larger than IMPORT_MAX_BYTES (413) before anything is written', async () => {
    const env = await newEnv('toolarge');
    const status = await new Promise<number>((resolve, reject) => {
      const req = importRequest(env, 2 ** 31);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write(exported.slice(0, 1000));
    });
    expect(status).toBe(413);
    await expectEmpty(env);
  });

  it('a client cut off half way leaves the environment empty; no question saw the staged records meanwhile', async () => {
    const env = await newEnv('cutoff');
    const body = Buffer.from(exported);
    const req = importRequest(env, body.length);
    req.on('error', () => undefined);
    req.write(body.subarray(0, Math.floor(body.length / 2)));
    // While the import runs, the environment answers nothing but 503.
    let during: { status: number; body: any } | undefined;
    for (let i = 0; i < 100; i++) {
      during = await t.call('POST', envPath('allowed', env), {
        user: 'user0',
        action: 'pull',
        resource: { type: 'repo', key: 'repo0', tenant: 'default' },
      });
      if (during.status === 503) break;
      await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(during?.status).toBe(503);
    expect(during?.body.error_code).toBe('SERVICE_UNAVAILABLE');
    req.destroy();
    // The service removes what it staged, then serves the environment again, empty.
    for (let i = 0; i < 200; i++) {
      const res = await t.call('GET', `${envPath('facts', env)}/users`);
      if (res.status === 200) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    await expectEmpty(env);
  }, 120_000);

  it('an import whose lease ran out is taken over: whichever import ends first, the environment holds the export once', async () => {
    const env = await newEnv('takeover');
    const { id: envId } = await ok(t, 'GET', `/v2/projects/${t.proj}/envs/${env}`);
    const body = Buffer.from(exported);
    const cut = Math.floor(body.length / 3);
    const first = importRequest(env, body.length);
    const firstAnswer = new Promise<{ status: number; body: any }>((done, fail) => {
      first.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => done({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      });
      first.on('error', fail);
    });
    first.write(body.subarray(0, cut));
    // The first import has staged records (batches of IMPORT_BATCH_ROWS), then its client stalls.
    let staged = 0;
    for (let i = 0; i < 200 && staged === 0; i++) {
      [{ staged }] = await runCypher(t, 'MATCH (n:InEnv {env: $envId}) RETURN count(n) AS staged', { envId });
      if (staged === 0) await new Promise((done) => setTimeout(done, 50));
    }
    expect(staged).toBeGreaterThan(0);
    // As if its process were gone: its lease ran out. A second import may take the environment over,
    // while the first goes on with the rest of its stream, its batches racing the takeover.
    await runCypher(t, 'MATCH (e:Environment {id: $envId}) SET e.import_lease_until = 0', { envId });
    first.end(body.subarray(cut));
    const [one, two] = await Promise.all([firstAnswer, importInto(env, exported)]);
    // One of them restored the export; the other was refused: taken over (the first), or the environment already filled (the second).
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    expect((one.status === 409 ? one : two).body.error_code).toBe('INVALID_STATE');
    // Nothing of the refused one stayed: the environment exports exactly the records and links of the export.
    expect(recordsOf((await exportOf(env)).text)).toEqual(recordsOf(exported));
    expect(await usersOf(env)).toEqual(before.users);
    // Its ids are the export's, unique in a deployment: it goes, for the restore below.
    await ok(t, 'DELETE', `/v2/projects/${t.proj}/envs/${env}`, undefined, 204);
  }, 120_000);

  it('restores the export into an empty environment, ids kept, where every question gets the same answer', async () => {
    const env = 'cutoff';
    const res = await importInto(env, exported);
    expect(res.status).toBe(200);
    const end = JSON.parse(exported.trim().split('\n').at(-1)!);
    expect(res.body).toMatchObject({ nodes: end.nodes, relationships: end.relationships });

    expect(await answers(env)).toEqual(before.answers);
    const fetchGroup = await ok(t, 'GET', `${envPath('schema', env)}/resources/repo/action_groups/fetch`);
    expect(fetchGroup.actions).toEqual(['pull']);
    expect((await ok(t, 'GET', `${envPath('schema', env)}/resources/repo/roles/viewer`)).permissions).toEqual(['fetch']);
    // One change event tells the feed's readers that the environment was filled (not one per record).
    const feed = await ok(t, 'GET', `${envPath('facts', env)}/changes?after_revision=0&page_size=1000`);
    const imported = feed.changes.filter((c: { kind: string }) => c.kind === 'environment_import');
    expect(imported).toEqual([
      expect.objectContaining({ op: 'create', key: env, after: { key: env, records: end.nodes, links: end.relationships } }),
    ]);
    expect(await usersOf(env)).toEqual(before.users);
    expect(await assignmentsOf(env)).toEqual(before.assignments);
    // URL-mapping rules and invites travelled: the same configs and invites, /allowed_url answers the same.
    expect(await proxyConfigsOf(env)).toEqual(before.configs);
    expect(await invitesOf(env)).toEqual(before.invites);
    const { secret } = await ok(t, 'POST', `/v2/api-key/${t.proj}/${env}`, {});
    expect(await urlAnswers(secret)).toEqual(before.urls);
    // The restored environment exports the same records (at its own revision).
    expect(recordsOf((await exportOf(env)).text)).toEqual(recordsOf(exported));
  }, 120_000);

  it('refuses an environment that holds facts (409), and changes nothing there', async () => {
    const res = await importInto('cutoff', exported);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('INVALID_STATE');
    expect(await usersOf('cutoff')).toEqual(before.users);
  });

  it('is for the admin key only', async () => {
    const key = await ok(t, 'POST', `/v2/api-key/${t.proj}/badline`, {});
    const res = await importInto('badline', exported, key.secret);
    expect(res.status).toBe(403);
  });
});
