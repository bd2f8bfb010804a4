import { startTestService, type TestService } from '../support/testService';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const enc = encodeURIComponent;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body.message).toEqual(expect.any(String));
  expect(JSON.stringify(res.body)).not.toMatch(/Neo4jError|MATCH \(|at .*\.ts:\d+/);
}

const ok = (method: string, path: string, body?: unknown, status = 200) => t.ok(method, path, body, status);

describe('resources', () => {
  it('creates a resource with actions, inline relations and roles, and reads it back', async () => {
    await ok('POST', `${schema()}/resources`, { key: 'folder', name: 'Folder', actions: { read: {}, write: { name: 'Write' } } });
    const docBody = {
      key: 'document',
      name: 'Document',
      description: 'A doc',
      actions: { read: { description: 'Read it' }, edit: {}, delete: {} },
      relations: { parent: 'folder' },
      roles: {
        viewer: { name: 'Viewer', permissions: ['read'] },
        editor: {
          name: 'Editor',
          permissions: ['read', 'edit'],
          granted_to: { users_with_role: [{ role: 'writer', on_resource: 'folder', linked_by_relation: 'parent' }] },
        },
      },
    };
    // `writer` is not a role of folder yet: 404, and the whole create is rolled back
    expectError(await t.call('POST', `${schema()}/resources`, docBody), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `${schema()}/resources/document`), 404, 'NOT_FOUND');
    await ok('POST', `${schema()}/resources/folder/roles`, { key: 'writer', name: 'Writer', permissions: ['read', 'write'] });
    const doc = await ok('POST', `${schema()}/resources`, docBody);
    expect(doc).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        key: 'document',
        name: 'Document',
        description: 'A doc',
        project_id: expect.any(String),
        environment_id: expect.any(String),
        organization_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f-]{27}$/),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      }),
    );
    expect(Object.keys(doc.actions)).toEqual(['read', 'edit', 'delete']);
    expect(doc.actions.read).toEqual(expect.objectContaining({ key: 'read', name: 'read', description: 'Read it' }));
    expect(doc.relations.parent).toEqual(expect.objectContaining({ resource: 'folder' }));
    expect(doc.roles.viewer.permissions).toEqual(['read']);
    // Permit's DerivedRoleRuleRead: with the ids of the role required, its resource and the relation (docs/behaviour.md section 14).
    expect(doc.roles.editor.granted_to).toEqual({
      id: doc.roles.editor.id,
      users_with_role: [
        {
          role: 'writer',
          on_resource: 'folder',
          linked_by_relation: 'parent',
          role_id: (await ok('GET', `${schema()}/resources/folder/roles/writer`)).id,
          resource_id: (await ok('GET', `${schema()}/resources/folder`)).id,
          relation_id: doc.relations.parent.id ?? (await ok('GET', `${schema()}/resources/document/relations/parent`)).id,
        },
      ],
    });

    const byId = await ok('GET', `${schema()}/resources/${doc.id}`);
    expect(byId.key).toBe('document');
    const rel = await ok('GET', `${schema()}/resources/document/relations/parent`);
    expect(rel).toEqual(expect.objectContaining({ key: 'parent', subject_resource: 'folder', object_resource: 'document' }));
    const actions = await ok('GET', `${schema()}/resources/document/actions`);
    expect(actions.map((a: any) => a.key)).toEqual(['read', 'edit', 'delete']);
  });

  it('applies the key rules to a key given in the path of a PUT that creates (resource, user sync)', async () => {
    for (const path of [`${schema()}/resources/${enc('a:b c')}`, `${schema()}/resources/${'r'.repeat(129)}`]) {
      const res = await t.call('PUT', path, { name: 'X', actions: {} });
      expectError(res, 422, 'INVALID_INPUT');
      expect(res.body.details).toEqual([expect.objectContaining({ path: '/params/resource' })]);
    }
    expect((await t.call('GET', `${schema()}/resources/${enc('a:b c')}`)).status).toBe(404);
    const user = await t.call('PUT', `${facts()}/users/${enc('a\nb')}`, {});
    expectError(user, 422, 'INVALID_INPUT');
    expect(user.body.details).toEqual([expect.objectContaining({ path: '/params/user_id' })]);
    expect((await t.call('PUT', `${facts()}/users/ok-user`, {})).status).toBe(201);
    expect((await t.call('PUT', `${schema()}/resources/ok_res`, { name: 'Ok', actions: {} })).status).toBe(200);
  });

  it('answers 409 for a duplicate, 404 for an unknown resource, 422 for bad input', async () => {
    await ok('POST', `${schema()}/resources`, { key: 'dup', name: 'Dup', actions: {} });
    expectError(await t.call('POST', `${schema()}/resources`, { key: 'dup', name: 'Dup', actions: {} }), 409, 'DUPLICATE_ENTITY');
    expectError(await t.call('GET', `${schema()}/resources/nope`), 404, 'NOT_FOUND');
    expectError(await t.call('PATCH', `${schema()}/resources/nope`, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', `${schema()}/resources/nope`), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${schema()}/resources`, { key: 'no actions', name: 'x', actions: {} }), 422, 'INVALID_INPUT');
    expectError(await t.call('POST', `${schema()}/resources`, { key: 'x', name: 'x' }), 422, 'INVALID_INPUT');
    expectError(await t.call('POST', `${schema()}/resources`, { key: 'x', name: 'x', actions: {}, extra: 1 }), 422, 'INVALID_INPUT');
    const badPerm = await t.call('POST', `${schema()}/resources`, {
      key: 'x',
      name: 'x',
      actions: { a: {} },
      roles: { r: { permissions: ['b'] } },
    });
    expectError(badPerm, 422, 'INVALID_INPUT');
    expect(badPerm.body.details[0].path).toBe('/body/roles/r/permissions/0');
    expectError(
      await t.call('POST', `${schema()}/resources`, { key: 'y', name: 'y', actions: {}, relations: { owner: 'ghost' } }),
      404,
      'NOT_FOUND',
    );
    expect((await t.call('GET', `${schema()}/resources/y`)).status).toBe(404);
  });

  it('pages resources', async () => {
    for (const k of ['pa', 'pb', 'pc']) await ok('POST', `${schema()}/resources`, { key: k, name: k, actions: {} });
    // A plain array, as Permit answers; the envelope when asked include_total_count=true (docs/behaviour.md section 14).
    const plain = await ok('GET', `${schema()}/resources?search=p&per_page=2&page=1`);
    expect(plain).toHaveLength(2);
    const page = await ok('GET', `${schema()}/resources?search=p&per_page=2&page=1&include_total_count=true`);
    expect(page.total_count).toBeGreaterThanOrEqual(3);
    expect(page.data).toEqual(plain);
    expect(page.page_count).toBe(Math.ceil(page.total_count / 2));
    expect(
      (await ok('GET', `${schema()}/resources?search=p&per_page=2&page=2&include_built_in=false`)).map((r: any) => r.key),
    ).not.toContain(plain[0].key);
    expectError(await t.call('GET', `${schema()}/resources?per_page=101`), 422, 'PAGINATION_SIZE_OVERREACHED');
  });

  it('patches name and actions; removed actions leave role permissions', async () => {
    await ok('POST', `${schema()}/resources`, {
      key: 'card',
      name: 'Card',
      actions: { read: {}, pay: {} },
      roles: { holder: { permissions: ['read', 'pay'] } },
    });
    await ok('POST', `${schema()}/roles`, { key: 'card_admin', name: 'Card admin', permissions: ['card:read', 'card:pay'] });
    const patched = await ok('PATCH', `${schema()}/resources/card`, { name: 'Credit card', actions: { read: {}, freeze: {} } });
    expect(patched.name).toBe('Credit card');
    expect(Object.keys(patched.actions)).toEqual(['read', 'freeze']);
    expect(patched.roles.holder.permissions).toEqual(['read']);
    expect((await ok('GET', `${schema()}/roles/card_admin`)).permissions).toEqual(['card:read']);
    const put = await ok('PUT', `${schema()}/resources/newcard`, { name: 'New card', actions: { read: {} } });
    expect(put.key).toBe('newcard');
  });
});

describe('resource roles and derivations', () => {
  beforeAll(async () => {
    await ok('POST', `${schema()}/resources`, { key: 'repo', name: 'Repo', actions: { read: {}, push: {} } });
    await ok('POST', `${schema()}/resources`, { key: 'org', name: 'Org', actions: { manage: {} } });
    await ok('POST', `${schema()}/resources/org/roles`, { key: 'admin', name: 'Admin', permissions: ['manage'] });
    await ok('POST', `${schema()}/resources/repo/relations`, { key: 'owner', name: 'Owner', subject_resource: 'org' });
  });

  it('creates, gets, lists, patches and deletes resource roles', async () => {
    const role = await ok('POST', `${schema()}/resources/repo/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
    expect(role).toEqual(
      expect.objectContaining({ key: 'reader', resource: 'repo', permissions: ['read'], granted_to: { id: role.id, users_with_role: [] } }),
    );
    expect((await ok('GET', `${schema()}/resources/repo/roles/${role.id}`)).key).toBe('reader');
    expectError(await t.call('POST', `${schema()}/resources/repo/roles`, { key: 'reader', name: 'R' }), 409, 'DUPLICATE_ENTITY');
    expectError(
      await t.call('POST', `${schema()}/resources/repo/roles`, { key: 'bad', name: 'B', permissions: ['fly'] }),
      422,
      'INVALID_INPUT',
    );
    expectError(await t.call('POST', `${schema()}/resources/ghost/roles`, { key: 'x', name: 'X' }), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `${schema()}/resources/repo/roles/nope`), 404, 'NOT_FOUND');
    const patched = await ok('PATCH', `${schema()}/resources/repo/roles/reader`, {
      permissions: ['read', 'push'],
      granted_to: { users_with_role: [{ role: 'admin', on_resource: 'org', linked_by_relation: 'owner' }] },
    });
    expect(patched.permissions).toEqual(['read', 'push']);
    expect(patched.granted_to.users_with_role).toEqual([
      {
        role: 'admin',
        on_resource: 'org',
        linked_by_relation: 'owner',
        role_id: expect.any(String),
        resource_id: expect.any(String),
        relation_id: expect.any(String),
      },
    ]);
    const replaced = await ok('PATCH', `${schema()}/resources/repo/roles/reader`, { granted_to: { users_with_role: [] } });
    expect(replaced.granted_to.users_with_role).toEqual([]);
    const list = await ok('GET', `${schema()}/resources/repo/roles`);
    expect(list.map((r: any) => r.key)).toContain('reader');
    await ok('DELETE', `${schema()}/resources/repo/roles/reader`, undefined, 204);
    expectError(await t.call('GET', `${schema()}/resources/repo/roles/reader`), 404, 'NOT_FOUND');
  });

  it('adds and removes implicit grants; checks relation, roles and duplicates', async () => {
    await ok('POST', `${schema()}/resources/repo/roles`, { key: 'maintainer', name: 'Maintainer', permissions: ['read', 'push'] });
    const rule = { role: 'admin', on_resource: 'org', linked_by_relation: 'owner' };
    const grant = await ok('POST', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, rule);
    expect(grant).toEqual(expect.objectContaining({ ...rule, resource: 'repo', resource_role: 'maintainer' }));
    expectError(await t.call('POST', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, rule), 409, 'DUPLICATE_ENTITY');
    expect((await ok('GET', `${schema()}/resources/repo/roles/maintainer`)).granted_to.users_with_role).toEqual([
      { ...rule, role_id: expect.any(String), resource_id: expect.any(String), relation_id: expect.any(String) },
    ]);
    expectError(
      await t.call('POST', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, { ...rule, linked_by_relation: 'nope' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, { ...rule, role: 'nope' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, { ...rule, on_resource: 'repo' }),
      422,
      'INVALID_INPUT',
    );
    expectError(await t.call('POST', `${schema()}/resources/repo/roles/ghost/implicit_grants`, rule), 404, 'NOT_FOUND');
    await ok('DELETE', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, rule, 204);
    expectError(await t.call('DELETE', `${schema()}/resources/repo/roles/maintainer/implicit_grants`, rule), 404, 'NOT_FOUND');
  });

  it('deleting a role removes the derivations that require it', async () => {
    await ok('POST', `${schema()}/resources/org/roles`, { key: 'member', name: 'Member' });
    await ok('POST', `${schema()}/resources/repo/roles`, {
      key: 'guest',
      name: 'Guest',
      permissions: ['read'],
      granted_to: { users_with_role: [{ role: 'member', on_resource: 'org', linked_by_relation: 'owner' }] },
    });
    await ok('DELETE', `${schema()}/resources/org/roles/member`, undefined, 204);
    expect((await ok('GET', `${schema()}/resources/repo/roles/guest`)).granted_to.users_with_role).toEqual([]);
  });
});

describe('relations', () => {
  it('creates, lists, gets, deletes relations; the subject must exist', async () => {
    await ok('POST', `${schema()}/resources`, { key: 'team', name: 'Team', actions: {} });
    await ok('POST', `${schema()}/resources`, { key: 'project', name: 'Project', actions: { see: {} } });
    const rel = await ok('POST', `${schema()}/resources/project/relations`, {
      key: 'owning_team',
      name: 'Owning team',
      subject_resource: 'team',
    });
    expect(rel).toEqual(expect.objectContaining({ key: 'owning_team', subject_resource: 'team', object_resource: 'project' }));
    expectError(
      await t.call('POST', `${schema()}/resources/project/relations`, { key: 'owning_team', name: 'x', subject_resource: 'team' }),
      409,
      'DUPLICATE_ENTITY',
    );
    expectError(
      await t.call('POST', `${schema()}/resources/project/relations`, { key: 'r2', name: 'x', subject_resource: 'ghost' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('POST', `${schema()}/resources/ghost/relations`, { key: 'r3', name: 'x', subject_resource: 'team' }),
      404,
      'NOT_FOUND',
    );
    expect((await ok('GET', `${schema()}/resources/project/relations`)).data.map((r: any) => r.key)).toEqual(['owning_team']);
    expect((await ok('PATCH', `${schema()}/resources/project/relations/owning_team`, { name: 'Team owner' })).name).toBe('Team owner');
    await ok('DELETE', `${schema()}/resources/project/relations/owning_team`, undefined, 204);
    expectError(await t.call('GET', `${schema()}/resources/project/relations/owning_team`), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', `${schema()}/resources/project/relations/owning_team`), 404, 'NOT_FOUND');
  });
});

describe('tenant roles', () => {
  it('validates permissions against resource actions', async () => {
    await ok('POST', `${schema()}/resources`, { key: 'invoice', name: 'Invoice', actions: { read: {}, approve: {} } });
    const role = await ok('POST', `${schema()}/roles`, {
      key: 'accountant',
      name: 'Accountant',
      permissions: ['invoice:read', 'invoice:approve'],
    });
    expect(role).toEqual(expect.objectContaining({ key: 'accountant', permissions: ['invoice:read', 'invoice:approve'] }));
    expectError(await t.call('POST', `${schema()}/roles`, { key: 'accountant', name: 'A' }), 409, 'DUPLICATE_ENTITY');
    const bad = await t.call('POST', `${schema()}/roles`, {
      key: 'clerk',
      name: 'C',
      permissions: ['invoice:read', 'invoice:burn', 'ghost:read'],
    });
    expectError(bad, 422, 'INVALID_INPUT');
    expect(bad.body.details.map((d: any) => d.path)).toEqual(['/body/permissions/1', '/body/permissions/2']);
    expectError(await t.call('POST', `${schema()}/roles`, { key: 'clerk', name: 'C', permissions: ['noColon'] }), 422, 'INVALID_INPUT');
    expect((await ok('GET', `${schema()}/roles/${role.id}`)).key).toBe('accountant');
    expect((await ok('PATCH', `${schema()}/roles/accountant`, { permissions: ['invoice:read'] })).permissions).toEqual(['invoice:read']);
    expectError(await t.call('PATCH', `${schema()}/roles/accountant`, { permissions: ['invoice:nope'] }), 422, 'INVALID_INPUT');
    expect((await ok('GET', `${schema()}/roles?search=account`)).map((r: any) => r.key)).toEqual(['accountant']);
    expect(await ok('GET', `${schema()}/roles?search=account&include_total_count=true`)).toMatchObject({
      total_count: 1,
      page_count: 1,
      data: [{ key: 'accountant' }],
    });
    await ok('DELETE', `${schema()}/roles/accountant`, undefined, 204);
    expectError(await t.call('GET', `${schema()}/roles/accountant`), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', `${schema()}/roles/accountant`), 404, 'NOT_FOUND');
  });
});

describe('resource instances', () => {
  beforeAll(async () => {
    await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
    await ok('POST', `${facts()}/tenants`, { key: 'globex', name: 'Globex' });
    await ok('POST', `${schema()}/resources`, { key: 'file', name: 'File', actions: { read: {} } });
  });

  it('creates under both paths, gets by type:key and id, with odd keys', async () => {
    const odd = `a:b "q" \`bt\` ünï/😀`;
    const i = await ok('POST', `${schema()}/resource_instances`, { key: odd, tenant: 'acme', resource: 'file', attributes: { size: 3 } });
    expect(i).toEqual(
      expect.objectContaining({ key: odd, tenant: 'acme', resource: 'file', attributes: { size: 3 }, id: expect.any(String) }),
    );
    expect((await ok('GET', `${facts()}/resource_instances/${enc(`file:${odd}`)}`)).id).toBe(i.id);
    expect((await ok('GET', `${schema()}/resource_instances/${i.id}`)).key).toBe(odd);
    await ok('POST', `${facts()}/resource_instances`, { key: 'f2', tenant: 'globex', resource: 'file' });
    expectError(
      await t.call('POST', `${facts()}/resource_instances`, { key: 'f2', tenant: 'globex', resource: 'file' }),
      409,
      'DUPLICATE_ENTITY',
    );
    const noTenant = await t.call('POST', `${facts()}/resource_instances`, { key: 'f3', tenant: 'ghost', resource: 'file' });
    expectError(noTenant, 404, 'NOT_FOUND');
    expect(noTenant.body.message).toMatch(/Tenant/);
    const noRes = await t.call('POST', `${facts()}/resource_instances`, { key: 'f3', tenant: 'acme', resource: 'ghost' });
    expectError(noRes, 404, 'NOT_FOUND');
    expect(noRes.body.message).toMatch(/Resource/);
    expectError(await t.call('GET', `${facts()}/resource_instances/file:nope`), 404, 'NOT_FOUND');
  });

  it('lists with tenant/resource filters and pages; patches attributes; deletes', async () => {
    for (const k of ['l1', 'l2', 'l3']) await ok('POST', `${facts()}/resource_instances`, { key: k, tenant: 'globex', resource: 'file' });
    const globex = await ok('GET', `${facts()}/resource_instances?tenant=globex&resource=file&per_page=2`);
    expect(globex).toHaveLength(2);
    const p2 = await ok('GET', `${facts()}/resource_instances?tenant=globex&resource=file&per_page=2&page=2`);
    expect(p2.map((i: any) => i.key)).toEqual(['l2', 'l3']);
    expect(await ok('GET', `${facts()}/resource_instances?tenant=globex&resource=file&per_page=2&page=3`)).toEqual([]);
    // Permit's other filters: search, detailed=false; detailed=true adds `relationships` (driven through the Python SDK).
    expect((await ok('GET', `${facts()}/resource_instances?resource=file&search=l3&detailed=false`)).map((i: any) => i.key)).toEqual([
      'l3',
    ]);
    const detailed = await ok('GET', `${facts()}/resource_instances?resource=file&search=l3&detailed=true`);
    expect(detailed.map((i: any) => [i.key, i.relationships])).toEqual([['l3', []]]);
    const patched = await ok('PATCH', `${facts()}/resource_instances/file:l1`, { attributes: { secret: true } });
    expect(patched.attributes).toEqual({ secret: true });
    await ok('DELETE', `${facts()}/resource_instances/file:l1`, undefined, 204);
    expectError(await t.call('GET', `${facts()}/resource_instances/file:l1`), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', `${facts()}/resource_instances/file:l1`), 404, 'NOT_FOUND');
  });
});

describe('cascades', () => {
  it('deleting a resource removes its roles, relations, derivations, instances and tenant-role permissions', async () => {
    await ok('POST', `${facts()}/tenants`, { key: 'casc', name: 'Casc' });
    await ok('POST', `${schema()}/resources`, {
      key: 'box',
      name: 'Box',
      actions: { open: {} },
      roles: { opener: { permissions: ['open'] } },
    });
    await ok('POST', `${schema()}/resources`, {
      key: 'item',
      name: 'Item',
      actions: { take: {} },
      relations: { inside: 'box' },
      roles: {
        taker: {
          permissions: ['take'],
          granted_to: { users_with_role: [{ role: 'opener', on_resource: 'box', linked_by_relation: 'inside' }] },
        },
      },
    });
    await ok('POST', `${schema()}/roles`, { key: 'boxer', name: 'Boxer', permissions: ['box:open', 'item:take'] });
    await ok('POST', `${facts()}/resource_instances`, { key: 'b1', tenant: 'casc', resource: 'box' });

    await ok('DELETE', `${schema()}/resources/box`, undefined, 204);
    expectError(await t.call('GET', `${schema()}/resources/box`), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `${facts()}/resource_instances/box:b1`), 404, 'NOT_FOUND');
    expect(await ok('GET', `${facts()}/resource_instances?resource=box`)).toEqual([]);
    const item = await ok('GET', `${schema()}/resources/item`);
    expect(item.relations).toEqual({});
    expect(item.roles.taker.granted_to.users_with_role).toEqual([]);
    expect((await ok('GET', `${schema()}/roles/boxer`)).permissions).toEqual(['item:take']);
    // the key can be reused from scratch
    const again = await ok('POST', `${schema()}/resources`, { key: 'box', name: 'Box again', actions: {} });
    expect(again.roles).toEqual({});
  });
});

describe('odd action keys', () => {
  it('refuses __proto__ keys at the door and keeps constructor as a plain action key', async () => {
    // Raw JSON: in an object literal `__proto__` would set the prototype instead of a key.
    const raw = '{"key": "odd", "name": "Odd", "actions": {"__proto__": {"name": "Proto"}, "constructor": {}}}';
    const refused = await t.call('POST', `${schema()}/resources`, undefined, { raw });
    expect({ status: refused.status, code: refused.body.error_code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const created = await ok('POST', `${schema()}/resources`, { key: 'odd', name: 'Odd', actions: { constructor: { name: 'Ctor' } } });
    expect(created.actions.constructor.name).toBe('Ctor');
    const patched = await ok('PATCH', `${schema()}/resources/odd`, { actions: { constructor: {}, read: {} } });
    expect(Object.keys(patched.actions).sort()).toEqual(['constructor', 'read']);
    expect(patched.actions.constructor.name).toBe('Ctor');
  });

  it('refuses __proto__ as the key of a resource, action, role or relation with 422 (it would vanish from a map)', async () => {
    for (const [path, body] of [
      [`${schema()}/resources`, { key: '__proto__', name: 'P', actions: {} }],
      [`${schema()}/resources/odd/actions`, { key: '__proto__', name: 'P' }],
      [`${schema()}/resources/odd/roles`, { key: '__proto__', name: 'P', permissions: [] }],
      [`${schema()}/roles`, { key: '__proto__', name: 'P', permissions: [] }],
      [`${schema()}/resources/odd/relations`, { key: '__proto__', name: 'P', subject_resource: 'odd' }],
    ] as const) {
      const res = await t.call('POST', path, body);
      expect({ path, status: res.status, code: res.body.error_code }).toEqual({ path, status: 422, code: 'INVALID_INPUT' });
    }
    const odd = await ok('GET', `${schema()}/resources/odd`);
    expect(Object.keys(odd.actions).sort()).toEqual(['constructor', 'read']);
    // A key that merely contains the word is an ordinary key.
    expect((await ok('POST', `${schema()}/resources/odd/actions`, { key: '__proto__x', name: 'X' })).key).toBe('__proto__x');
  });
});
