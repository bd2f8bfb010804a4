import { startTestService, type TestService } from '../support/testService';

/** Role hierarchy, permission assignment, single actions, derivation conditions, resource attributes. */
let t: TestService;
let schema: string;

beforeAll(async () => {
  t = await startTestService();
  schema = `/v2/schema/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {}, write: {}, share: {} },
    attributes: { owner: 'team-a' },
  });
  await t.ok('POST', `${schema}/resources`, {
    key: 'folder',
    name: 'Folder',
    actions: { read: {} },
    relations: { parent: 'folder' },
    roles: { viewer: { name: 'Viewer', permissions: ['read'] } },
  });
});
afterAll(async () => t?.close());

describe('resource attributes', () => {
  it('are stored and returned; PATCH replaces them; past 16 KiB is a 422', async () => {
    expect((await t.ok('GET', `${schema}/resources/doc`)).attributes).toEqual({ owner: 'team-a' });
    expect((await t.ok('PATCH', `${schema}/resources/doc`, { attributes: { owner: 'team-b' } })).attributes).toEqual({ owner: 'team-b' });
    const big = await t.call('PATCH', `${schema}/resources/doc`, { attributes: { x: 'x'.repeat(16 * 1024) } });
    expect([big.status, big.body.error_code]).toEqual([422, 'INVALID_INPUT']);
  });
});

describe('tenant role hierarchy', () => {
  it('extends on create, parents, ancestors and descendants, cycles refused', async () => {
    await t.ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
    await t.ok('POST', `${schema}/roles`, { key: 'writer', name: 'Writer', permissions: ['doc:write'], extends: ['reader'] });
    await t.ok('POST', `${schema}/roles`, { key: 'admin', name: 'Admin' });
    expect((await t.ok('GET', `${schema}/roles/writer`)).extends).toEqual(['reader']);
    expect((await t.ok('PUT', `${schema}/roles/admin/parents/writer`)).extends).toEqual(['writer']);
    expect((await t.ok('GET', `${schema}/roles/admin/ancestors`)).map((r: any) => r.key)).toEqual(['reader', 'writer']);
    expect((await t.ok('GET', `${schema}/roles/reader/descendants`)).map((r: any) => r.key)).toEqual(['admin', 'writer']);

    const cycle = await t.call('PUT', `${schema}/roles/reader/parents/admin`);
    expect([cycle.status, cycle.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect((await t.call('PUT', `${schema}/roles/reader/parents/reader`)).status).toBe(422);
    expect((await t.ok('GET', `${schema}/roles/reader`)).extends).toEqual([]);
    const viaPatch = await t.call('PATCH', `${schema}/roles/reader`, { name: 'Renamed', extends: ['admin'] });
    expect(viaPatch.status).toBe(422);
    expect((await t.ok('GET', `${schema}/roles/reader`)).name).toBe('Reader');

    expect((await t.call('PUT', `${schema}/roles/admin/parents/ghost`)).status).toBe(404);
    expect((await t.ok('DELETE', `${schema}/roles/admin/parents/writer`)).extends).toEqual([]);
    expect((await t.call('DELETE', `${schema}/roles/admin/parents/writer`)).status).toBe(404);
    expect(await t.ok('GET', `${schema}/roles/admin/ancestors`)).toEqual([]);
    const list = await t.ok('GET', `${schema}/roles`);
    expect(list.find((r: any) => r.key === 'writer').extends).toEqual(['reader']);
  });

  it('assigns and removes permissions', async () => {
    await t.ok('POST', `${schema}/roles`, { key: 'perm', name: 'Perm', permissions: ['doc:read'] });
    expect((await t.ok('POST', `${schema}/roles/perm/permissions`, { permissions: ['doc:write', 'doc:read'] })).permissions).toEqual([
      'doc:read',
      'doc:write',
    ]);
    const bad = await t.call('POST', `${schema}/roles/perm/permissions`, { permissions: ['doc:fly'] });
    expect([bad.status, bad.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect((await t.ok('DELETE', `${schema}/roles/perm/permissions`, { permissions: ['doc:read'] })).permissions).toEqual(['doc:write']);
  });
});

describe('resource role hierarchy and permissions', () => {
  it('works within one resource', async () => {
    await t.ok('POST', `${schema}/resources/doc/roles`, { key: 'viewer', name: 'Viewer', permissions: ['read'] });
    const editor = await t.ok('POST', `${schema}/resources/doc/roles`, {
      key: 'editor',
      name: 'Editor',
      permissions: ['write'],
      extends: ['viewer'],
    });
    expect(editor.extends).toEqual(['viewer']);
    expect((await t.ok('GET', `${schema}/resources/doc`)).roles.editor.extends).toEqual(['viewer']);
    expect((await t.call('PUT', `${schema}/resources/doc/roles/viewer/parents/editor`)).status).toBe(422);
    expect((await t.ok('GET', `${schema}/resources/doc/roles/viewer/descendants`)).map((r: any) => r.key)).toEqual(['editor']);
    // Relatives are whole roles, as a GET of each answers them (extends, derivations, resource id).
    expect(await t.ok('GET', `${schema}/resources/doc/roles/editor/ancestors`)).toEqual([
      await t.ok('GET', `${schema}/resources/doc/roles/viewer`),
    ]);
    expect(await t.ok('GET', `${schema}/resources/doc/roles/viewer/descendants`)).toEqual([
      await t.ok('GET', `${schema}/resources/doc/roles/editor`),
    ]);
    // A role of another resource is not a parent here.
    expect((await t.call('PUT', `${schema}/resources/folder/roles/viewer/parents/editor`)).status).toBe(404);
    expect(
      (await t.ok('POST', `${schema}/resources/doc/roles/viewer/permissions`, { permissions: ['share', 'doc:write'] })).permissions,
    ).toEqual(['read', 'share', 'write']);
    expect((await t.call('POST', `${schema}/resources/doc/roles/viewer/permissions`, { permissions: ['fly'] })).status).toBe(422);
    expect((await t.ok('DELETE', `${schema}/resources/doc/roles/viewer/permissions`, { permissions: ['share'] })).permissions).toEqual([
      'read',
      'write',
    ]);
  });
});

describe('resource actions', () => {
  it('create, get (by key or id), update, delete (dropped from role permissions)', async () => {
    const a = await t.ok('POST', `${schema}/resources/doc/actions`, { key: 'print', name: 'Print', attributes: { paper: true } });
    expect(a).toMatchObject({ key: 'print', name: 'Print', permission_name: 'doc:print', attributes: { paper: true } });
    expect((await t.call('POST', `${schema}/resources/doc/actions`, { key: 'print', name: 'again' })).status).toBe(409);
    expect(await t.ok('GET', `${schema}/resources/doc/actions/${a.id}`)).toMatchObject({ key: 'print' });
    expect(await t.ok('PATCH', `${schema}/resources/doc/actions/print`, { description: 'on paper' })).toMatchObject({
      name: 'Print',
      description: 'on paper',
    });
    await t.ok('POST', `${schema}/roles`, { key: 'printer', name: 'Printer', permissions: ['doc:print', 'doc:read'] });
    await t.ok('DELETE', `${schema}/resources/doc/actions/print`, undefined, 204);
    expect((await t.call('GET', `${schema}/resources/doc/actions/print`)).status).toBe(404);
    expect((await t.ok('GET', `${schema}/roles/printer`)).permissions).toEqual(['doc:read']);
    expect(Object.keys((await t.ok('GET', `${schema}/resources/doc`)).actions)).not.toContain('print');
  });
});

describe('derivation conditions', () => {
  it('when is stored on the derivation, shown, and set for all rules of a role', async () => {
    const d = await t.ok('POST', `${schema}/resources/folder/roles/viewer/implicit_grants`, {
      role: 'viewer',
      on_resource: 'folder',
      linked_by_relation: 'parent',
      when: { no_direct_roles_on_object: true },
    });
    expect(d.when).toEqual({ no_direct_roles_on_object: true });
    expect((await t.ok('GET', `${schema}/resources/folder/roles/viewer`)).granted_to.when).toEqual({ no_direct_roles_on_object: true });
    expect(
      await t.ok('PUT', `${schema}/resources/folder/roles/viewer/implicit_grants/conditions`, { no_direct_roles_on_object: false }),
    ).toEqual({ no_direct_roles_on_object: false });
    const role = await t.ok('GET', `${schema}/resources/folder/roles/viewer`);
    expect(role.granted_to.when).toBeUndefined();
    expect(role.granted_to.users_with_role).toEqual([
      {
        role: 'viewer',
        on_resource: 'folder',
        linked_by_relation: 'parent',
        role_id: expect.any(String),
        resource_id: expect.any(String),
        relation_id: expect.any(String),
      },
    ]);
    expect(
      (await t.call('PUT', `${schema}/resources/folder/roles/viewer/implicit_grants/conditions`, { no_direct_roles_on_object: 'yes' }))
        .status,
    ).toBe(422);
  });

  it("POST sets them as PUT does (Permit's Java SDK sends POST)", async () => {
    const path = `${schema}/resources/folder/roles/viewer/implicit_grants/conditions`;
    expect(await t.ok('POST', path, { no_direct_roles_on_object: true })).toEqual({ no_direct_roles_on_object: true });
    expect((await t.ok('GET', `${schema}/resources/folder/roles/viewer`)).granted_to.when).toEqual({ no_direct_roles_on_object: true });
    expect(await t.ok('POST', path, { no_direct_roles_on_object: false })).toEqual({ no_direct_roles_on_object: false });
    expect((await t.ok('GET', `${schema}/resources/folder/roles/viewer`)).granted_to.when).toBeUndefined();
    const bad = await t.call('POST', path, { no_direct_roles_on_object: 'yes' });
    expect([bad.status, bad.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect((await t.call('POST', `${schema}/resources/folder/roles/ghost/implicit_grants/conditions`, {})).status).toBe(404);
  });
});

describe('hierarchy under concurrency', () => {
  it('of parent additions that would together close a cycle, at most one succeeds', async () => {
    for (const key of ['c1', 'c2', 'c3']) await t.ok('POST', `${schema}/roles`, { key, name: key });
    // c1 -> c2 and c2 -> c3 and c3 -> c1, all at once: every pair is fine, all three make a cycle.
    const answers = await Promise.all([
      t.call('PUT', `${schema}/roles/c1/parents/c2`),
      t.call('PUT', `${schema}/roles/c2/parents/c3`),
      t.call('PUT', `${schema}/roles/c3/parents/c1`),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 422]);
    for (const key of ['c1', 'c2', 'c3']) {
      const ancestors = (await t.ok('GET', `${schema}/roles/${key}/ancestors`)).map((r: any) => r.key);
      expect(ancestors).not.toContain(key);
    }
  });
});

describe('extends inline in a resource', () => {
  it('a role block of a resource create takes extends; resource lists show it', async () => {
    await t.ok('POST', `${schema}/resources`, {
      key: 'wiki',
      name: 'Wiki',
      actions: { read: {}, edit: {} },
      roles: {
        reader: { name: 'Reader', permissions: ['read'] },
        editor: { name: 'Editor', permissions: ['edit'], extends: ['reader'] },
      },
    });
    expect((await t.ok('GET', `${schema}/resources/wiki`)).roles.editor.extends).toEqual(['reader']);
    const list = await t.ok('GET', `${schema}/resources?search=wiki`);
    expect(list[0].roles).toMatchObject({ editor: { extends: ['reader'] }, reader: { extends: [] } });
    const bad = await t.call('POST', `${schema}/resources`, {
      key: 'wiki2',
      name: 'Wiki',
      actions: { read: {} },
      roles: {
        a: { name: 'A', extends: ['b'] },
        b: { name: 'B', extends: ['a'] },
      },
    });
    expect(bad.status).toBe(422);
    expect((await t.call('GET', `${schema}/resources/wiki2`)).status).toBe(404);
  });
});
