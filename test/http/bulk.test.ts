import { startTestService, type TestService } from '../support/testService';

/** Bulk loading: users and instances, then assignments and tuples, each batch all or nothing. */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;

beforeAll(async () => {
  t = await startTestService();
  await t.call('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.call('POST', `${schema()}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await t.call('POST', `${facts()}/tenants`, { key: 'other', name: 'Other' });
});
afterAll(async () => t?.close());

describe('bulk loading', () => {
  it('creates users and instances in bulk, leaving existing ones as they are', async () => {
    const users = Array.from({ length: 300 }, (_, i) => ({ key: `u${i}`, email: `u${i}@x.test` }));
    expect((await t.call('POST', `${facts()}/users/bulk`, { operations: users })).body).toEqual({ users_created: 300 });
    expect((await t.call('POST', `${facts()}/users/bulk`, { operations: users.slice(0, 10) })).body).toEqual({ users_created: 0 });
    expect((await t.call('GET', `${facts()}/users/u7`)).body.email).toBe('u7@x.test');
    const docs = Array.from({ length: 300 }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' }));
    expect((await t.call('POST', `${facts()}/resource_instances/bulk`, { operations: docs })).body).toEqual({ instances_created: 300 });
    expect((await t.call('GET', `${facts()}/resource_instances/doc:d299`)).body.tenant).toBe('default');
  });

  it('rejects a whole batch when one item is wrong, naming the item', async () => {
    const bad = await t.call('POST', `${facts()}/resource_instances/bulk`, {
      operations: [
        { key: 'new1', resource: 'doc', tenant: 'default' },
        { key: 'd1', resource: 'doc', tenant: 'other' },
      ],
    });
    expect(bad.status).toBe(409);
    expect(bad.body.message).toMatch(/^Item 1:/);
    expect((await t.call('GET', `${facts()}/resource_instances/doc:new1`)).status).toBe(404);
    const missing = await t.call('POST', `${facts()}/resource_instances/bulk`, {
      operations: [{ key: 'x', resource: 'nope', tenant: 'default' }],
    });
    expect(missing.status).toBe(404);
    const assignments = [
      { user: 'u1', role: 'reader', tenant: 'default', resource_instance: 'doc:d1' },
      { user: 'ghost', role: 'reader', tenant: 'default', resource_instance: 'doc:d2' },
    ];
    const res = await t.call('POST', `${facts()}/role_assignments/bulk`, assignments);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/^Item 1:/);
    const allowed = await t.call('POST', `/v2/allowed/${t.proj}/${t.env}`, {
      user: 'u1',
      action: 'read',
      resource: { type: 'doc', key: 'd1' },
    });
    expect(allowed.body.allow).toBe(false);
  });

  it('assigns a thousand roles in one call', async () => {
    const assignments = Array.from({ length: 1000 }, (_, i) => ({
      user: `u${i % 300}`,
      role: 'reader',
      tenant: 'default',
      resource_instance: `doc:d${i % 300}`,
    }));
    const res = await t.call('POST', `${facts()}/role_assignments/bulk`, assignments);
    expect(res.status).toBe(200);
    expect(res.body.assignments_created).toBe(300);
    const allowed = await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/bulk`, [
      { user: 'u5', action: 'read', resource: { type: 'doc', key: 'd5' } },
      { user: 'u5', action: 'read', resource: { type: 'doc', key: 'd6' } },
    ]);
    expect(allowed.body).toEqual({ allow: [{ allow: true }, { allow: false }] });
  });

  it("writes a checked batch in one pass, and still refuses another tenant's instance with nothing written", async () => {
    await t.call('POST', `${facts()}/resource_instances`, { key: 'theirs', resource: 'doc', tenant: 'other' });
    await t.call('POST', `${schema()}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['doc:read'] });
    await t.call('POST', `${facts()}/users`, { key: 'solo' });
    const batch = [
      { user: 'solo', role: 'auditor', tenant: 'default' },
      { user: 'solo', role: 'reader', resource_instance: 'doc:d20' },
      { user: 'solo', role: 'reader', tenant: 'default', resource_instance: 'doc:theirs' },
    ];
    const refused = await t.call('POST', `${facts()}/role_assignments/bulk`, batch);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('MISMATCH_RESOURCE_INSTANCES_TENANTS');
    expect(refused.body.message).toMatch(/^Item 2:/);
    const listed = await t.call('GET', `${facts()}/role_assignments?user=solo`);
    expect(listed.body).toEqual([]);
    // The same batch without the foreign item: a tenant role and an instance role (its tenant taken from the instance), repeats counted once.
    const ok = await t.call('POST', `${facts()}/role_assignments/bulk`, [...batch.slice(0, 2), batch[1]]);
    expect(ok.body).toEqual({ assignments_created: 2 });
    const again = await t.call('POST', `${facts()}/role_assignments`, batch[1]);
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe('DUPLICATE_ENTITY');
    const solo = await t.call('GET', `${facts()}/users/solo`);
    expect(JSON.stringify(solo.body.associated_tenants)).toContain('default');
  });

  it('puts each user of a bulk in the tenants it now holds roles in, once, whether it was in them before or not', async () => {
    await t.call('POST', `${schema()}/roles`, { key: 'joiner', name: 'Joiner', permissions: ['doc:read'] });
    await t.call('POST', `${facts()}/users/bulk`, { operations: [{ key: 'j1' }, { key: 'j2' }, { key: 'j3' }] });
    await t.call('POST', `${facts()}/resource_instances/bulk`, {
      operations: [
        { key: 'o1', resource: 'doc', tenant: 'other' },
        { key: 'o2', resource: 'doc', tenant: 'other' },
      ],
    });
    // j1 is in `default` before the bulk (an earlier assignment); j2 and j3 are in no tenant.
    expect((await t.call('POST', `${facts()}/role_assignments`, { user: 'j1', role: 'reader', resource_instance: 'doc:d1' })).status).toBe(
      200,
    );
    const res = await t.call('POST', `${facts()}/role_assignments/bulk`, [
      { user: 'j1', role: 'reader', resource_instance: 'doc:d2' },
      { user: 'j1', role: 'reader', resource_instance: 'doc:o1' },
      { user: 'j2', role: 'reader', resource_instance: 'doc:d3' },
      { user: 'j2', role: 'reader', resource_instance: 'doc:o1' },
      { user: 'j2', role: 'reader', resource_instance: 'doc:o2' },
      { user: 'j3', role: 'joiner', tenant: 'other' },
      { user: 'j3', role: 'joiner', tenant: 'default' },
    ]);
    expect(res.body).toEqual({ assignments_created: 7 });
    const tenantsOf = async (u: string) =>
      ((await t.call('GET', `${facts()}/users/${u}`)).body.associated_tenants as { tenant: string }[]).map((a) => a.tenant).sort();
    expect(await tenantsOf('j1')).toEqual(['default', 'other']);
    expect(await tenantsOf('j2')).toEqual(['default', 'other']);
    expect(await tenantsOf('j3')).toEqual(['default', 'other']);
    const members = (await t.call('GET', `${facts()}/tenants/other/users?per_page=100`)).body.data as { key: string }[];
    expect(members.map((u) => u.key).sort()).toEqual(['j1', 'j2', 'j3']);
  });

  it('makes every instance the same way, whichever call makes it', async () => {
    await t.call('POST', `${schema()}/resources/doc/relations`, { key: 'parent', name: 'Parent', subject_resource: 'doc' });
    await t.call('POST', `${facts()}/relationship_tuples/bulk`, {
      operations: [{ subject: 'doc:implicit', relation: 'parent', object: 'doc:d30', tenant: 'default' }],
    });
    await t.call('POST', `${schema()}/groups`, { group_instance_key: 'team', group_tenant: 'default' });
    await t.call('POST', `${schema()}/groups/team/roles`, {
      resource: 'doc',
      resource_instance: 'granted',
      role: 'reader',
      tenant: 'default',
    });
    for (const ref of ['doc:implicit', 'doc:granted', 'group:team']) {
      const got = (await t.call('GET', `${facts()}/resource_instances/${ref}`)).body;
      expect(got).toEqual(
        expect.objectContaining({ tenant: 'default', attributes: {}, id: expect.any(String), created_at: expect.any(String) }),
      );
    }
    // A group is a new instance: a key its type already has answers 409, and nothing is changed.
    await t.call('POST', `${facts()}/resource_instances`, { key: 'plain', resource: 'group', tenant: 'default' });
    const taken = await t.call('POST', `${schema()}/groups`, { group_instance_key: 'plain', group_tenant: 'default' });
    expect(taken.status).toBe(409);
    expect((await t.call('GET', `${schema()}/groups/plain`)).status).toBe(404);
    const dup = await t.call('POST', `${facts()}/resource_instances`, { key: 'plain', resource: 'group', tenant: 'default' });
    expect(dup.status).toBe(409);
  });
});
