import { startTestService, type TestService } from '../support/testService';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ error_code: code, title: expect.any(String), message: expect.any(String) }));
  expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|Neo4jError|MATCH \(/);
}

describe('health', () => {
  it('answers healthz and readyz', async () => {
    expect((await t.call('GET', '/healthz', undefined, { key: null })).status).toBe(200);
    const ready = await t.call('GET', '/readyz', undefined, { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body.migrations).toBe('applied');
  });
});

describe('authentication and provisioning', () => {
  it('lists the bootstrap project with the admin key', async () => {
    // Every page: a long-lived test database holds more than 100 projects.
    const keys: string[] = [];
    for (let page = 1; ; page++) {
      const res = await t.call('GET', `/v2/projects?per_page=100&page=${page}`);
      expect(res.status).toBe(200);
      // A plain array, as Permit answers (docs/behaviour.md section 14): the last page is the short one.
      keys.push(...res.body.map((p: any) => p.key));
      if (res.body.length < 100) break;
    }
    expect(keys).toEqual(expect.arrayContaining(['default', t.proj]));
  });

  it('rejects a missing or wrong key with 401', async () => {
    expectError(await t.call('GET', `${facts()}/tenants`, undefined, { key: null }), 401, 'UNAUTHORIZED');
    expectError(await t.call('GET', `${facts()}/tenants`, undefined, { key: 'nope-not-a-key' }), 401, 'UNAUTHORIZED');
  });

  it('accepts the environment key on its own env and answers 403 on another env', async () => {
    expect((await t.call('GET', `${facts()}/tenants`, undefined, { key: t.envKey })).status).toBe(200);
    const other = await t.call('POST', `/v2/projects/${t.proj}/envs`, { key: 'other', name: 'Other' });
    expect(other.status).toBe(200);
    expectError(await t.call('GET', `/v2/facts/${t.proj}/other/tenants`, undefined, { key: t.envKey }), 403, 'FORBIDDEN_ACCESS');
    // and it may not do admin things
    expectError(await t.call('POST', '/v2/projects', { key: 'x', name: 'x' }, { key: t.envKey }), 403, 'FORBIDDEN_ACCESS');
  });

  it('addresses project and environment by id as well as by key', async () => {
    const scope = await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey });
    expect(scope.status).toBe(200);
    expect(scope.body.project_id).toMatch(/^[0-9a-f-]{36}$/);
    const byId = await t.call('GET', `/v2/facts/${scope.body.project_id}/${scope.body.environment_id}/tenants`, undefined, {
      key: t.envKey,
    });
    expect(byId.status).toBe(200);
    const adminScope = await t.call('GET', '/v2/api-key/scope');
    // docs/behaviour.md section 14: a UUID (Permit's SDKs refuse anything else), the same for every caller.
    expect(adminScope.body).toEqual({
      organization_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      project_id: null,
      environment_id: null,
    });
    expect(scope.body.organization_id).toBe(adminScope.body.organization_id);
  });

  it('creates, lists and revokes keys; a revoked key answers 401; secrets are never listed', async () => {
    const created = await t.call('POST', `/v2/api-key/${t.proj}/${t.env}`, { name: 'ci' });
    expect(created.status).toBe(200);
    expect(created.body.secret).toEqual(expect.any(String));
    const list = await t.call('GET', `/v2/api-key/${t.proj}/${t.env}/keys`);
    expect(list.body.data.map((k: any) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    // docs/behaviour.md section 14: Permit's meaning of GET /v2/api-key/{proj}/{env}: the environment's key
    // (its oldest here, the one the test service made), as APIKeyRead, never with its secret.
    const envKey = await t.call('GET', `/v2/api-key/${t.proj}/${t.env}`);
    expect(envKey.status).toBe(200);
    expect(envKey.body).toEqual(
      expect.objectContaining({
        id: list.body.data[0].id,
        object_type: 'env',
        owner_type: 'member',
        organization_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        project_id: list.body.data[0].project_id,
        environment_id: list.body.data[0].environment_id,
        created_at: expect.any(String),
      }),
    );
    expect(envKey.body.secret).toBeUndefined();
    expect((await t.call('GET', `${facts()}/tenants`, undefined, { key: created.body.secret })).status).toBe(200);
    expect((await t.call('DELETE', `/v2/api-key/${t.proj}/${t.env}/${created.body.id}`)).status).toBe(204);
    expectError(await t.call('GET', `${facts()}/tenants`, undefined, { key: created.body.secret }), 401, 'UNAUTHORIZED');
  });

  it('every environment has a key from its creation (the bootstrap one too), without a secret until a rotation gives it one', async () => {
    const env = `k${Date.now().toString(36)}`;
    const made = await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
    const own = await t.ok('GET', `/v2/api-key/${t.proj}/${env}`);
    expect(own).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        environment_id: made.id,
        name: 'Environment key',
        prefix: null,
      }),
    );
    expect(own.secret).toBeUndefined();
    const listed = (await t.ok('GET', `/v2/api-key/${t.proj}/${env}/keys`)).data;
    expect(listed.map((k: any) => k.id)).toEqual([own.id]);
    // No secret works for it: the marker in place of a digest equals no SHA-256 digest.
    expectError(await t.call('GET', `/v2/facts/${t.proj}/${env}/tenants`, undefined, { key: 'no-secret:anything' }), 401, 'UNAUTHORIZED');
    // A rotation gives it a secret, answered once, that works in that environment.
    const rotated = await t.ok('POST', `/v2/api-key/${own.id}/rotate-secret`);
    expect(rotated.id).toBe(own.id);
    const tenants = await t.call('GET', `/v2/facts/${t.proj}/${env}/tenants`, undefined, { key: rotated.secret });
    expect([tenants.status, tenants.body.map((x: any) => x.key)]).toEqual([200, ['default']]);
    const after = await t.ok('GET', `/v2/api-key/${t.proj}/${env}`);
    expect([after.id, after.prefix, after.secret]).toEqual([own.id, rotated.secret.slice(0, 10), undefined]);
    // The bootstrap environment has one too.
    expect((await t.ok('GET', '/v2/api-key/default/dev')).project_id).toBe((await t.ok('GET', '/v2/projects/default')).id);
    // Each key revoked: the 404 says how to make one.
    await t.ok('DELETE', `/v2/api-key/${t.proj}/${env}/${own.id}`, undefined, 204);
    const none = await t.call('GET', `/v2/api-key/${t.proj}/${env}`);
    expectError(none, 404, 'NOT_FOUND');
    expect(none.body.message).toMatch(/POST \/v2\/api-key\/\{proj_id\}\/\{env_id\}/);
    await t.ok('DELETE', `/v2/projects/${t.proj}/envs/${env}`, undefined, 204);
  });

  it('answers 404 for an unknown project with the admin key', async () => {
    expectError(await t.call('GET', '/v2/facts/no-such-project/dev/tenants'), 404, 'NOT_FOUND');
  });

  it('keeps environments apart: the same tenant key in two envs never meets', async () => {
    await t.call('POST', `/v2/projects/${t.proj}/envs`, { key: 'iso', name: 'Iso' });
    expect((await t.call('POST', `${facts()}/tenants`, { key: 'shared', name: 'In test' })).status).toBe(200);
    expect((await t.call('POST', `/v2/facts/${t.proj}/iso/tenants`, { key: 'shared', name: 'In iso' })).status).toBe(200);
    expect((await t.call('GET', `${facts()}/tenants/shared`)).body.name).toBe('In test');
    expect((await t.call('GET', `/v2/facts/${t.proj}/iso/tenants/shared`)).body.name).toBe('In iso');
  });
});

describe('bad input', () => {
  it('answers 400 for malformed JSON and for a non-JSON body', async () => {
    expectError(await t.call('POST', `${facts()}/tenants`, undefined, { raw: '{"key": ' }), 400, 'INVALID_INPUT');
    expectError(
      await t.call('POST', `${facts()}/tenants`, undefined, { raw: 'key=a', headers: { 'content-type': 'text/plain' } }),
      400,
      'INVALID_INPUT',
    );
  });

  it('answers 422 with details for a missing or unknown field', async () => {
    const missing = await t.call('POST', `${facts()}/tenants`, { key: 'acme' });
    expectError(missing, 422, 'INVALID_INPUT');
    expect(missing.body.details).toContainEqual({ path: '/body/name', message: 'is required' });
    const unknown = await t.call('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme', colour: 'red' });
    expectError(unknown, 422, 'INVALID_INPUT');
    expect(unknown.body.details).toContainEqual({ path: '/body/colour', message: 'is not an allowed field' });
  });

  it('answers 409 for a duplicate tenant, 404 for an unknown one, 422 for per_page=101', async () => {
    expect((await t.call('POST', `${facts()}/tenants`, { key: 'dup', name: 'Dup' })).status).toBe(200);
    expectError(await t.call('POST', `${facts()}/tenants`, { key: 'dup', name: 'Dup' }), 409, 'DUPLICATE_ENTITY');
    expectError(await t.call('GET', `${facts()}/tenants/nope`), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `${facts()}/tenants?per_page=101`), 422, 'PAGINATION_SIZE_OVERREACHED');
    expectError(await t.call('GET', `${facts()}/tenants?page=0`), 422, 'INVALID_INPUT');
  });

  it('answers 413 for a body over 8 MiB and 404 for an unknown path', async () => {
    const big = JSON.stringify({ key: 'big', name: 'x'.repeat(8 * 1024 * 1024 + 10) });
    const res = await t.call('POST', `${facts()}/tenants`, undefined, { raw: big });
    expectError(res, 413, 'INVALID_INPUT');
    expectError(await t.call('GET', '/v2/nothing-here'), 404, 'NOT_FOUND');
  });
});

describe('tenants and users', () => {
  const odd = [`it's "quoted"`, 'back`tick`', '{braces} $param', 'ünïcødé 🚀', 'auth0|123', 'a/b?c#d', "x' OR 1=1 //"];

  it('stores and finds keys with quotes, backticks, braces and unicode exactly', async () => {
    for (const key of odd) {
      const created = await t.call('POST', `${facts()}/users`, { key, email: `${key}@example.com` });
      expect(created.status).toBe(200);
      const got = await t.call('GET', `${facts()}/users/${encodeURIComponent(key)}`);
      expect(got.status).toBe(200);
      expect(got.body.key).toBe(key);
    }
    const all = await t.call('GET', `${facts()}/users?per_page=100`);
    expect(all.body.data.map((u: any) => u.key)).toEqual(expect.arrayContaining(odd));
  });

  it('pages: tenants as a plain array (Permit), users with total_count and page_count (PaginatedResultUserRead)', async () => {
    for (let i = 0; i < 7; i++) await t.call('POST', `${facts()}/tenants`, { key: `page-${i}`, name: `Page ${i}` });
    const p1 = await t.call('GET', `${facts()}/tenants?search=page-&per_page=3`);
    expect(p1.body.map((x: any) => x.key)).toEqual(['page-0', 'page-1', 'page-2']);
    const p3 = await t.call('GET', `${facts()}/tenants?search=page-&per_page=3&page=3`);
    expect(p3.body.map((x: any) => x.key)).toEqual(['page-6']);
    const past = await t.call('GET', `${facts()}/tenants?search=page-&per_page=3&page=9`);
    expect(past.body).toEqual([]);
    // Permit's listTenants takes no include_total_count: refused, not ignored.
    expect((await t.call('GET', `${facts()}/tenants?include_total_count=true`)).status).toBe(422);
    for (let i = 0; i < 7; i++) await t.call('POST', `${facts()}/users`, { key: `pager-${i}` });
    const u1 = await t.call('GET', `${facts()}/users?search=pager-&per_page=3`);
    expect(u1.body.total_count).toBe(7);
    expect(u1.body.page_count).toBe(3);
    expect(u1.body.data).toHaveLength(3);
    const upast = await t.call('GET', `${facts()}/users?search=pager-&per_page=3&page=9`);
    expect(upast.body).toEqual({ data: [], total_count: 7, page_count: 3 });
  });

  it('updates and deletes tenants and users, and manages tenant users', async () => {
    await t.call('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme', attributes: { tier: 'gold' } });
    const upd = await t.call('PATCH', `${facts()}/tenants/acme`, { name: 'Acme Inc' });
    expect(upd.body).toEqual(expect.objectContaining({ name: 'Acme Inc', attributes: { tier: 'gold' } }));

    const added = await t.call('POST', `${facts()}/tenants/acme/users`, { key: 'ann', email: 'ann@acme.test', first_name: 'Ann' });
    expect(added.status).toBe(200);
    // Permit's UserInTenant items (docs/behaviour.md section 14).
    expect(added.body.associated_tenants).toEqual([{ tenant: 'acme', roles: [], status: 'active' }]);
    const tu = await t.call('GET', `${facts()}/tenants/acme/users`);
    expect(tu.body.data.map((u: any) => u.key)).toEqual(['ann']);
    const patched = await t.call('PATCH', `${facts()}/users/ann`, { last_name: 'Lee' });
    expect(patched.body).toEqual(expect.objectContaining({ first_name: 'Ann', last_name: 'Lee', email: 'ann@acme.test' }));
    expect((await t.call('GET', `${facts()}/users?tenant=acme`)).body.total_count).toBe(1);
    // Permit's `role` and `search` filters on users and a tenant's users.
    await t.call('POST', `${schema()}/roles`, { key: 'tu_admin', name: 'TU admin', permissions: [] });
    await t.call('POST', `${facts()}/tenants/acme/users`, { key: 'bo' });
    await t.call('POST', `${facts()}/role_assignments`, { user: 'bo', role: 'tu_admin', tenant: 'acme' });
    expect((await t.call('GET', `${facts()}/users?role=tu_admin`)).body.data.map((u: any) => u.key)).toEqual(['bo']);
    expect((await t.call('GET', `${facts()}/tenants/acme/users?role=tu_admin`)).body.data.map((u: any) => u.key)).toEqual(['bo']);
    expect((await t.call('GET', `${facts()}/tenants/acme/users?search=ann`)).body.data.map((u: any) => u.key)).toEqual(['ann']);
    expect((await t.call('GET', `${facts()}/users/bo`)).body.associated_tenants).toEqual([
      { tenant: 'acme', roles: ['tu_admin'], status: 'active' },
    ]);
    expect((await t.call('DELETE', `${facts()}/users/bo`)).status).toBe(204);

    expect((await t.call('DELETE', `${facts()}/tenants/acme/users/ann`)).status).toBe(204);
    expect((await t.call('GET', `${facts()}/tenants/acme/users`)).body.total_count).toBe(0);
    expect((await t.call('DELETE', `${facts()}/users/ann`)).status).toBe(204);
    expect((await t.call('GET', `${facts()}/users/ann`)).status).toBe(404);
    expect((await t.call('DELETE', `${facts()}/tenants/acme`)).status).toBe(204);
    expect((await t.call('GET', `${facts()}/tenants/acme`)).status).toBe(404);
  });
});
