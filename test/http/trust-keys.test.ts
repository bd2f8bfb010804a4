import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 8: key access levels, key management and the admin graph for the admin key
 * only, rotation. Every refusal is the error body of docs/behaviour.md section 1.
 */
let t: TestService;
let readKey: string;
let writeKey: string;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const keys = () => `/v2/api-key/${t.proj}/${t.env}`;

function expectError(res: { status: number; body: any }, status: number, code: string, mentions?: RegExp) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body).toMatchObject({ id: expect.any(String), title: expect.any(String), message: expect.any(String) });
  if (mentions) expect(res.body.message).toMatch(mentions);
}

beforeAll(async () => {
  t = await startTestService();
  await t.ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `${schema()}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await t.ok('POST', `${facts()}/users`, { key: 'ann' });
  await t.ok('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  await t.ok('POST', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default', resource_instance: 'doc:d1' });
  readKey = (await t.ok('POST', keys(), { name: 'checker', access_level: 'read' })).secret;
  writeKey = (await t.ok('POST', keys(), { name: 'loader' })).secret;
}, 180_000);
afterAll(async () => t?.close());

describe('creating keys', () => {
  it('answers id, secret, access level, name and scope; write is the default; the list shows levels, never secrets', async () => {
    const scope = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body;
    const created = await t.call('POST', keys(), { name: 'ci', access_level: 'read' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      secret: expect.stringMatching(/^authz_/),
      access_level: 'read',
      name: 'ci',
      project_id: scope.project_id,
      environment_id: scope.environment_id,
    });
    expect((await t.call('POST', keys(), {})).body).toMatchObject({ access_level: 'write', name: null });
    const listed = await t.call('GET', `${keys()}/keys`);
    const mine = listed.body.data.find((k: any) => k.id === created.body.id);
    expect(mine).toMatchObject({ access_level: 'read', name: 'ci' });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
  });

  it('refuses an unknown access level (422)', async () => {
    expectError(await t.call('POST', keys(), { access_level: 'owner' }), 422, 'INVALID_INPUT');
  });
});

describe('a read key', () => {
  it('asks every kind of permission question, at the /v2 paths and the PDP paths', async () => {
    const q = { user: 'ann', action: 'read', resource: { type: 'doc', key: 'd1' } };
    const as = { key: readKey };
    expect((await t.call('POST', `/v2/allowed/${t.proj}/${t.env}`, q, as)).body).toEqual({ allow: true });
    expect((await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/bulk`, [q], as)).body).toEqual({ allow: [{ allow: true }] });
    expect((await t.call('POST', '/allowed', q, as)).body).toEqual({ allow: true });
    expect((await t.call('POST', '/allowed/bulk', [q], as)).status).toBe(200);
    expect((await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/user-permissions`, { user: 'ann' }, as)).status).toBe(200);
    expect((await t.call('POST', '/user-permissions', { user: 'ann' }, as)).status).toBe(200);
    expect(
      (
        await t.call(
          'POST',
          `/v2/allowed/${t.proj}/${t.env}/authorized_users`,
          { action: 'read', resource: { type: 'doc', key: 'd1' } },
          as,
        )
      ).status,
    ).toBe(200);
    expect((await t.call('POST', '/authorized_users', { action: 'read', resource: { type: 'doc', key: 'd1' } }, as)).status).toBe(200);
    const tenants = { user: 'ann', action: 'read', resource: { type: 'doc' } };
    expect((await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/all-tenants`, tenants, as)).status).toBe(200);
    expect((await t.call('POST', '/allowed/all-tenants', tenants, as)).status).toBe(200);
    expect((await t.call('POST', '/user-tenants', { user: 'ann' }, as)).status).toBe(200);
    expect((await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/user-tenants`, { user: 'ann' }, as)).status).toBe(200);
  });

  it('reads the schema, the facts and the groups', async () => {
    for (const path of [
      `${schema()}/resources`,
      `${schema()}/resources/doc`,
      `${schema()}/roles`,
      `${facts()}/users/ann`,
      `${facts()}/role_assignments`,
      `${schema()}/groups`,
    ]) {
      expect({ path, status: (await t.call('GET', path, undefined, { key: readKey })).status }).toEqual({ path, status: 200 });
    }
  });

  it('may not change anything: 403 naming the level it lacks, and nothing is written', async () => {
    const attempts: [string, string, unknown?][] = [
      ['POST', `${facts()}/users`, { key: 'mallory' }],
      ['POST', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default', resource_instance: 'doc:d2' }],
      ['DELETE', `${facts()}/users/ann`],
      ['PATCH', `${schema()}/resources/doc`, { name: 'Renamed' }],
      ['POST', `${schema()}/groups`, { group_instance_key: 'eng', group_tenant: 'default' }],
      [
        'POST',
        `/v2/elements/${t.proj}/${t.env}/config`,
        { key: 'ops', name: 'Ops', elements_type: 'operation_approval', roles_to_levels: {} },
      ],
      ['POST', '/v2/auth/elements_login_as', { user_id: 'ann', tenant_id: 'default' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await t.call(method, path, body, { key: readKey });
      expect({ method, path, status: res.status, code: res.body?.error_code }).toEqual({
        method,
        path,
        status: 403,
        code: 'FORBIDDEN_ACCESS',
      });
      expect(res.body.message).toMatch(/access level "read".*needs a key with access level "write"/);
    }
    expect((await t.call('GET', `${facts()}/users/mallory`)).status).toBe(404);
    expect((await t.call('GET', `${facts()}/users/ann`)).status).toBe(200);
    expect((await t.call('GET', `${schema()}/resources/doc`)).body.name).toBe('Doc');
  });

  it('a write key still writes', async () => {
    expect((await t.call('POST', `${facts()}/users`, { key: 'wendy' }, { key: writeKey })).status).toBe(200);
  });
});

describe('admin only', () => {
  it('environment keys, whatever their level, may not create, list or revoke keys', async () => {
    const created = await t.ok('POST', keys(), { name: 'victim' });
    for (const key of [writeKey, readKey, t.envKey]) {
      expectError(await t.call('POST', keys(), {}, { key }), 403, 'FORBIDDEN_ACCESS', /admin key/);
      expectError(await t.call('GET', keys(), undefined, { key }), 403, 'FORBIDDEN_ACCESS', /admin key/);
      expectError(await t.call('GET', `${keys()}/keys`, undefined, { key }), 403, 'FORBIDDEN_ACCESS', /admin key/);
      expectError(await t.call('DELETE', `${keys()}/${created.id}`, undefined, { key }), 403, 'FORBIDDEN_ACCESS', /admin key/);
      expectError(
        await t.call('POST', `/v2/api-key/${created.id}/rotate-secret`, undefined, { key }),
        403,
        'FORBIDDEN_ACCESS',
        /admin key/,
      );
    }
    // The victim key still works: nothing was revoked or rotated.
    expect((await t.call('GET', '/v2/api-key/scope', undefined, { key: created.secret })).status).toBe(200);
  });

  it('environment keys may not read the admin graph', async () => {
    for (const key of [writeKey, readKey]) {
      expectError(
        await t.call('GET', `/v2/graph/${t.proj}/${t.env}?focus=user:ann`, undefined, { key }),
        403,
        'FORBIDDEN_ACCESS',
        /admin key/,
      );
      expectError(
        await t.call('GET', `/v2/graph/${t.proj}/${t.env}/users/ann/effective_roles`, undefined, { key }),
        403,
        'FORBIDDEN_ACCESS',
        /admin key/,
      );
    }
    expect((await t.call('GET', `/v2/graph/${t.proj}/${t.env}?focus=user:ann`)).status).toBe(200);
  });
});

describe('rotation', () => {
  it('gives a new secret: the old one answers 401 on the next request, the new one keeps id and level', async () => {
    const k = await t.ok('POST', keys(), { name: 'rotating', access_level: 'read' });
    const q = { user: 'ann', action: 'read', resource: { type: 'doc', key: 'd1' } };
    expect((await t.call('POST', '/allowed', q, { key: k.secret })).status).toBe(200);
    const rotated = await t.call('POST', `/v2/api-key/${k.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ id: k.id, secret: expect.stringMatching(/^authz_/) });
    expect(rotated.body.secret).not.toBe(k.secret);
    expectError(await t.call('POST', '/allowed', q, { key: k.secret }), 401, 'UNAUTHORIZED');
    expect((await t.call('POST', '/allowed', q, { key: rotated.body.secret })).body).toEqual({ allow: true });
    expectError(await t.call('POST', `${facts()}/users`, { key: 'x' }, { key: rotated.body.secret }), 403, 'FORBIDDEN_ACCESS');
    const listed = (await t.call('GET', `${keys()}/keys`)).body.data.find((x: any) => x.id === k.id);
    expect(listed).toMatchObject({ access_level: 'read', name: 'rotating' });
  });

  it('answers 404 for an unknown key id', async () => {
    expectError(await t.call('POST', '/v2/api-key/no-such-key/rotate-secret'), 404, 'NOT_FOUND');
  });
});
