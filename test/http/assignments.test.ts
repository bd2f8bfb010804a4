import { startTestService, type TestService } from '../support/testService';
import { MAX_BULK_ITEMS } from '../../src/http/schema';

let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const enc = encodeURIComponent;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body.message).toEqual(expect.any(String));
  expect(JSON.stringify(res.body)).not.toMatch(/Neo4jError|MATCH \(|at .*\.ts:\d+/);
}

const ok = (method: string, path: string, body?: unknown, status = 200) => t.ok(method, path, body, status);

const ODD = `o'hara "x" \`bt\` ü:😀`;

beforeAll(async () => {
  t = await startTestService();
  for (const k of ['acme', 'globex']) await ok('POST', `${facts()}/tenants`, { key: k, name: k });
  for (const k of ['alice', 'bob', ODD]) await ok('POST', `${facts()}/users`, { key: k });
  await ok('POST', `${schema()}/resources`, {
    key: 'folder',
    name: 'Folder',
    actions: { read: {}, write: {} },
    roles: { owner: { permissions: ['read', 'write'] } },
  });
  await ok('POST', `${schema()}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {}, write: {} },
    relations: { parent: 'folder' },
    roles: { viewer: { permissions: ['read'] }, editor: { permissions: ['read', 'write'] } },
  });
  await ok('POST', `${schema()}/roles`, { key: 'admin', name: 'Admin', permissions: ['doc:read', 'doc:write'] });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'g1', tenant: 'globex', resource: 'doc' });
});
afterAll(async () => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('role assignments', () => {
  it('assigns a tenant role; the user joins the tenant; duplicate 409; unassign 204 then 404', async () => {
    const a = await ok('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'admin', tenant: 'acme' });
    // Permit's RoleAssignmentRead (docs/behaviour.md section 14): a UUID id and the ids of the user, role and tenant.
    const user = await ok('GET', `${facts()}/users/alice`);
    expect(a).toEqual(
      expect.objectContaining({
        user: 'alice',
        role: 'admin',
        tenant: 'acme',
        id: expect.stringMatching(UUID),
        created_at: expect.any(String),
        user_id: user.id,
        role_id: (await ok('GET', `${schema()}/roles/admin`)).id,
        tenant_id: (await ok('GET', `${facts()}/tenants/acme`)).id,
      }),
    );
    expect(a.resource_instance).toBeUndefined();
    expect(await ok('GET', `${facts()}/role_assignments?user=alice&role=admin`)).toEqual([a]);
    expect(user.associated_tenants).toEqual([{ tenant: 'acme', roles: ['admin'], status: 'active' }]);
    expect(user.roles).toEqual([{ role: 'admin', tenant: 'acme' }]);
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'admin', tenant: 'acme' }),
      409,
      'DUPLICATE_ENTITY',
    );
    await ok('DELETE', `${facts()}/role_assignments`, { user: 'alice', role: 'admin', tenant: 'acme' }, 204);
    expectError(await t.call('DELETE', `${facts()}/role_assignments`, { user: 'alice', role: 'admin', tenant: 'acme' }), 404, 'NOT_FOUND');
  });

  it('answers the assignment it made, not another of the same role the user holds on an instance', async () => {
    await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'admin', tenant: 'acme', resource_instance: 'doc:d1' });
    const a = await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'admin', tenant: 'acme' });
    expect(a.resource_instance).toBeUndefined();
    expect(a.resource_instance_id).toBeUndefined();
    expect(
      (await ok('GET', `${facts()}/role_assignments?user=bob&role=admin`)).find((x: any) => x.resource_instance === undefined).id,
    ).toBe(a.id);
    await ok('DELETE', `${facts()}/role_assignments`, { user: 'bob', role: 'admin', tenant: 'acme' }, 204);
    await ok('DELETE', `${facts()}/role_assignments`, { user: 'bob', role: 'admin', tenant: 'acme', resource_instance: 'doc:d1' }, 204);
  });

  it('answers 404 for an unknown user, tenant, role or instance', async () => {
    expectError(await t.call('POST', `${facts()}/role_assignments`, { user: 'ghost', role: 'admin', tenant: 'acme' }), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'admin', tenant: 'ghost' }), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'ghost', tenant: 'acme' }), 404, 'NOT_FOUND');
    // a resource role is not a tenant role
    expectError(await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'viewer', tenant: 'acme' }), 404, 'NOT_FOUND');
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'viewer', tenant: 'acme', resource_instance: 'doc:nope' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'owner', tenant: 'acme', resource_instance: 'doc:d1' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'viewer', tenant: 'acme', resource_instance: 'nocolon' }),
      422,
      'INVALID_INPUT',
    );
    expectError(await t.call('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'admin' }), 422, 'INVALID_INPUT');
  });

  it('assigns resource roles and tenant roles at instance scope; checks the tenant', async () => {
    const a = await ok('POST', `${facts()}/role_assignments`, { user: ODD, role: 'viewer', tenant: 'acme', resource_instance: 'doc:d1' });
    expect(a).toEqual(expect.objectContaining({ user: ODD, role: 'viewer', tenant: 'acme', resource_instance: 'doc:d1' }));
    await ok('POST', `${facts()}/role_assignments`, { user: ODD, role: 'admin', tenant: 'acme', resource_instance: 'doc:d1' });
    // tenant inferred from the instance
    await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'editor', resource_instance: 'doc:g1' });
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'viewer', tenant: 'acme', resource_instance: 'doc:g1' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(
      await t.call('POST', `${facts()}/role_assignments`, { user: ODD, role: 'viewer', tenant: 'acme', resource_instance: 'doc:d1' }),
      409,
      'DUPLICATE_ENTITY',
    );
    expect((await ok('GET', `${facts()}/users/${enc(ODD)}`)).associated_tenants).toEqual([{ tenant: 'acme', roles: [], status: 'active' }]);
    // An instance assignment names the instance's id and the resource role's.
    expect(a).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(UUID),
        resource_instance_id: (await ok('GET', `${facts()}/resource_instances/doc:d1`)).id,
        role_id: (await ok('GET', `${schema()}/resources/doc/roles/viewer`)).id,
      }),
    );

    const mine = await ok('GET', `${facts()}/role_assignments?user=${enc(ODD)}`);
    expect(mine.map((x: any) => `${x.role}@${x.resource_instance}`).sort()).toEqual(['admin@doc:d1', 'viewer@doc:d1']);
    const onG1 = await ok('GET', `${facts()}/role_assignments?resource_instance=doc:g1`);
    expect(onG1).toEqual([expect.objectContaining({ user: 'bob', role: 'editor', tenant: 'globex', resource_instance: 'doc:g1' })]);
    // Permit's filters: the instance by id, `resource` (a type), repeated user / role / tenant (any of them).
    expect(await ok('GET', `${facts()}/role_assignments?resource_instance=${onG1[0].resource_instance_id}`)).toEqual(onG1);
    expect(
      (await ok('GET', `${facts()}/role_assignments?resource=doc&user=bob&user=${enc(ODD)}`)).map((x: any) => `${x.user}:${x.role}`).sort(),
    ).toEqual([`${ODD}:admin`, `${ODD}:viewer`, 'bob:editor'].sort());
    expect((await ok('GET', `${facts()}/role_assignments?user=${enc(ODD)}&role=admin&role=nope`)).map((x: any) => x.role)).toEqual([
      'admin',
    ]);
    expect(await ok('GET', `${facts()}/role_assignments?resource=folder&user=bob`)).toEqual([]);
    expect(await ok('GET', `${facts()}/role_assignments?user=bob&detailed=false&include_total_count=true`)).toMatchObject({
      total_count: 1,
      page_count: 1,
      data: onG1,
    });
    // detailed=true (Permit's RoleAssignmentDetailedRead) takes the same filters and the envelope.
    const detailed = await ok('GET', `${facts()}/role_assignments?user=bob&detailed=true&include_total_count=true`);
    expect([detailed.total_count, detailed.data.map((a: any) => [a.user.key, a.role.key, a.resource_instance?.key])]).toEqual([
      1,
      [['bob', 'editor', 'g1']],
    ]);
    expectError(await t.call('GET', `${facts()}/role_assignments?resource_instance=g1`), 422, 'INVALID_INPUT');
    await ok('DELETE', `${facts()}/role_assignments`, { user: 'bob', role: 'editor', resource_instance: 'doc:g1' }, 204);
    expect(await ok('GET', `${facts()}/role_assignments?resource_instance=doc:g1`)).toEqual([]);
  });

  it('bulk assigns in one transaction: all or nothing; bulk unassigns', async () => {
    const good = [
      { user: 'alice', role: 'admin', tenant: 'globex' },
      { user: 'bob', role: 'admin', tenant: 'globex' },
      { user: 'bob', role: 'viewer', tenant: 'globex', resource_instance: 'doc:g1' },
    ];
    const bad = await t.call('POST', `${facts()}/role_assignments/bulk`, [...good, { user: 'ghost', role: 'admin', tenant: 'globex' }]);
    expectError(bad, 404, 'NOT_FOUND');
    expect(bad.body.message).toMatch(/^Item 3/);
    expect(await ok('GET', `${facts()}/role_assignments?tenant=globex`)).toEqual([]);
    expect(await ok('POST', `${facts()}/role_assignments/bulk`, good)).toEqual({ assignments_created: 3 });
    const page = await ok('GET', `${facts()}/role_assignments?tenant=globex&per_page=2&include_total_count=true`);
    expect(page.total_count).toBe(3);
    expect(page.page_count).toBe(2);
    expect(page.data).toHaveLength(2);
    expect(await ok('GET', `${facts()}/role_assignments?tenant=globex&per_page=2&page=2`)).toHaveLength(1);
    expect(await ok('DELETE', `${facts()}/role_assignments/bulk`, good)).toEqual({ assignments_removed: 3 });
    expect(await ok('GET', `${facts()}/role_assignments?tenant=globex`)).toEqual([]);
    expectError(
      await t.call(
        'POST',
        `${facts()}/role_assignments/bulk`,
        Array.from({ length: MAX_BULK_ITEMS + 1 }, () => good[0]),
      ),
      422,
      'INVALID_INPUT',
    );
  });

  it('deleting a resource role, a tenant role, a user or an instance removes its assignments', async () => {
    await ok('POST', `${schema()}/resources/doc/roles`, { key: 'temp', name: 'Temp', permissions: ['read'] });
    await ok('POST', `${schema()}/roles`, { key: 'tmp_admin', name: 'Tmp admin', permissions: ['doc:read'] });
    await ok('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'temp', tenant: 'acme', resource_instance: 'doc:d1' });
    await ok('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'tmp_admin', tenant: 'acme' });
    await ok('DELETE', `${schema()}/resources/doc/roles/temp`, undefined, 204);
    await ok('DELETE', `${schema()}/roles/tmp_admin`, undefined, 204);
    const left = await ok('GET', `${facts()}/role_assignments?user=alice`);
    expect(left.map((x: any) => x.role)).not.toEqual(expect.arrayContaining(['temp']));
    expect(left.map((x: any) => x.role)).not.toEqual(expect.arrayContaining(['tmp_admin']));

    await ok('POST', `${facts()}/resource_instances`, { key: 'd9', tenant: 'acme', resource: 'doc' });
    await ok('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'viewer', tenant: 'acme', resource_instance: 'doc:d9' });
    await ok('DELETE', `${facts()}/resource_instances/doc:d9`, undefined, 204);
    expect(await ok('GET', `${facts()}/role_assignments?resource_instance=doc:d9`)).toEqual([]);
  });
});

describe('relationship tuples', () => {
  it('creates a tuple, creating missing instances in the tenant; duplicate 409; delete 204/404', async () => {
    const tup = await ok('POST', `${facts()}/relationship_tuples`, {
      subject: 'folder:f1',
      relation: 'parent',
      object: 'doc:d1',
      tenant: 'acme',
    });
    expect(tup).toEqual(expect.objectContaining({ subject: 'folder:f1', relation: 'parent', object: 'doc:d1', tenant: 'acme' }));
    expect((await ok('GET', `${facts()}/resource_instances/folder:f1`)).tenant).toBe('acme');
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'doc:d1' }),
      409,
      'DUPLICATE_ENTITY',
    );
    const list = await ok('GET', `${facts()}/relationship_tuples?object=doc:d1`);
    expect(list).toEqual([tup]);
    // Permit's RelationshipTupleRead (docs/behaviour.md section 14): a UUID id, the ids of what it names, updated_at.
    expect(tup).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(UUID),
        subject_id: (await ok('GET', `${facts()}/resource_instances/folder:f1`)).id,
        object_id: (await ok('GET', `${facts()}/resource_instances/doc:d1`)).id,
        relation_id: (await ok('GET', `${schema()}/resources/doc/relations/parent`)).id,
        tenant_id: (await ok('GET', `${facts()}/tenants/acme`)).id,
        created_at: expect.any(String),
        updated_at: tup.created_at,
      }),
    );
    // Permit's subject_type / object_type filters; detailed=true adds the records (driven through the Python SDK).
    expect(await ok('GET', `${facts()}/relationship_tuples?subject_type=folder&object_type=doc&relation=parent`)).toEqual([tup]);
    expect(await ok('GET', `${facts()}/relationship_tuples?subject_type=doc`)).toEqual([]);
    expect(await ok('GET', `${facts()}/relationship_tuples?subject=folder:f1&subject_type=doc`)).toEqual([]);
    const detailed = await ok('GET', `${facts()}/relationship_tuples?subject_type=folder&detailed=true`);
    expect(detailed).toEqual([
      {
        ...tup,
        subject_details: expect.objectContaining({ key: 'f1', resource: 'folder' }),
        relation_details: expect.objectContaining({ key: 'parent' }),
        object_details: expect.objectContaining({ key: 'd1', resource: 'doc' }),
      },
    ]);
    await ok('DELETE', `${facts()}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'doc:d1' }, 204);
    expectError(
      await t.call('DELETE', `${facts()}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'doc:d1' }),
      404,
      'NOT_FOUND',
    );
  });

  it('checks the schema, the instances and the tenants', async () => {
    // the relation must be on the object's resource with the subject's resource as subject
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, {
        subject: 'doc:d1',
        relation: 'parent',
        object: 'folder:f1',
        tenant: 'acme',
      }),
      422,
      'INVALID_INPUT',
    );
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'doc:g1', relation: 'parent', object: 'doc:d1' }),
      422,
      'INVALID_INPUT',
    );
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'folder:f1', relation: 'nope', object: 'doc:d1' }),
      422,
      'INVALID_INPUT',
    );
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'ghost:x', relation: 'parent', object: 'doc:d1' }),
      404,
      'NOT_FOUND',
    );
    // missing instance without a tenant
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'folder:nowhere', relation: 'parent', object: 'doc:d1' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, {
        subject: 'folder:nowhere',
        relation: 'parent',
        object: 'doc:d1',
        tenant: 'ghost',
      }),
      404,
      'NOT_FOUND',
    );
    // instances of two tenants
    await ok('POST', `${facts()}/resource_instances`, { key: 'fg', tenant: 'globex', resource: 'folder' });
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, { subject: 'folder:fg', relation: 'parent', object: 'doc:d1' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(
      await t.call('POST', `${facts()}/relationship_tuples`, {
        subject: 'folder:new',
        relation: 'parent',
        object: 'doc:d1',
        tenant: 'globex',
      }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(await t.call('GET', `${facts()}/resource_instances/folder:new`), 404, 'NOT_FOUND');
  });

  it('bulk creates in one transaction (all or nothing), accepts Permit envelopes, bulk deletes, pages', async () => {
    const ops = ['b1', 'b2', 'b3'].map((k) => ({ subject: `folder:${k}`, relation: 'parent', object: `doc:${k}`, tenant: 'acme' }));
    const bad = await t.call('POST', `${facts()}/relationship_tuples/bulk`, [
      ...ops,
      { subject: 'folder:b4', relation: 'nope', object: 'doc:b4', tenant: 'acme' },
    ]);
    expectError(bad, 422, 'INVALID_INPUT');
    expect(bad.body.details[0].path).toBe('/body/3/relation');
    expectError(await t.call('GET', `${facts()}/resource_instances/folder:b1`), 404, 'NOT_FOUND');
    expect(await ok('POST', `${facts()}/relationship_tuples/bulk`, { operations: ops })).toEqual({ tuples_created: 3 });
    const page = await ok('GET', `${facts()}/relationship_tuples?relation=parent&tenant=acme&per_page=2&page=2`);
    expect(page).toHaveLength(1);
    expect(await ok('GET', `${facts()}/relationship_tuples?relation=parent&tenant=acme&per_page=2&page=1`)).toHaveLength(2);
    expect(await ok('DELETE', `${facts()}/relationship_tuples/bulk`, { idents: ops.slice(0, 2) })).toEqual({ tuples_removed: 2 });
    expect(await ok('DELETE', `${facts()}/relationship_tuples/bulk`, ops)).toEqual({ tuples_removed: 1 });
  });

  it('deleting a relation or a resource removes its tuples and instances', async () => {
    await ok('POST', `${facts()}/relationship_tuples`, { subject: 'folder:c1', relation: 'parent', object: 'doc:c1', tenant: 'acme' });
    await ok('DELETE', `${schema()}/resources/doc/relations/parent`, undefined, 204);
    expect(await ok('GET', `${facts()}/relationship_tuples?subject=folder:c1`)).toEqual([]);
    await ok('POST', `${schema()}/resources/doc/relations`, { key: 'parent', name: 'Parent', subject_resource: 'folder' });
    await ok('POST', `${facts()}/relationship_tuples`, { subject: 'folder:c1', relation: 'parent', object: 'doc:c1' });
    await ok('POST', `${facts()}/role_assignments`, { user: 'alice', role: 'owner', tenant: 'acme', resource_instance: 'folder:c1' });
    await ok('DELETE', `${schema()}/resources/folder`, undefined, 204);
    expect(await ok('GET', `${facts()}/relationship_tuples?object=doc:c1`)).toEqual([]);
    expect(await ok('GET', `${facts()}/role_assignments?resource_instance=folder:c1`)).toEqual([]);
    expect(await ok('GET', `${facts()}/resource_instances?resource=folder`)).toEqual([]);
    expect((await ok('GET', `${schema()}/resources/doc`)).relations).toEqual({});
  });
});

describe('facts written here drive decisions', () => {
  it('a derivation over a tuple grants the derived role; removing the tuple revokes it', async () => {
    await ok('POST', `${schema()}/resources`, {
      key: 'space',
      name: 'Space',
      actions: { admin: {} },
      roles: { manager: { permissions: ['admin'] } },
    });
    await ok('POST', `${schema()}/resources`, {
      key: 'page',
      name: 'Page',
      actions: { read: {}, write: {} },
      relations: { space: 'space' },
      roles: {
        writer: {
          permissions: ['read', 'write'],
          granted_to: { users_with_role: [{ role: 'manager', on_resource: 'space', linked_by_relation: 'space' }] },
        },
      },
    });
    await ok('POST', `${facts()}/relationship_tuples`, { subject: 'space:s1', relation: 'space', object: 'page:p1', tenant: 'acme' });
    await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'manager', tenant: 'acme', resource_instance: 'space:s1' });
    const allowed = () =>
      ok('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: 'bob', action: 'write', resource: { type: 'page', key: 'p1', tenant: 'acme' } });
    expect((await allowed()).allow).toBe(true);
    await ok('DELETE', `${facts()}/relationship_tuples`, { subject: 'space:s1', relation: 'space', object: 'page:p1' }, 204);
    expect((await allowed()).allow).toBe(false);
  });
});
