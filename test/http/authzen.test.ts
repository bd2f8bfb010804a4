import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { Api } from '../../src/cli/api';
import { runTestFile } from '../../src/cli/testFile';
import { type ApiResponse, startTestService, type TestService } from '../support/testService';

/**
 * The OpenID AuthZEN Authorization API 1.0 (docs/authzen.md): every test of every level of its
 * certification scenario (openid/authzen, certification/authorization-api-1_0-scenario.md at
 * e287920; each test names its section, c-2-2-1 ...) against the real service with the scenario's
 * fixture (test/policy/authzen-certification.test.yaml), and every vector of the Todo interop
 * scenario (test/fixtures/authzen) against the Todo fixture as Permit models it
 * (test/policy/authzen-todo.test.yaml), each in an environment of its own, asked with that
 * environment's key.
 */
const BASE = 'https://pdp.example.test';
const POLICY = join(__dirname, '..', 'policy');
let t: TestService;
let certKey: string;
let todoKey: string;
let readKey: string;

/**
 * A test file's fixture (its policy and writes; its assertions run in test/cli/graph-authz.test.ts)
 * in an environment of the test's project, and a key of it.
 */
async function loadFixture(env: string, file: string): Promise<string> {
  if (env !== t.env) await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
  const doc = parse(readFileSync(join(POLICY, file), 'utf8'));
  const writes = { ...doc, steps: doc.steps.filter((step: object) => !Object.keys(step).some((k) => ASSERTIONS.includes(k))) };
  const copy = join(tmp, file);
  writeFileSync(copy, stringify(writes));
  const run = await runTestFile(new Api(t.url, t.adminKey), copy, t.proj, env);
  expect(run.failures).toEqual([]);
  return (await t.ok('POST', `/v2/api-key/${t.proj}/${env}`, {})).secret;
}
const ASSERTIONS = ['check', 'checks', 'list_objects', 'authorized_users', 'explain'];
const tmp = mkdtempSync(join(tmpdir(), 'authzen-'));

beforeAll(async () => {
  t = await startTestService({ env: { PUBLIC_BASE_URL: `${BASE}/` } });
  certKey = await loadFixture(t.env, 'authzen-certification.test.yaml');
  readKey = (await t.ok('POST', `/v2/api-key/${t.proj}/${t.env}`, { access_level: 'read' })).secret;
  todoKey = await loadFixture('todo', 'authzen-todo.test.yaml');
}, 120_000);
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await t?.close();
});

type Opts = { key?: string | null; headers?: Record<string, string>; raw?: string };
const post = (path: string, body?: unknown, opts: Opts = {}): Promise<ApiResponse> => t.call('POST', path, body, { key: certKey, ...opts });
const evaluation = (body: unknown, opts?: Opts) => post('/access/v1/evaluation', body, opts);
const evaluations = (body: unknown, opts?: Opts) => post('/access/v1/evaluations', body, opts);
const search = (what: 'subject' | 'resource' | 'action', body: unknown, opts?: Opts) => post(`/access/v1/search/${what}`, body, opts);

const alice = { type: 'user', id: 'alice' };
const bob = { type: 'user', id: 'bob' };
const bobAdmin = { ...bob, properties: { role: 'admin' } };
const read = { name: 'read' };
const write = { name: 'write' };
const record1 = { type: 'record', id: 'record-1' };
const record2 = { type: 'record', id: 'record-2' };
const archived2 = { ...record2, properties: { status: 'archived' } };
const ctx = { time: '2025-06-27T18:03-07:00', ip: '192.168.1.1' };

/** The decision of an evaluation that must answer 200 with the decision body. */
async function decided(body: unknown): Promise<boolean> {
  const res = await evaluation(body);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof res.body.decision).toBe('boolean');
  return res.body.decision;
}
const ids = (res: ApiResponse) => (res.body.results as { id: string }[]).map((r) => r.id).sort();
const names = (res: ApiResponse) => (res.body.results as { name: string }[]).map((r) => r.name).sort();

/** A refusal as the specification says: the status, and the message alone as text. */
function refused(res: ApiResponse, status = 400): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(typeof res.body).toBe('string');
  expect(res.body.length).toBeGreaterThan(0);
}

describe('Basic Core (c-2)', () => {
  it('c-2-2-1, c-2-2-2: the fixture permit and deny', async () => {
    expect(await decided({ subject: alice, action: read, resource: record1 })).toBe(true);
    expect(await decided({ subject: bob, action: write, resource: record1 })).toBe(false);
    // Decision rules 2 and 3 as well.
    expect(await decided({ subject: alice, action: write, resource: record1 })).toBe(true);
    expect(await decided({ subject: bob, action: read, resource: record1 })).toBe(true);
  });

  it('c-2-2-3, c-2-2-8, c-2-2-9: optional context, additional properties and unknown fields change nothing', async () => {
    expect(await decided({ subject: alice, action: read, resource: record1, context: ctx })).toBe(true);
    expect(
      await decided({
        subject: { ...alice, properties: { department: 'Sales', role: 'manager' } },
        action: { name: 'read', properties: { method: 'GET' } },
        resource: { ...record1, properties: { status: 'active', owner: 'bob' } },
      }),
    ).toBe(true);
    expect(await decided({ subject: alice, action: read, resource: record1, foo: 'bar', futureField: { nested: true } })).toBe(true);
  });

  it('c-2-3: the answer is exactly {decision: boolean}', async () => {
    const res = await evaluation({ subject: alice, action: read, resource: record1 });
    expect(res.body).toEqual({ decision: true });
  });

  it('c-2-4-1, c-2-4-2, c-2-4-6: a missing or mistyped field answers 400 with a message', async () => {
    for (const body of [
      { action: read, resource: record1 },
      { subject: alice, resource: record1 },
      { subject: alice, action: read },
      { subject: { id: 'alice' }, action: read, resource: record1 },
      { subject: { type: 'user' }, action: read, resource: record1 },
      { subject: alice, action: {}, resource: record1 },
      { subject: alice, action: read, resource: { id: 'record-1' } },
      { subject: alice, action: read, resource: { type: 'record' } },
      { subject: 'alice', action: read, resource: record1 },
      { subject: alice, action: { name: 123 }, resource: record1 },
    ]) {
      const res = await evaluation(body);
      refused(res);
    }
    const missing = await evaluation({ subject: alice, resource: record1 });
    expect(missing.body).toMatch(/action/);
  });

  it('c-2-4-3, c-2-4-4, c-2-4-5: another content type, malformed JSON and an empty body answer 400', async () => {
    const question = JSON.stringify({ subject: alice, action: read, resource: record1 });
    refused(await evaluation(undefined, { raw: question, headers: { 'content-type': 'text/plain' } }));
    refused(await evaluation(undefined, { raw: '{"subject": {' }));
    refused(await evaluation(undefined, { raw: '' }));
    refused(await evaluation(undefined, { raw: '[1, 2]' }));
  });

  it('c-2-5: X-Request-ID is echoed exactly as sent, on the hot path and through koa alike; without one, one is made', async () => {
    for (const id of ['bfe9eb29-ab87-4ca3-be83-a1d5d8305716', 'req 42/a=b;{"x"}\t~|', 'x'.repeat(1024)]) {
      const headers = { 'x-request-id': id };
      const ok = await evaluation({ subject: alice, action: read, resource: record1 }, { headers });
      expect(ok.headers.get('x-request-id')).toBe(headers['x-request-id']);
      const bad = await evaluation({ subject: alice }, { headers });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-request-id')).toBe(headers['x-request-id']);
      const searched = await search('action', { subject: alice, resource: record1 }, { headers });
      expect(searched.headers.get('x-request-id')).toBe(headers['x-request-id']);
      const unauthorized = await search('action', { subject: alice, resource: record1 }, { headers, key: null });
      expect(unauthorized.headers.get('x-request-id')).toBe(headers['x-request-id']);
    }
    // Bounded and header-safe: longer than 1024 characters, or with bytes outside visible ASCII, it is replaced.
    for (const id of ['x'.repeat(1025), Buffer.from('req-α', 'utf8').toString('latin1')]) {
      const other = await evaluation({ subject: alice, action: read, resource: record1 }, { headers: { 'x-request-id': id } });
      expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    const none = await evaluation({ subject: alice, action: read, resource: record1 });
    expect(none.status).toBe(200);
    expect(none.headers.get('x-request-id')).toBeTruthy();
    // Elsewhere docs/behaviour.md's rule stays: an id outside [A-Za-z0-9_.:-]{1,128} is replaced.
    const v2 = await t.call('GET', '/v2/openapi.json', undefined, { headers: { 'x-request-id': 'req 42' } });
    expect(v2.headers.get('x-request-id')).not.toBe('req 42');
  });

  it('c-2-6: the same question answers the same each time', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await decided({ subject: alice, action: read, resource: record1 }));
    expect(answers).toEqual([true, true, true, true, true]);
  });
});

describe('Basic Properties (c-2-2-4 .. c-2-2-7)', () => {
  it('evaluates resource, subject and action properties', async () => {
    expect(await decided({ subject: alice, action: write, resource: archived2 })).toBe(false);
    expect(await decided({ subject: bobAdmin, action: write, resource: archived2 })).toBe(true);
    expect(await decided({ subject: alice, action: { name: 'delete', properties: { soft: true } }, resource: record1 })).toBe(true);
    expect(await decided({ subject: alice, action: { name: 'delete', properties: { soft: false } }, resource: record1 })).toBe(false);
    // The properties are what decides: record-1 sent as archived, alice sent as admin.
    expect(await decided({ subject: alice, action: write, resource: { ...record1, properties: { status: 'archived' } } })).toBe(false);
    expect(await decided({ subject: { ...alice, properties: { role: 'admin' } }, action: write, resource: archived2 })).toBe(true);
  });

  it('takes the tenant from resource.properties.tenant: a stored instance asked in another tenant is denied', async () => {
    expect(await decided({ subject: alice, action: read, resource: { ...record1, properties: { tenant: 'default' } } })).toBe(true);
    expect(await decided({ subject: alice, action: read, resource: { ...record1, properties: { tenant: 'elsewhere' } } })).toBe(false);
    // The tenant beside other properties: those still decide, and the tenant alone decides as nothing sent.
    const plainWrite = await decided({ subject: alice, action: write, resource: record1 });
    expect(plainWrite).toBe(true);
    expect(await decided({ subject: alice, action: write, resource: { ...record1, properties: { tenant: 'default' } } })).toBe(plainWrite);
    expect(
      await decided({ subject: alice, action: write, resource: { ...record1, properties: { tenant: 'default', status: 'archived' } } }),
    ).toBe(false);
  });

  it('answers a subject of another type than user with a denial and its reason', async () => {
    const res = await evaluation({ subject: { type: 'service', id: 'alice' }, action: read, resource: record1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ decision: false, context: { reason: expect.stringContaining('"service"') } });
  });
});

describe('Batch Core (c-3)', () => {
  it('c-3-2-1, c-3-2-2, c-3-2-5, c-3-3: one decision per item, in order, without a top-level decision', async () => {
    const structure = await evaluations({ subject: alice, action: read, evaluations: [{ resource: record1 }, { resource: record2 }] });
    expect(structure.status).toBe(200);
    expect(structure.body).toEqual({ evaluations: [{ decision: true }, { decision: expect.any(Boolean) }] });
    const fixture = await evaluations({ subject: bob, resource: record1, evaluations: [{ action: read }, { action: write }] });
    expect(fixture.body).toEqual({ evaluations: [{ decision: true }, { decision: false }] });
    const full = await evaluations({
      evaluations: [
        { subject: alice, action: read, resource: record1 },
        { subject: bob, action: write, resource: record1 },
      ],
    });
    expect(full.body).toEqual({ evaluations: [{ decision: true }, { decision: false }] });
  });

  it('c-3-2-6: a top-level context applies unless an item replaces it', async () => {
    const res = await evaluations({
      subject: alice,
      action: read,
      context: { time: '2025-06-27T18:03-07:00' },
      evaluations: [{ resource: record1 }, { resource: record2, context: { time: '2025-06-27T19:00-07:00', source: 'batch-override' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.evaluations).toHaveLength(2);
  });

  it('c-3-4-1: under execute_all an item missing a field is a denial with the error in its context', async () => {
    const res = await evaluations({
      subject: alice,
      action: read,
      options: { evaluations_semantic: 'execute_all' },
      evaluations: [{ resource: record1 }, {}],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      evaluations: [
        { decision: true },
        { decision: false, context: { error: { status: 400, message: expect.stringContaining('resource') } } },
      ],
    });
  });

  it('c-3-4-2, c-3-4-3: without evaluations, or with none, it is the single evaluation', async () => {
    for (const extra of [{}, { evaluations: [] }]) {
      const res = await evaluations({ subject: alice, action: read, resource: record1, ...extra });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ decision: true });
    }
    refused(await evaluations({ subject: alice, action: read }));
  });

  it('a malformed top level, too many items or an unknown semantic answer 400', async () => {
    refused(await evaluations({ subject: 'alice', action: read, evaluations: [{ resource: record1 }] }));
    refused(await evaluations({ subject: alice, action: read, evaluations: Array.from({ length: 101 }, () => ({ resource: record1 })) }));
    refused(
      await evaluations({ subject: alice, action: read, options: { evaluations_semantic: 'any' }, evaluations: [{ resource: record1 }] }),
    );
  });

  it('answers a batch read straight from its bytes as the same batch read by JSON.parse, under every semantic', async () => {
    // The plain shape is read without JSON.parse (docs/authzen.md, "Speed"); with each entity's
    // keys reversed (id before type) the same questions take JSON.parse, the schema and the mapping.
    const items = [
      { subject: alice, action: read, resource: record1 },
      { subject: bob, action: write, resource: record1 },
      { resource: record2, subject: alice, action: { name: 'delete' } },
      { action: read, subject: bob, resource: { ...record1, properties: { tenant: 'default' } } },
    ];
    const reversed = (o: object) => Object.fromEntries(Object.entries(o).reverse());
    for (const semantic of ['execute_all', 'deny_on_first_deny', 'permit_on_first_permit']) {
      const plain = await evaluations({ options: { evaluations_semantic: semantic }, evaluations: items });
      const general = await evaluations({
        evaluations: items.map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, reversed(v)]))),
        options: { evaluations_semantic: semantic },
      });
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual(general.body);
      expect(plain.body.evaluations[0]).toEqual(
        semantic === 'permit_on_first_permit' ? { decision: true, context: { reason: semantic } } : { decision: true },
      );
    }
    const all = await evaluations({ evaluations: items });
    expect(all.body.evaluations.slice(0, 2)).toEqual([{ decision: true }, { decision: false }]);
  });

  it('deny_on_first_deny and permit_on_first_permit stop at the first deny / permit', async () => {
    const items = [{ resource: record1 }, { action: { name: 'delete' }, resource: record1 }, { resource: record2 }];
    const all = await evaluations({ subject: alice, action: read, evaluations: items });
    expect(all.body.evaluations.map((e: { decision: boolean }) => e.decision)).toEqual([true, false, true]);
    const deny = await evaluations({
      subject: alice,
      action: read,
      options: { evaluations_semantic: 'deny_on_first_deny' },
      evaluations: items,
    });
    expect(deny.body).toEqual({ evaluations: [{ decision: true }, { decision: false, context: { reason: 'deny_on_first_deny' } }] });
    const permit = await evaluations({
      subject: alice,
      action: read,
      options: { evaluations_semantic: 'permit_on_first_permit', another_option: 'value' },
      evaluations: items,
    });
    expect(permit.body).toEqual({ evaluations: [{ decision: true, context: { reason: 'permit_on_first_permit' } }] });
  });
});

describe('Batch Properties (c-3-2-3, c-3-2-4, c-3-2-7)', () => {
  it('evaluates properties per item, and each item key replaces its default whole', async () => {
    const byResource = await evaluations({
      subject: alice,
      action: write,
      evaluations: [{ resource: { ...record1, properties: { status: 'active' } } }, { resource: archived2 }],
    });
    expect(byResource.body).toEqual({ evaluations: [{ decision: true }, { decision: false }] });
    const bySubject = await evaluations({ action: write, resource: archived2, evaluations: [{ subject: alice }, { subject: bobAdmin }] });
    expect(bySubject.body).toEqual({ evaluations: [{ decision: false }, { decision: true }] });
    const inherited = await evaluations({
      subject: alice,
      action: write,
      resource: { ...record1, properties: { status: 'active' } },
      evaluations: [{}, { resource: archived2 }],
    });
    expect(inherited.body).toEqual({ evaluations: [{ decision: true }, { decision: false }] });
  });
});

describe('Search Core (c-4)', () => {
  it('c-4-2-1 .. c-4-2-3: subject search (S1), with context, ignoring a subject id', async () => {
    for (const body of [
      { subject: { type: 'user' }, action: read, resource: record1 },
      { subject: { type: 'user' }, action: read, resource: record1, context: ctx },
      { subject: alice, action: read, resource: record1 },
    ]) {
      const res = await search('subject', body);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([
        { type: 'user', id: 'alice' },
        { type: 'user', id: 'bob' },
      ]);
    }
  });

  it('c-4-3-1 .. c-4-3-3: resource search (S2), with context, ignoring a resource id', async () => {
    for (const body of [
      { subject: alice, action: read, resource: { type: 'record' } },
      { subject: alice, action: read, resource: { type: 'record' }, context: ctx },
      { subject: alice, action: read, resource: record1 },
    ]) {
      const res = await search('resource', body);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([record1, record2]);
    }
  });

  it('c-4-4-1, c-4-4-2: action search (S3), with context', async () => {
    for (const body of [
      { subject: alice, resource: record1 },
      { subject: alice, resource: record1, context: ctx },
    ]) {
      const res = await search('action', body);
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['read', 'write']);
    }
    expect(names(await search('action', { subject: bob, resource: record1 }))).toEqual(['read']);
  });

  it('c-4-5: pages by opaque tokens: limit, next_token until it is empty; a token of another search answers 400', async () => {
    const first = await search('subject', { subject: { type: 'user' }, action: read, resource: record1, page: { limit: 1 } });
    expect(first.body).toEqual({
      page: { next_token: expect.stringMatching(/.+/), count: 1, total: 2 },
      results: [{ type: 'user', id: 'alice' }],
    });
    const second = await search('subject', {
      subject: { type: 'user' },
      action: read,
      resource: record1,
      page: { limit: 1, token: first.body.page.next_token },
    });
    expect(second.body).toEqual({ page: { next_token: '', count: 1, total: 2 }, results: [{ type: 'user', id: 'bob' }] });
    refused(
      await search('subject', {
        subject: { type: 'user' },
        action: write,
        resource: record1,
        page: { limit: 1, token: first.body.page.next_token },
      }),
    );
    refused(await search('subject', { subject: { type: 'user' }, action: read, resource: record1, page: { token: 'not-a-token' } }));

    const r1 = await search('resource', { subject: alice, action: read, resource: { type: 'record' }, page: { limit: 1 } });
    expect(r1.body).toEqual({ page: { next_token: expect.stringMatching(/.+/), count: 1 }, results: [record1] });
    const r2 = await search('resource', {
      subject: alice,
      action: read,
      resource: { type: 'record' },
      page: { limit: 1, token: r1.body.page.next_token },
    });
    expect(r2.body).toEqual({ page: { next_token: '', count: 1 }, results: [record2] });

    const a1 = await search('action', { subject: alice, resource: record1, page: { limit: 1 } });
    const a2 = await search('action', { subject: alice, resource: record1, page: { limit: 1, token: a1.body.page.next_token } });
    expect([...a1.body.results, ...a2.body.results]).toEqual([{ name: 'read' }, { name: 'write' }]);
    expect(a2.body.page.next_token).toBe('');
  });

  // (A record id that is not stored is the type alone, docs/authzen.md: its subject search answers who may act on any record.)
  it('c-4-6: unknown identifiers and types give empty results on all three searches, not errors', async () => {
    const nobody = { type: 'user', id: 'nonexistent-user' };
    for (const [what, body] of [
      ['action', { subject: nobody, resource: record1 }],
      ['action', { subject: alice, resource: { type: 'spaceship', id: 'x' } }],
      ['action', { subject: { type: 'spaceship', id: 'alice' }, resource: record1 }],
      ['subject', { subject: { type: 'spaceship' }, action: read, resource: record1 }],
      ['subject', { subject: { type: 'user' }, action: read, resource: { type: 'spaceship', id: 'x' } }],
      ['resource', { subject: nobody, action: read, resource: { type: 'record' } }],
      ['resource', { subject: alice, action: read, resource: { type: 'spaceship' } }],
      ['resource', { subject: { type: 'spaceship', id: 'alice' }, action: read, resource: { type: 'record' } }],
    ] as const) {
      const res = await search(what, body);
      expect({ what, body, status: res.status, results: res.body.results }).toEqual({ what, body, status: 200, results: [] });
    }
  });

  it('c-4-7: missing fields and missing input ids answer 400', async () => {
    refused(await search('subject', { subject: { type: 'user' }, resource: record1 }));
    refused(await search('resource', { action: read, resource: { type: 'record' } }));
    refused(await search('action', { subject: alice }));
    refused(await search('subject', { subject: { type: 'user' }, action: read, resource: { type: 'record' } }));
    refused(await search('resource', { subject: { type: 'user' }, action: read, resource: { type: 'record' } }));
    refused(await search('action', { subject: { type: 'user' }, resource: record1 }));
  });
});

describe('Search Properties (c-4-2-4, c-4-3-4, c-4-4-3)', () => {
  it('S4-S6: subject, resource and action search with properties', async () => {
    const s4 = await search('subject', { subject: { type: 'user' }, action: write, resource: archived2 });
    expect(ids(s4)).toEqual(['bob']);
    const s5 = await search('resource', { subject: bobAdmin, action: write, resource: { type: 'record' } });
    expect(s5.body.results).toEqual([record2]);
    const s6 = await search('action', { subject: bobAdmin, resource: archived2 });
    expect(names(s6)).toEqual(['read', 'write']);
    // The sent properties are what decides: alice as an admin on record-2, record-1 sent as archived.
    expect(names(await search('action', { subject: { ...alice, properties: { role: 'admin' } }, resource: archived2 }))).toEqual([
      'read',
      'write',
    ]);
    expect(names(await search('action', { subject: alice, resource: { ...record1, properties: { status: 'archived' } } }))).toEqual([
      'read',
    ]);
  });
});

describe('Discovery (c-6)', () => {
  it('serves the metadata without a key, with the absolute URL of every endpoint under PUBLIC_BASE_URL', async () => {
    const res = await t.call('GET', '/.well-known/authzen-configuration', undefined, { key: null, headers: { 'x-request-id': 'disc 1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBe('disc 1');
    expect(res.body).toEqual({
      policy_decision_point: BASE,
      access_evaluation_endpoint: `${BASE}/access/v1/evaluation`,
      access_evaluations_endpoint: `${BASE}/access/v1/evaluations`,
      search_subject_endpoint: `${BASE}/access/v1/search/subject`,
      search_resource_endpoint: `${BASE}/access/v1/search/resource`,
      search_action_endpoint: `${BASE}/access/v1/search/action`,
    });
  });
});

describe('Consistency (options.consistency, as POST /allowed takes it)', () => {
  it('answers at least at the revision of a write on every path, and refuses a malformed consistency with 400', async () => {
    const facts = `/v2/facts/${t.proj}/${t.env}`;
    await t.ok('POST', `${facts}/users`, { key: 'erin' });
    const granted = await t.call('POST', `${facts}/role_assignments`, { user: 'erin', role: 'viewer', tenant: 'default' });
    expect(granted.status).toBe(200);
    const at = (res: ApiResponse) => ({ consistency: { at_least: res.headers.get('x-authz-revision')! } });
    const erin = { type: 'user', id: 'erin' };
    const question = { subject: erin, action: read, resource: record1 };
    expect((await evaluation({ ...question, options: at(granted) })).body).toEqual({ decision: true });
    expect((await evaluations({ ...question, options: { consistency: 'fully_consistent' } })).body).toEqual({ decision: true });
    const revoked = await t.call('DELETE', `${facts}/role_assignments`, { user: 'erin', role: 'viewer', tenant: 'default' });
    expect(revoked.status).toBe(204);
    const after = at(revoked);
    expect((await evaluation({ ...question, options: after })).body).toEqual({ decision: false });
    expect(
      (await evaluations({ subject: erin, resource: record1, evaluations: [{ action: read }, { action: write }], options: after })).body,
    ).toEqual({
      evaluations: [{ decision: false }, { decision: false }],
    });
    expect(ids(await search('subject', { subject: { type: 'user' }, action: read, resource: record1, options: after }))).toEqual([
      'alice',
      'bob',
    ]);
    expect(ids(await search('resource', { subject: erin, action: read, resource: { type: 'record' }, options: after }))).toEqual([]);
    expect(names(await search('action', { subject: erin, resource: record1, options: { consistency: 'minimize_latency' } }))).toEqual([]);
    expect(
      ids(
        await search('resource', {
          subject: alice,
          action: read,
          resource: { type: 'record' },
          options: { consistency: 'minimize_latency' },
        }),
      ),
    ).toEqual(['record-1', 'record-2']);
    for (const bad of ['eventually', { at_least: 'yesterday' }, 7]) {
      refused(await evaluation({ ...question, options: { consistency: bad } }));
      refused(await evaluations({ ...question, options: { consistency: bad } }));
      refused(await search('subject', { subject: { type: 'user' }, action: read, resource: record1, options: { consistency: bad } }));
      refused(await search('resource', { subject: erin, action: read, resource: { type: 'record' }, options: { consistency: bad } }));
      refused(await search('action', { subject: erin, resource: record1, options: { consistency: bad } }));
    }
  });
});

describe('Which environment answers', () => {
  it("answers for the calling key's environment; a read key may ask; no key is 401 and the admin key 403, as text", async () => {
    const question = { subject: alice, action: read, resource: record1 };
    expect((await evaluation(question, { key: readKey })).body).toEqual({ decision: true });
    // The Todo environment has no alice nor records.
    expect((await evaluation(question, { key: todoKey })).body).toEqual({ decision: false });
    refused(await evaluation(question, { key: null }), 401);
    refused(await evaluation(question, { key: 'not-a-key' }), 401);
    refused(await search('subject', { subject: { type: 'user' }, action: read, resource: record1 }, { key: null }), 401);
    refused(await evaluation(question, { key: t.adminKey }), 403);
  });

  it('is listed in the OpenAPI document with the text error of its specification', async () => {
    const doc = (await t.ok('GET', '/v2/openapi.json')) as { paths: Record<string, any> };
    for (const p of ['evaluation', 'evaluations', 'search/subject', 'search/resource', 'search/action'])
      expect(doc.paths[`/access/v1/${p}`].post.responses['400']).toEqual({ $ref: '#/components/responses/PlainError' });
    expect(doc.paths['/.well-known/authzen-configuration'].get.security).toEqual([]);
  });
});

describe('The Todo interop vectors (decisions-authorization-api-1_0-02)', () => {
  const vectors = JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', 'authzen', 'todo-decisions-authorization-api-1_0-02.json'), 'utf8'),
  );

  it('answers every evaluation vector as expected', async () => {
    const wrong: unknown[] = [];
    for (const v of vectors.evaluation as { request: unknown; expected: boolean }[]) {
      const res = await evaluation(v.request, { key: todoKey });
      if (res.status !== 200 || res.body.decision !== v.expected) wrong.push({ request: v.request, expected: v.expected, got: res.body });
    }
    expect(vectors.evaluation).toHaveLength(40);
    expect(wrong).toEqual([]);
  });

  it('answers every evaluations vector as expected', async () => {
    for (const v of vectors.evaluations as { request: unknown; expected: unknown }[]) {
      const res = await evaluations(v.request, { key: todoKey });
      expect({ request: v.request, got: res.body }).toEqual({ request: v.request, got: { evaluations: v.expected } });
    }
    expect(vectors.evaluations).toHaveLength(3);
  });
});
