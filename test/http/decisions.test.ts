import { gzipSync } from 'node:zlib';
import { startTestService, type TestService } from '../support/testService';

let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;

const ok = (method: string, path: string, body?: unknown, status?: number) => t.ok(method, path, body, status);

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
  await ok('POST', `${schema()}/resources/doc/roles`, { key: 'owner', name: 'Owner', permissions: ['read', 'write'] });
  await ok('POST', `${schema()}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['doc:read'] });
  await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
  await ok('POST', `${schema()}/resource_instances`, { key: 'd1', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${schema()}/resource_instances`, { key: 'd2', tenant: 'default', resource: 'doc' });
  for (const key of ['owner-user', 'auditor-user', 'nobody']) await ok('POST', `${facts()}/users`, { key });
  await ok('POST', `${facts()}/role_assignments`, { user: 'owner-user', role: 'owner', tenant: 'acme', resource_instance: 'doc:d1' });
  await ok('POST', `${facts()}/role_assignments`, { user: 'auditor-user', role: 'auditor', tenant: 'acme' });
});
afterAll(async () => t?.close());

const q = (user: unknown, action: string, type: string, key?: string, tenant?: string) => ({
  user,
  action,
  resource: { type, ...(key ? { key } : {}), ...(tenant ? { tenant } : {}) },
});

describe('allowed, through either door (the hot path, or koa with a query string)', () => {
  const post = async (path: string, body: Blob | string, headers: Record<string, string> = {}) => {
    const res = await fetch(t.url + path, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json', ...headers },
    });
    return { status: res.status, body: await res.json() };
  };
  const doors = () => [allowed(), `${allowed()}?explain=false`];

  it('inflates a gzip body, and refuses an unknown encoding with 415', async () => {
    const zipped = new Blob([new Uint8Array(gzipSync(JSON.stringify(q('owner-user', 'write', 'doc', 'd1'))))]);
    for (const path of doors()) {
      expect({ path, ...(await post(path, zipped, { 'content-encoding': 'gzip' })) }).toEqual({ path, status: 200, body: { allow: true } });
      expect({ path, status: (await post(path, zipped, { 'content-encoding': 'foo' })).status }).toEqual({ path, status: 415 });
    }
  });

  it('refuses a __proto__ key, plain or escaped, with 400', async () => {
    for (const path of doors()) {
      for (const raw of [
        '{"user":{"key":"owner-user","__proto__":{}},"action":"read","resource":{"type":"doc"}}',
        '{"user":{"key":"owner-user","\\u005f_proto__":{"x":1}},"action":"read","resource":{"type":"doc"}}',
      ]) {
        const res = await post(path, raw);
        expect({ path, status: res.status, code: res.body.error_code }).toEqual({ path, status: 400, code: 'INVALID_INPUT' });
      }
      // The word elsewhere (a value) is just text.
      expect((await post(path, JSON.stringify(q('__proto__', 'read', 'doc', 'd1')))).status).toBe(200);
    }
  });
});

describe('allowed', () => {
  it('grants through a direct resource role on the instance only', async () => {
    expect((await ok('POST', allowed(), q('owner-user', 'write', 'doc', 'd1'))).allow).toBe(true);
    expect((await ok('POST', allowed(), q({ key: 'owner-user', email: 'o@x.test' }, 'read', 'doc', 'd1'))).allow).toBe(true);
    expect((await ok('POST', allowed(), q('owner-user', 'write', 'doc', 'd2'))).allow).toBe(false);
  });

  it('grants a tenant role on every instance of its tenant and at type level, nowhere else', async () => {
    expect((await ok('POST', allowed(), q('auditor-user', 'read', 'doc', 'd1'))).allow).toBe(true);
    expect((await ok('POST', allowed(), q('auditor-user', 'read', 'doc', undefined, 'acme'))).allow).toBe(true);
    expect((await ok('POST', allowed(), q('auditor-user', 'write', 'doc', 'd1'))).allow).toBe(false);
    expect((await ok('POST', allowed(), q('auditor-user', 'read', 'doc', 'd2'))).allow).toBe(false);
    expect((await ok('POST', allowed(), q('auditor-user', 'read', 'doc', undefined, 'default'))).allow).toBe(false);
  });

  it('answers false, not an error, for unknown users, resources, actions and instances', async () => {
    for (const body of [
      q('ghost', 'read', 'doc', 'd1'),
      q('owner-user', 'fly', 'doc', 'd1'),
      q('owner-user', 'read', 'ship', 'x'),
      q('owner-user', 'read', 'doc', 'nope'),
    ]) {
      const res = await t.call('POST', allowed(), body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ allow: false });
    }
  });

  it('keeps the order in bulk, and rejects more than 100 questions or malformed ones', async () => {
    const res = await ok('POST', `${allowed()}/bulk`, [
      q('nobody', 'read', 'doc', 'd1'),
      q('owner-user', 'read', 'doc', 'd1'),
      q('auditor-user', 'read', 'doc', 'd2'),
    ]);
    expect(res).toEqual({ allow: [{ allow: false }, { allow: true }, { allow: false }] });
    const big = Array.from({ length: 101 }, () => q('nobody', 'read', 'doc', 'd1'));
    expect((await t.call('POST', `${allowed()}/bulk`, big)).status).toBe(422);
    const bad = await t.call('POST', allowed(), { user: 'x', action: 'read' });
    expect(bad.status).toBe(422);
    expect(bad.body.details).toContainEqual({ path: '/body/resource', message: 'is required' });
  });

  it('answers keys made of the packed checks’ own characters (digits, colons, tildes, astral) exactly', async () => {
    // The walk extension receives a batch's checks packed into one string (src/areas/decisions/packedChecks.ts).
    const user = '12:~a:😀';
    const doc = '3:x~';
    await ok('POST', `${facts()}/users`, { key: user });
    await ok('POST', `${schema()}/resource_instances`, { key: doc, tenant: 'acme', resource: 'doc' });
    await ok('POST', `${facts()}/role_assignments`, { user, role: 'owner', tenant: 'acme', resource_instance: `doc:${doc}` });
    const res = await ok('POST', `${allowed()}/bulk`, [
      q(user, 'write', 'doc', doc),
      q('12:~a:', 'write', 'doc', doc),
      q(user, 'write', 'doc', '3:x'),
      q(user, 'read', 'doc', doc, 'acme'),
      q(user, 'read', 'doc', doc, 'default'),
      q('owner-user', 'read', 'doc', 'd1'),
    ]);
    expect(res).toEqual({
      allow: [{ allow: true }, { allow: false }, { allow: false }, { allow: true }, { allow: false }, { allow: true }],
    });
  });

  it('answers at the Permit PDP paths for an environment key, 403 for the admin key', async () => {
    const res = await t.call('POST', '/allowed', q('owner-user', 'write', 'doc', 'd1'), { key: t.envKey });
    expect(res.body).toEqual({ allow: true });
    const bulk = await t.call('POST', '/allowed/bulk', [q('owner-user', 'write', 'doc', 'd1')], { key: t.envKey });
    expect(bulk.body).toEqual({ allow: [{ allow: true }] });
    expect((await t.call('POST', '/allowed', q('owner-user', 'write', 'doc', 'd1'))).status).toBe(403);
  });

  it('revokes in the next request after an unassignment', async () => {
    await ok('POST', `${facts()}/role_assignments`, { user: 'nobody', role: 'owner', tenant: 'default', resource_instance: 'doc:d2' });
    expect((await ok('POST', allowed(), q('nobody', 'write', 'doc', 'd2'))).allow).toBe(true);
    const del = await t.call('DELETE', `${facts()}/role_assignments`, {
      user: 'nobody',
      role: 'owner',
      tenant: 'default',
      resource_instance: 'doc:d2',
    });
    expect(del.status).toBe(204);
    expect((await ok('POST', allowed(), q('nobody', 'write', 'doc', 'd2'))).allow).toBe(false);
  });
});
