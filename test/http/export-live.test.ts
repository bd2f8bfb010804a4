import { startTestService, type TestService } from '../support/testService';

/**
 * An export of a live environment holds it at exactly one revision: while a writer makes mixed
 * writes (users created and deleted, attributes, direct grants and revokes, group memberships,
 * group nesting, tuples) and records the revision each write's answer names (X-Authz-Revision),
 * three exports complete; each, imported into an empty environment, holds every write at or before
 * the revision its header and end line name and none after (fact by fact), and answers checks as
 * the writer's own model of the environment at that revision does. No write fails.
 */
let t: TestService;
const SRC = 'live';
const DOCS = Array.from({ length: 8 }, (_, i) => `d${i}`);
const GROUPS = ['g0', 'g1', 'g2', 'g3'];
/** Static group grants: a member of a group, or of a group nested in it, reads its doc. */
const GROUP_GRANTS: Record<string, string> = { g0: 'd0', g1: 'd1', g2: 'd2', g3: 'd3' };
const facts = (env: string) => `/v2/facts/${t.proj}/${env}`;
const schema = (env: string) => `/v2/schema/${t.proj}/${env}`;

async function ok(method: string, path: string, body?: unknown) {
  const res = await t.call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

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

/** The writer's model: what the environment holds. */
interface Model {
  users: Map<string, Record<string, unknown>>;
  /** "user|role|instance": direct grants and group memberships (role member on group:g). */
  assignments: Set<string>;
  /** "subject|relation|object": nesting of groups. */
  tuples: Set<string>;
}
type Write = (m: Model) => void;
beforeAll(async () => {
  // Held writers wait for the export's read: a busy test machine reads more slowly than the default bound.
  t = await startTestService({ env: { EXPORT_HOLD_MS: '10000' } });
  await ok('POST', `/v2/projects/${t.proj}/envs`, { key: SRC, name: SRC });
  await ok('POST', `${schema(SRC)}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
  await ok('POST', `${schema(SRC)}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await ok('POST', `${schema(SRC)}/resources/doc/roles`, { key: 'editor', name: 'Editor', permissions: ['read', 'write'] });
  await ok('POST', `${schema(SRC)}/resources/__user/attributes`, { key: 'level', type: 'number' });
  await ok('POST', `${facts(SRC)}/resource_instances/bulk`, {
    operations: DOCS.map((key) => ({ key, resource: 'doc', tenant: 'default' })),
  });
  await ok('POST', `${schema(SRC)}/groups/bulk`, { operations: GROUPS.map((g) => ({ group_instance_key: g, group_tenant: 'default' })) });
  for (const [g, d] of Object.entries(GROUP_GRANTS)) {
    await ok('POST', `${schema(SRC)}/groups/${g}/roles`, { resource: 'doc', resource_instance: d, role: 'reader', tenant: 'default' });
  }
}, 120_000);
afterAll(async () => t?.close());

/** The next write the writer makes, given its model: the request and what it does to the model. */
function nextWrite(m: Model, rnd: () => number, n: number): { method: string; path: string; body?: unknown; apply: Write } {
  const users = [...m.users.keys()];
  const anyUser = () => users[Math.floor(rnd() * users.length)];
  const r = rnd();
  if (users.length < 4 || r < 0.18) {
    const key = `w${n}`;
    const level = Math.floor(rnd() * 10);
    return {
      method: 'POST',
      path: `${facts(SRC)}/users`,
      body: { key, attributes: { level } },
      apply: (x) => void x.users.set(key, { level }),
    };
  }
  if (r < 0.26) {
    const key = anyUser();
    return {
      method: 'DELETE',
      path: `${facts(SRC)}/users/${key}`,
      apply: (x) => {
        x.users.delete(key);
        for (const a of [...x.assignments]) if (a.startsWith(`${key}|`)) x.assignments.delete(a);
      },
    };
  }
  if (r < 0.36) {
    const key = anyUser();
    const level = Math.floor(rnd() * 10);
    return {
      method: 'PATCH',
      path: `${facts(SRC)}/users/${key}`,
      body: { attributes: { level } },
      apply: (x) => void x.users.set(key, { level }),
    };
  }
  if (r < 0.7) {
    // A grant or a membership, or its revoke when the model holds it.
    const user = anyUser();
    const member = rnd() < 0.4;
    const role = member ? 'member' : rnd() < 0.5 ? 'reader' : 'editor';
    const instance = member ? `group:${GROUPS[Math.floor(rnd() * GROUPS.length)]}` : `doc:${DOCS[Math.floor(rnd() * DOCS.length)]}`;
    const fact = `${user}|${role}|${instance}`;
    const body = { user, role, tenant: 'default', resource_instance: instance };
    return m.assignments.has(fact)
      ? { method: 'DELETE', path: `${facts(SRC)}/role_assignments`, body, apply: (x) => void x.assignments.delete(fact) }
      : { method: 'POST', path: `${facts(SRC)}/role_assignments`, body, apply: (x) => void x.assignments.add(fact) };
  }
  // Nesting: g(i+1) in g(i), toggled (acyclic by construction).
  const i = Math.floor(rnd() * (GROUPS.length - 1));
  const fact = `group:${GROUPS[i + 1]}|group|group:${GROUPS[i]}`;
  const path = `${schema(SRC)}/groups/${GROUPS[i + 1]}/assign_group`;
  const body = { group_instance_key: GROUPS[i] };
  return m.tuples.has(fact)
    ? { method: 'DELETE', path, body, apply: (x) => void x.tuples.delete(fact) }
    : { method: 'PUT', path, body, apply: (x) => void x.tuples.add(fact) };
}

/** The model's answer: a direct reader/editor grant, or membership of a group that is, or is nested in, a granting group. */
function modelAllows(m: Model, user: string, doc: string): boolean {
  if (!m.users.has(user)) return false;
  if (m.assignments.has(`${user}|reader|doc:${doc}`) || m.assignments.has(`${user}|editor|doc:${doc}`)) return true;
  const reached = new Set(GROUPS.filter((g) => m.assignments.has(`${user}|member|group:${g}`)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const tuple of m.tuples) {
      const [child, , parent] = tuple.split('|').map((s) => s.replace('group:', ''));
      if (reached.has(child) && !reached.has(parent)) {
        reached.add(parent);
        grew = true;
      }
    }
  }
  return [...reached].some((g) => GROUP_GRANTS[g] === doc);
}

async function listAll(path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const { body } = await ok('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    const data = Array.isArray(body) ? body : body.data;
    out.push(...data);
    if (data.length < 100) return out;
  }
}

/** What an environment holds, in the model's terms. */
async function holdings(env: string): Promise<Model> {
  const users = await listAll(`${facts(env)}/users`);
  const assignments = await listAll(`${facts(env)}/role_assignments`);
  const tuples = await listAll(`${facts(env)}/relationship_tuples`);
  return {
    users: new Map(users.map((u) => [u.key as string, { level: u.attributes?.level }])),
    assignments: new Set(assignments.filter((a) => a.resource_instance).map((a) => `${a.user}|${a.role}|${a.resource_instance}`)),
    tuples: new Set(tuples.filter((x) => x.relation === 'group').map((x) => `${x.subject}|group|${x.object}`)),
  };
}

const sorted = (m: Model) => ({
  users: [...m.users].sort(([a], [b]) => a.localeCompare(b)),
  assignments: [...m.assignments].sort(),
  tuples: [...m.tuples].sort(),
});

it('exports exactly one revision while mixed writes go on, and every write succeeds', async () => {
  const model: Model = { users: new Map(), assignments: new Set(), tuples: new Set() };
  /** The writer's log: each write's revision and its effect on the model. */
  const log: { revision: number; apply: Write }[] = [];
  const failed: string[] = [];
  /** Writes still to make once the exports are done (-1: until then): a few always land after the last export. */
  let extra = -1;
  let writerDone = false;
  const rnd = rng(43);
  const writer = (async () => {
    for (let n = 0; extra !== 0 || n < 30; n++) {
      if (extra > 0) extra--;
      const w = nextWrite(model, rnd, n);
      const res = await t.call(w.method, w.path, w.body);
      if (res.status >= 300) {
        failed.push(`${w.method} ${w.path} ${JSON.stringify(w.body)}: ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      w.apply(model);
      log.push({ revision: Number(res.headers.get('x-authz-revision')), apply: w.apply });
    }
  })().finally(() => (writerDone = true));

  const exports: { revision: number; text: string }[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      // Let some writes land between exports (at least one acknowledged, however slow the box).
      const before = log.length;
      await new Promise((r) => setTimeout(r, 300));
      while (log.length === before && failed.length === 0 && !writerDone) await new Promise((r) => setTimeout(r, 20));
      const res = await fetch(`${t.url}/v2/export/${t.proj}/${SRC}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
      const text = await res.text();
      expect([res.status, res.status === 200 ? '' : text]).toEqual([200, '']);
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0].type).toBe('header');
      // Read by the walk extension (the test Neo4j loads it): writers held only while Neo4j reads.
      expect(lines[0].read).toBe('extension');
      expect(lines.at(-1)).toMatchObject({ type: 'end', revision: lines[0].revision });
      exports.push({ revision: lines[0].revision, text });
    }
  } finally {
    // The write in flight may have committed before the last export read; the three after it start once it is done.
    extra = 3;
    await writer;
  }
  expect(failed).toEqual([]);
  // Each export's hold of the writers is measured (docs/operations.md).
  const metrics = await (await fetch(`${t.url}/metrics`)).text();
  expect(metrics).toMatch(/^authz_export_writers_held_seconds_count\{read="extension"\} 3$/m);
  // Every write named its own revision, all different: the log orders them.
  expect(new Set(log.map((l) => l.revision)).size).toBe(log.length);
  log.sort((a, b) => a.revision - b.revision);
  // The exports were taken while writes went on: writes came before and after each one.
  for (const e of exports) {
    expect(log.some((l) => l.revision <= e.revision) && log.some((l) => l.revision > e.revision)).toBe(true);
  }

  for (const [i, e] of exports.entries()) {
    const at: Model = { users: new Map(), assignments: new Set(), tuples: new Set() };
    for (const l of log) if (l.revision <= e.revision) l.apply(at);
    const env = `restored${i}`;
    await ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
    const res = await fetch(`${t.url}/v2/import/${t.proj}/${env}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/x-ndjson' },
      body: e.text,
    });
    expect(res.status).toBe(200);
    // Fact by fact: every write at or before the revision, none after.
    expect(sorted(await holdings(env))).toEqual(sorted(at));
    // And it answers as the writer's model at that revision does.
    const users = [...at.users.keys()].slice(0, 12);
    const questions = users.flatMap((user) => DOCS.map((doc) => ({ user, doc })));
    const bulk = (
      await ok(
        'POST',
        `/v2/allowed/${t.proj}/${env}/bulk`,
        questions.map((q) => ({ user: q.user, action: 'read', resource: { type: 'doc', key: q.doc, tenant: 'default' } })),
      )
    ).body.allow.map((a: { allow: boolean }) => a.allow);
    expect(bulk).toEqual(questions.map((q) => modelAllows(at, q.user, q.doc)));
  }
}, 240_000);
