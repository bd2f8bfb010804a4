import { join } from 'node:path';
import { readMigrations } from '../../src/db/migrate';
import { runCypher, startTestService, type TestService } from '../support/testService';

/**
 * A write transaction's change events are one ChangeSet node per (environment, revision), not one
 * node per event; migration V0006 turns the Change nodes of before (one per event) into ChangeSets.
 * An environment whose events are old-style Change nodes answers, once converted, the same feed and
 * the same audit log as the environment they were copied from. The shared database has had every
 * migration applied already, so the test runs the migration's conversion statement itself on
 * Change nodes it makes by hand, in an environment of its own.
 */
let t: TestService;
let envId: string;

interface Change {
  revision: number;
  at: string;
  actor: { kind: string; id: string };
  op: string;
  kind: string;
  key: string;
  before?: any;
  after?: any;
}

beforeAll(async () => {
  t = await startTestService();
  envId = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body.environment_id;
});
afterAll(async () => t?.close());

const cypher = (text: string, params: Record<string, unknown> = {}) => runCypher(t, text, params);

const num = (v: any) => (typeof v === 'number' ? v : v.toNumber());

async function feed(env: string, pageSize = 1000): Promise<Change[]> {
  const out: Change[] = [];
  for (let rev = 0; ; ) {
    const page = await t.ok('GET', `/v2/facts/${t.proj}/${env}/changes?after_revision=${rev}&page_size=${pageSize}`);
    if (!page.changes.length) return out;
    out.push(...page.changes);
    rev = page.next_revision;
  }
}

async function audit(env: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const res = await t.ok('GET', `/v2/audit/${t.proj}/${env}?per_page=100&page=${page}`);
    out.push(...res.data);
    if (page >= res.page_count) return out;
  }
}

async function writeSomeChanges(): Promise<void> {
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} }, relations: { parent: 'doc' } });
  await t.ok('POST', `${schema}/roles`, { key: 'viewer', name: 'Viewer', description: 'sees' });
  await t.ok('PATCH', `${schema}/roles/viewer`, { description: 'sees all' });
  await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  await t.ok('PATCH', `${facts}/tenants/acme`, { name: 'Acme Inc' });
  await t.ok('PUT', `${facts}/bulk/users`, {
    operations: Array.from({ length: 5 }, (_, i) => ({ key: `u${i}`, email: `u${i}@acme.test` })),
  });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'u0', role: 'viewer', tenant: 'acme' });
  await t.ok('DELETE', `${facts}/users/u4`, undefined, 204);
}

it("stores a bulk write's events as one ChangeSet node of parallel lists, and no Change node", async () => {
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('PUT', `${facts}/bulk/users`, { operations: Array.from({ length: 20 }, (_, i) => ({ key: `bulk-${i}` })) });
  const events = (await feed(t.env)).filter((c) => c.key.startsWith('bulk-'));
  expect(events).toHaveLength(20);
  const revision = events[0].revision;
  expect(events.every((c) => c.revision === revision)).toBe(true);
  const [set] = await cypher(
    'MATCH (s:ChangeSet {env: $env, revision: $revision}) RETURN count(s) AS sets, collect(s)[0] AS s, labels(collect(s)[0]) AS labels',
    { env: envId, revision },
  );
  expect(num(set.sets)).toBe(1);
  expect(set.labels).toEqual(['ChangeSet']);
  const s = set.s.properties;
  expect(num(s.n)).toBe(20);
  for (const list of ['ops', 'kinds', 'keys', 'befores', 'afters']) expect(s[list]).toHaveLength(20);
  expect(s.keys).toEqual(events.map((c) => c.key));
  expect(s.befores).toEqual(Array(20).fill(''));
  const [old] = await cypher('MATCH (c:Change {env: $env}) RETURN count(c) AS n', { env: envId });
  expect(num(old.n)).toBe(0);
});

it('V0006 converts old-style Change nodes into ChangeSets that answer the same feed and audit log', async () => {
  await writeSomeChanges();
  const original = await feed(t.env);
  expect(original.some((c) => c.before !== undefined && c.after !== undefined)).toBe(true);
  expect(original.some((c) => c.before !== undefined && c.after === undefined)).toBe(true);
  expect(new Set(original.map((c) => c.revision)).size).toBeLessThan(original.length);
  // The audit log's change events (the key and session events are AuditEvent nodes, not converted).
  const originalAudit = (await audit(t.env)).filter((e) => e.revision !== undefined);
  expect(originalAudit.length).toBeGreaterThan(0);

  // The same events as Change nodes of before, in an environment of their own, written in reverse
  // order (the conversion orders them by seq).
  const legacyId = (await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'legacy', name: 'legacy' })).id;
  const seqs = new Map<number, number>();
  const rows = original
    .map((c) => {
      const seq = seqs.get(c.revision) ?? 0;
      seqs.set(c.revision, seq + 1);
      return {
        revision: c.revision,
        seq,
        at: c.at,
        actor_kind: c.actor.kind,
        actor_id: c.actor.id,
        op: c.op,
        kind: c.kind,
        key: c.key,
        before: c.before === undefined ? null : JSON.stringify(c.before),
        after: c.after === undefined ? null : JSON.stringify(c.after),
      };
    })
    .reverse();
  await cypher(
    'UNWIND $rows AS c CREATE (:Change:InEnv {env: $env, revision: c.revision, seq: c.seq, at: c.at, actor_kind: c.actor_kind, ' +
      'actor_id: c.actor_id, op: c.op, kind: c.kind, key: c.key, before: c.before, after: c.after})',
    { env: legacyId, rows },
  );
  expect(await feed('legacy')).toEqual([]);

  const [migration] = readMigrations(join(__dirname, '..', '..', 'cypher', 'migrations')).filter((m) => m.version === 6);
  const conversion = migration.statements.filter((s) => s.includes('MATCH (c:Change)'));
  expect(conversion).toHaveLength(1);
  await cypher(conversion[0]);
  await cypher(conversion[0]); // again: nothing left to convert, nothing written twice

  const [counts] = await cypher(
    'OPTIONAL MATCH (s:ChangeSet {env: $env}) WITH count(s) AS sets OPTIONAL MATCH (c:Change {env: $env}) RETURN sets, count(c) AS changes',
    { env: legacyId },
  );
  expect({ sets: num(counts.sets), changes: num(counts.changes) }).toEqual({ sets: seqs.size, changes: 0 });
  expect(await feed('legacy')).toEqual(original);
  for (const size of [1, 2, 3]) expect(await feed('legacy', size)).toEqual(original);
  expect(await audit('legacy')).toEqual(originalAudit);

  // Deleting the environment deletes its ChangeSets (they are not InEnv nodes).
  await t.ok('DELETE', `/v2/projects/${t.proj}/envs/legacy`, undefined, 204);
  const [left] = await cypher('MATCH (s:ChangeSet {env: $env}) RETURN count(s) AS n', { env: legacyId });
  expect(num(left.n)).toBe(0);
});

it('deleting a project deletes the ChangeSets of its environments', async () => {
  await t.ok('POST', '/v2/projects', { key: `${t.proj}_gone`, name: 'gone' });
  const env = await t.ok('POST', `/v2/projects/${t.proj}_gone/envs`, { key: 'e', name: 'e' });
  await t.ok('POST', `/v2/facts/${t.proj}_gone/e/tenants`, { key: 'x', name: 'x' });
  const count = async () => num((await cypher('MATCH (s:ChangeSet {env: $env}) RETURN count(s) AS n', { env: env.id }))[0].n);
  expect(await count()).toBe(1);
  await t.ok('DELETE', `/v2/projects/${t.proj}_gone`, undefined, 204);
  expect(await count()).toBe(0);
});
