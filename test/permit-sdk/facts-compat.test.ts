import { startTestService, type TestService } from '../support/testService';

/** Permit's sync and bulk facts paths over HTTP: statuses, all-or-nothing, attributes limit. */
let t: TestService;
let facts: string;
let schema: string;

beforeAll(async () => {
  t = await startTestService();
  facts = `/v2/facts/${t.proj}/${t.env}`;
  schema = `/v2/schema/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
});
afterAll(async () => t?.close());

describe('PUT users/{key} (sync)', () => {
  it('creates with 201, then replaces with 200 (fields not sent are cleared)', async () => {
    const a = await t.call('PUT', `${facts}/users/sync-me`, { email: 'a@x.io', first_name: 'A', attributes: { plan: 'pro' } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ key: 'sync-me', email: 'a@x.io', first_name: 'A', attributes: { plan: 'pro' } });
    const b = await t.call('PUT', `${facts}/users/sync-me`, { key: 'sync-me', last_name: 'B' });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ key: 'sync-me', id: a.body.id, email: null, first_name: null, last_name: 'B', attributes: {} });
  });

  it('refuses a body key that differs from the path, and attributes past 16 KiB, writing nothing', async () => {
    const wrong = await t.call('PUT', `${facts}/users/u-path`, { key: 'u-other' });
    expect([wrong.status, wrong.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    const big = await t.call('PUT', `${facts}/users/u-big`, { attributes: { blob: 'x'.repeat(17 * 1024) } });
    expect([big.status, big.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect(big.body.details[0].path).toBe('/body/attributes');
    expect((await t.call('GET', `${facts}/users/u-big`)).status).toBe(404);
    expect((await t.call('GET', `${facts}/users/u-path`)).status).toBe(404);
  });

  it('writes role_assignments with the user, in one transaction, and answers the user with its roles', async () => {
    await t.ok('POST', `${schema}/roles`, { key: 'viewer', name: 'Viewer', permissions: ['doc:read'] });
    await t.ok('POST', `${facts}/resource_instances`, { key: 'd-sync', tenant: 'acme', resource: 'doc' });
    const res = await t.call('PUT', `${facts}/users/ra-user`, {
      key: 'ra-user',
      email: 'ra@x.io',
      role_assignments: [
        { role: 'viewer', tenant: 'acme' },
        { role: 'viewer', tenant: 'acme', resource_instance: 'doc:d-sync' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      key: 'ra-user',
      email: 'ra@x.io',
      roles: [{ role: 'viewer', tenant: 'acme' }],
      associated_tenants: [{ tenant: 'acme', roles: ['viewer'], status: 'active' }],
    });
    const listed = await t.ok('GET', `${facts}/role_assignments?user=ra-user`);
    expect(listed.map((a: any) => [a.role, a.tenant, a.resource_instance ?? null]).sort()).toEqual([
      ['viewer', 'acme', null],
      ['viewer', 'acme', 'doc:d-sync'],
    ]);
    const allowed = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, {
      user: 'ra-user',
      action: 'read',
      resource: { type: 'doc', tenant: 'acme' },
    });
    expect(allowed.allow).toBe(true);
  });

  it('a role assignment that does not hold answers as the role-assignments endpoint does and writes nothing, not even the user', async () => {
    const cases: [object, number, string][] = [
      [{ role: 'no-such-role', tenant: 'acme' }, 404, 'NOT_FOUND'],
      [{ role: 'viewer', tenant: 'no-such-tenant' }, 404, 'NOT_FOUND'],
      [{ role: 'viewer', tenant: 'acme', resource_instance: 'doc:no-such-doc' }, 404, 'NOT_FOUND'],
    ];
    for (const [bad, status, code] of cases) {
      const direct = await t.call('POST', `${facts}/role_assignments`, { user: 'ra-user', ...bad });
      expect([direct.status, direct.body.error_code]).toEqual([status, code]);
      const res = await t.call('PUT', `${facts}/users/ra-bad`, {
        email: 'bad@x.io',
        role_assignments: [{ role: 'viewer', tenant: 'acme' }, bad],
      });
      expect([res.status, res.body.error_code]).toEqual([status, code]);
      expect((await t.call('GET', `${facts}/users/ra-bad`)).status).toBe(404);
    }
    // An existing user is not replaced either: its fields and roles stay as they were.
    const res = await t.call('PUT', `${facts}/users/ra-user`, {
      email: 'changed@x.io',
      role_assignments: [{ role: 'no-such-role', tenant: 'acme' }],
    });
    expect(res.status).toBe(404);
    expect(await t.ok('GET', `${facts}/users/ra-user`)).toMatchObject({ email: 'ra@x.io', roles: [{ role: 'viewer', tenant: 'acme' }] });
    expect(await t.ok('GET', `${facts}/role_assignments?user=ra-bad`)).toEqual([]);
  });

  it('caps attributes on tenants and instances too', async () => {
    const blob = { blob: 'y'.repeat(17 * 1024) };
    expect((await t.call('POST', `${facts}/tenants`, { key: 'big', name: 'Big', attributes: blob })).status).toBe(422);
    expect(
      (await t.call('POST', `${facts}/resource_instances`, { key: 'd-big', tenant: 'acme', resource: 'doc', attributes: blob })).status,
    ).toBe(422);
    const ok = await t.ok('POST', `${facts}/resource_instances`, {
      key: 'd-ok',
      tenant: 'acme',
      resource: 'doc',
      attributes: { n: 1, tags: ['a'] },
    });
    expect(ok.attributes).toEqual({ n: 1, tags: ['a'] });
  });
});

describe('bulk/users', () => {
  it('POST creates, PUT replaces, DELETE removes; an unknown ident deletes nothing', async () => {
    expect(await t.ok('POST', `${facts}/bulk/users`, { operations: [{ key: 'b1', email: 'b1@x.io' }, { key: 'b2' }] })).toEqual({
      users_created: 2,
    });
    expect(await t.ok('PUT', `${facts}/bulk/users`, { operations: [{ key: 'b1', first_name: 'One' }, { key: 'b3' }] })).toEqual({
      users_created: 1,
      users_replaced: 1,
    });
    expect(await t.ok('GET', `${facts}/users/b1`)).toMatchObject({ email: null, first_name: 'One' });
    const bad = await t.call('DELETE', `${facts}/bulk/users`, { idents: ['b1', 'nobody'] });
    expect([bad.status, bad.body.error_code]).toEqual([404, 'NOT_FOUND']);
    expect((await t.call('GET', `${facts}/users/b1`)).status).toBe(200);
    expect(await t.ok('DELETE', `${facts}/bulk/users`, { idents: ['b1', 'b2', 'b3'] })).toEqual({ users_deleted: 3 });
    expect((await t.call('GET', `${facts}/users/b2`)).status).toBe(404);
  });

  it('a bad item fails the whole batch', async () => {
    const res = await t.call('PUT', `${facts}/bulk/users`, {
      operations: [{ key: 'ok-user' }, { key: 'x', attributes: { blob: 'z'.repeat(17 * 1024) } }],
    });
    expect(res.status).toBe(422);
    expect(res.body.details[0].path).toBe('/body/operations/1/attributes');
    expect((await t.call('GET', `${facts}/users/ok-user`)).status).toBe(404);
  });
});

describe('bulk/tenants', () => {
  it('creates all or none (an existing key: 409), deletes with what lives in them', async () => {
    expect(
      await t.ok('POST', `${facts}/bulk/tenants`, {
        operations: [
          { key: 't1', name: 'T1', attributes: { tier: 1 } },
          { key: 't2', name: 'T2' },
        ],
      }),
    ).toEqual({ tenants_created: 2 });
    const dup = await t.call('POST', `${facts}/bulk/tenants`, {
      operations: [
        { key: 't3', name: 'T3' },
        { key: 't1', name: 'again' },
      ],
    });
    expect([dup.status, dup.body.error_code]).toEqual([409, 'DUPLICATE_ENTITY']);
    expect((await t.call('GET', `${facts}/tenants/t3`)).status).toBe(404);
    expect(await t.ok('GET', `${facts}/tenants/t1`)).toMatchObject({ attributes: { tier: 1 } });
    await t.ok('POST', `${facts}/resource_instances`, { key: 'in-t1', tenant: 't1', resource: 'doc' });
    expect((await t.call('DELETE', `${facts}/bulk/tenants`, { idents: ['t1', 'nope'] })).status).toBe(404);
    expect(await t.ok('DELETE', `${facts}/bulk/tenants`, { idents: ['t1', 't2'] })).toEqual({ tenants_deleted: 2 });
    expect((await t.call('GET', `${facts}/resource_instances/doc:in-t1`)).status).toBe(404);
  });
});

describe('bulk/resource_instances', () => {
  it('PUT creates or replaces attributes; a tenant mismatch writes nothing; DELETE by type:key', async () => {
    await t.ok('POST', `${facts}/tenants`, { key: 'other', name: 'Other' });
    expect(
      await t.ok('PUT', `${facts}/bulk/resource_instances`, {
        operations: [
          { key: 'r1', tenant: 'acme', resource: 'doc', attributes: { v: 1 } },
          { key: 'r2', tenant: 'acme', resource: 'doc' },
        ],
      }),
    ).toEqual({ instances_created: 2, instances_replaced: 0 });
    const mismatch = await t.call('PUT', `${facts}/bulk/resource_instances`, {
      operations: [
        { key: 'r3', tenant: 'acme', resource: 'doc' },
        { key: 'r1', tenant: 'other', resource: 'doc' },
      ],
    });
    expect([mismatch.status, mismatch.body.error_code]).toEqual([409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS']);
    expect((await t.call('GET', `${facts}/resource_instances/doc:r3`)).status).toBe(404);
    expect(
      await t.ok('PUT', `${facts}/bulk/resource_instances`, {
        operations: [{ key: 'r1', tenant: 'acme', resource: 'doc', attributes: { v: 2 } }],
      }),
    ).toEqual({ instances_created: 0, instances_replaced: 1 });
    expect(await t.ok('GET', `${facts}/resource_instances/doc:r1`)).toMatchObject({ attributes: { v: 2 } });
    expect((await t.call('DELETE', `${facts}/bulk/resource_instances`, { idents: ['doc:r1', 'doc:missing'] })).status).toBe(404);
    expect(await t.ok('DELETE', `${facts}/bulk/resource_instances`, { idents: ['doc:r1', 'doc:r2'] })).toEqual({ instances_deleted: 2 });
  });
});
