import { cypher, enc, expectError, facts, group, grp, instance, schema, t, useGroupsService, user } from './groups-support';

useGroupsService();

describe('group CRUD', () => {
  it('creates a group of the default type, with the type resource and its member role', async () => {
    const res = await t.call('POST', `${schema()}/groups`, { group_instance_key: 'eng', group_tenant: 'acme' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        group_instance_key: 'eng',
        group_resource_type_key: 'group',
        group_tenant: 'acme',
        name: null,
        description: null,
        attributes: {},
        assigned_roles: [],
        users: [],
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      }),
    );
    const graph = await cypher(
      `MATCH (r:Resource {env: $env, key: 'group'})-[:HAS_ROLE]->(m:ResourceRole {env: $env, resource: 'group', key: 'member'})
       MATCH (g:Group:Instance:InEnv {env: $env, key: 'eng'})-[:IN_TENANT]->(:Tenant {env: $env, key: 'acme'})
       RETURN r.actions AS actions, m.permissions AS permissions, g.resource AS resource, g.tenant AS tenant`,
    );
    expect(graph).toEqual([{ actions: [], permissions: [], resource: 'group', tenant: 'acme' }]);
  });

  it('creates a group of a named type with name, description and attributes; reads it by key and by id', async () => {
    const created = await group('platform', 'acme', {
      group_resource_type_key: 'team',
      name: 'Platform',
      description: 'Platform team',
      attributes: { cost_center: 42 },
    });
    expect(created).toEqual(
      expect.objectContaining({
        group_resource_type_key: 'team',
        name: 'Platform',
        description: 'Platform team',
        attributes: { cost_center: 42 },
      }),
    );
    const byKey = await t.call('GET', grp('platform'));
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual(created);
    const byId = await t.call('GET', grp(created.id));
    expect(byId.body.group_instance_key).toBe('platform');
    expect(
      (await cypher(`MATCH (:Resource {env: $env, key: 'team'})-[:HAS_ROLE]->(m:ResourceRole {key: 'member'}) RETURN count(m) AS n`))[0].n,
    ).toBe(1);
  });

  it('answers 409 for a duplicate key (even of another type) and for an existing plain instance of the type', async () => {
    await group('dup', 'acme');
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: 'dup', group_tenant: 'acme' }), 409, 'DUPLICATE_ENTITY');
    expectError(
      await t.call('POST', `${schema()}/groups`, { group_instance_key: 'dup', group_tenant: 'other', group_resource_type_key: 'team' }),
      409,
      'DUPLICATE_ENTITY',
    );
    await instance('group', 'plain', 'acme');
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: 'plain', group_tenant: 'acme' }), 409, 'DUPLICATE_ENTITY');
    // nothing half-made
    expect((await cypher(`MATCH (g:Group {env: $env, key: 'plain'}) RETURN count(g) AS n`))[0].n).toBe(0);
  });

  it('answers 404 for an unknown tenant and 422 for bad bodies', async () => {
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x', group_tenant: 'nope' }), 404, 'NOT_FOUND');
    expect((await cypher(`MATCH (g:Group {env: $env, key: 'x'}) RETURN count(g) AS n`))[0].n).toBe(0);
    const missing = await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x' });
    expectError(missing, 422, 'INVALID_INPUT');
    expect(missing.body.details).toContainEqual({ path: '/body/group_tenant', message: 'is required' });
    expectError(
      await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x', group_tenant: 'acme', colour: 'red' }),
      422,
      'INVALID_INPUT',
    );
    expectError(
      await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x', group_tenant: 'acme', group_resource_type_key: 'bad type!' }),
      422,
      'INVALID_INPUT',
    );
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: '', group_tenant: 'acme' }), 422, 'INVALID_INPUT');
    expectError(await t.call('GET', grp('no-such-group')), 404, 'NOT_FOUND');
  });

  it('stores and finds keys with quotes, backticks and unicode exactly', async () => {
    const odd = [`it's "quoted"`, 'back`tick`', 'ünïcødé 🚀', 'a/b?c#d', "x' OR 1=1 //", '{braces} $param'];
    for (const key of odd) {
      await group(key, 'acme');
      const got = await t.call('GET', grp(key));
      expect(got.status).toBe(200);
      expect(got.body.group_instance_key).toBe(key);
    }
    const res = await t.call('POST', `/v2/schema/${t.proj}/${t.env}/group/${enc(odd[0])}/roles`, {
      resource: 'folder',
      resource_instance: 'weird "f`1" ü',
      role: 'viewer',
      tenant: 'acme',
    });
    expect(res.status).toBe(200);
    expect(res.body.assigned_roles).toEqual(['folder:weird "f`1" ü#viewer']);
    await user('o\'dd "user"');
    const put = await t.call('PUT', `${grp(odd[1])}/users/${enc('o\'dd "user"')}`, { tenant: 'acme' });
    expect(put.status).toBe(200);
    expect(put.body.users).toEqual(['o\'dd "user"']);
  });

  it('updates name, description and attributes', async () => {
    await group('upd', 'acme', { name: 'Old', description: 'Desc', attributes: { a: 1 } });
    const res = await t.call('PATCH', grp('upd'), { name: 'New', description: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ name: 'New', description: null, attributes: { a: 1 } }));
    const res2 = await t.call('PATCH', grp('upd'), { attributes: { b: 2 } });
    expect(res2.body).toEqual(expect.objectContaining({ name: 'New', attributes: { b: 2 } }));
    expect(res2.body.updated_at >= res2.body.created_at).toBe(true);
    expectError(await t.call('PATCH', grp('upd'), { group_tenant: 'other' }), 422, 'INVALID_INPUT');
    expectError(await t.call('PATCH', grp('nope'), { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('lists with filters tenant, resource and search, and pages', async () => {
    for (let i = 0; i < 5; i++) await group(`list-${i}`, 'other', { group_resource_type_key: 'squad', name: `Squad ${i}` });
    await group('list-x', 'other');
    const bySquad = await t.call('GET', `${schema()}/groups?resource=squad&per_page=2`);
    expect(bySquad.status).toBe(200);
    expect(bySquad.body.total_count).toBe(5);
    expect(bySquad.body.page_count).toBe(3);
    expect(bySquad.body.data.map((g: any) => g.group_instance_key)).toEqual(['list-0', 'list-1']);
    const p3 = await t.call('GET', `${schema()}/groups?resource=squad&per_page=2&page=3`);
    expect(p3.body.data.map((g: any) => g.group_instance_key)).toEqual(['list-4']);
    const past = await t.call('GET', `${schema()}/groups?resource=squad&per_page=2&page=9`);
    expect(past.body).toEqual({ data: [], total_count: 5, page_count: 3 });

    const inOther = await t.call('GET', `${schema()}/groups?tenant=other&per_page=100`);
    expect(inOther.body.data.every((g: any) => g.group_tenant === 'other')).toBe(true);
    expect(inOther.body.data.map((g: any) => g.group_instance_key)).toEqual(expect.arrayContaining(['list-x', 'list-0']));
    const search = await t.call('GET', `${schema()}/groups?search=SQUAD%203`);
    expect(search.body.data.map((g: any) => g.group_instance_key)).toEqual(['list-3']);
    const none = await t.call('GET', `${schema()}/groups?tenant=acme&resource=squad`);
    expect(none.body).toEqual({ data: [], total_count: 0, page_count: 0 });
    expectError(await t.call('GET', `${schema()}/groups?per_page=101`), 422, 'PAGINATION_SIZE_OVERREACHED');
    expectError(await t.call('GET', `${schema()}/groups?page=0`), 422, 'INVALID_INPUT');
  });

  it('answers 403 for an environment key of another environment', async () => {
    await t.call('POST', `/v2/projects/${t.proj}/envs`, { key: 'other-env', name: 'Other' });
    expectError(await t.call('GET', `/v2/schema/${t.proj}/other-env/groups`, undefined, { key: t.envKey }), 403, 'FORBIDDEN_ACCESS');
    expectError(await t.call('GET', `${schema()}/groups`, undefined, { key: null }), 401, 'UNAUTHORIZED');
  });
});

describe('group roles', () => {
  beforeAll(async () => {
    await group('readers', 'acme');
    await group('writers', 'acme');
  });

  it('assigns a resource role (seed path /group/...): instance, relation, derivation and tuple are made', async () => {
    const res = await t.call(
      'POST',
      `/v2/schema/${t.proj}/${t.env}/group/readers/roles`,
      {
        resource: 'folder',
        resource_instance: 'f1',
        role: 'viewer',
        tenant: 'acme',
      },
      { key: t.envKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.assigned_roles).toEqual(['folder:f1#viewer']);
    const graph = await cypher(
      `MATCH (f:Resource {env: $env, key: 'folder'})-[:HAS_RELATION]->(rel:Relation {env: $env, resource: 'folder', key: 'group_viewer_group'})
             -[:SUBJECT]->(:Resource {env: $env, key: 'group'})
       MATCH (d:Derivation {env: $env, resource: 'folder', role: 'viewer', on_resource: 'group', from_role: 'member', relation: 'group_viewer_group'})-[:DERIVES]->(rel)
       MATCH (g:Group {env: $env, key: 'readers'})-[x:RELATED {relation: 'group_viewer_group'}]->(i:Instance:InEnv {env: $env, resource: 'folder', key: 'f1'})
       MATCH (i)-[:IN_TENANT]->(:Tenant {env: $env, key: 'acme'})
       RETURN rel.subject_resource AS subject, x.tenant AS tenant, i.tenant AS instanceTenant, i.id IS NOT NULL AS hasId`,
    );
    expect(graph).toEqual([{ subject: 'group', tenant: 'acme', instanceTenant: 'acme', hasId: true }]);
  });

  it('keeps grants exact: one relation per type, resource and role', async () => {
    const res = await t.call('POST', `${grp('writers')}/roles`, {
      resource: 'folder',
      resource_instance: 'f2',
      role: 'editor',
      tenant: 'acme',
    });
    expect(res.status).toBe(200);
    expect(res.body.assigned_roles).toEqual(['folder:f2#editor']);
    expect((await t.call('GET', grp('readers'))).body.assigned_roles).toEqual(['folder:f1#viewer']);
    const rels = await cypher(`MATCH (r:Relation {env: $env, resource: 'folder'}) RETURN r.key AS key ORDER BY key`);
    expect(rels.map((r) => r.key)).toEqual(['group_editor_group', 'group_viewer_group']);
    const roles = await t.call('GET', `${grp('writers')}/roles`);
    expect(roles.body).toEqual({
      data: [{ resource: 'folder', resource_instance: 'f2', role: 'editor', tenant: 'acme' }],
      total_count: 1,
      page_count: 1,
    });
  });

  it('is idempotent for an identical second assignment', async () => {
    const body = { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme' };
    const again = await t.call('POST', `${grp('readers')}/roles`, body);
    expect(again.status).toBe(200);
    expect(again.body.assigned_roles).toEqual(['folder:f1#viewer']);
    const n = await cypher(`MATCH (:Group {env: $env, key: 'readers'})-[x:RELATED]->() RETURN count(x) AS n`);
    expect(n[0].n).toBe(1);
    const d = await cypher(`MATCH (d:Derivation {env: $env, resource: 'folder', role: 'viewer'}) RETURN count(d) AS n`);
    expect(d[0].n).toBe(1);
  });

  it('accepts a tenant-level role and an existing instance; lists and pages the roles', async () => {
    await instance('repo', 'api', 'acme');
    expect(
      (await t.call('POST', `${grp('readers')}/roles`, { resource: 'folder', resource_instance: 'f1', role: 'auditor', tenant: 'acme' }))
        .status,
    ).toBe(200);
    const res = await t.call('POST', `${grp('readers')}/roles`, {
      resource: 'repo',
      resource_instance: 'api',
      role: 'maintainer',
      tenant: 'acme',
    });
    expect(res.status).toBe(200);
    expect(res.body.assigned_roles).toEqual(['folder:f1#auditor', 'folder:f1#viewer', 'repo:api#maintainer']);
    const p1 = await t.call('GET', `${grp('readers')}/roles?per_page=2`);
    expect(p1.body.total_count).toBe(3);
    expect(p1.body.page_count).toBe(2);
    expect(p1.body.data).toEqual([
      { resource: 'folder', resource_instance: 'f1', role: 'auditor', tenant: 'acme' },
      { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme' },
    ]);
    const p2 = await t.call('GET', `${grp('readers')}/roles?per_page=2&page=2`);
    expect(p2.body.data).toEqual([{ resource: 'repo', resource_instance: 'api', role: 'maintainer', tenant: 'acme' }]);
  });

  it('answers 404 / 409 / 422 for bad assignments, and writes nothing', async () => {
    const base = { resource: 'folder', resource_instance: 'fx', role: 'viewer', tenant: 'acme' };
    expectError(await t.call('POST', `${grp('readers')}/roles`, { ...base, resource: 'nope' }), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${grp('readers')}/roles`, { ...base, role: 'nope' }), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${grp('readers')}/roles`, { ...base, role: 'maintainer' }), 404, 'NOT_FOUND'); // a role of repo, not folder
    expectError(await t.call('POST', `${grp('nope')}/roles`, base), 404, 'NOT_FOUND');
    expectError(await t.call('POST', `${grp('readers')}/roles`, { ...base, tenant: 'other' }), 409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS');
    expectError(await t.call('POST', `${grp('readers')}/roles`, { ...base, tenant: 'no-such-tenant' }), 404, 'NOT_FOUND');
    await instance('folder', 'theirs', 'other');
    expectError(
      await t.call('POST', `${grp('readers')}/roles`, { ...base, resource_instance: 'theirs' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    const missing = await t.call('POST', `${grp('readers')}/roles`, { resource: 'folder', role: 'viewer', tenant: 'acme' });
    expectError(missing, 422, 'INVALID_INPUT');
    expect(missing.body.details).toContainEqual({ path: '/body/resource_instance', message: 'is required' });
    expect((await cypher(`MATCH (i:Instance {env: $env, key: 'fx'}) RETURN count(i) AS n`))[0].n).toBe(0);
    expect(
      (await cypher(`MATCH (:Group {env: $env, key: 'readers'})-[x:RELATED]->(:Instance {key: 'theirs'}) RETURN count(x) AS n`))[0].n,
    ).toBe(0);
  });

  it('removes only the tuple, on both paths; 404 when the group does not hold the role', async () => {
    const body = { resource: 'folder', resource_instance: 'f1', role: 'auditor', tenant: 'acme' };
    const del = await t.call('DELETE', `/v2/schema/${t.proj}/${t.env}/group/readers/roles`, body);
    expect(del.status).toBe(204);
    expectError(await t.call('DELETE', `${grp('readers')}/roles`, body), 404, 'NOT_FOUND');
    const del2 = await t.call('DELETE', `${grp('readers')}/roles`, {
      resource: 'repo',
      resource_instance: 'api',
      role: 'maintainer',
      tenant: 'acme',
    });
    expect(del2.status).toBe(204);
    expect((await t.call('GET', grp('readers'))).body.assigned_roles).toEqual(['folder:f1#viewer']);
    // the schema made for it stays: other groups of the type share it
    const schemaLeft = await cypher(
      `MATCH (d:Derivation {env: $env, resource: 'repo', role: 'maintainer', relation: 'group_maintainer_group'})-[:DERIVES]->(r:Relation)
       RETURN count(d) AS n`,
    );
    expect(schemaLeft[0].n).toBe(1);
    expectError(
      await t.call('DELETE', `${grp('readers')}/roles`, { ...body, tenant: 'other' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(await t.call('DELETE', `${grp('nope')}/roles`, body), 404, 'NOT_FOUND');
  });
});

describe('group users', () => {
  beforeAll(async () => {
    await group('members', 'acme');
    await user('ann', { email: 'ann@acme.test', first_name: 'Ann', last_name: 'Lee' });
    await user('bob', { email: 'bob@acme.test' });
  });

  it('adds users (membership = member on the group instance) and lists them', async () => {
    const res = await t.call('PUT', `${grp('members')}/users/ann`, { tenant: 'acme' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body.users).toEqual(['ann']);
    const again = await t.call('PUT', `${grp('members')}/users/ann`, { tenant: 'acme' });
    expect(again.status).toBe(200);
    expect(again.body.users).toEqual(['ann']);
    expect((await t.call('PUT', `${grp('members')}/users/bob`, { tenant: 'acme' })).body.users).toEqual(['ann', 'bob']);

    const edges = await cypher(
      `MATCH (u:User {env: $env, key: 'ann'})-[m:HAS_ROLE]->(:Group {env: $env, key: 'members'}) RETURN m.role AS role, m.tenant AS tenant`,
    );
    expect(edges).toEqual([{ role: 'member', tenant: 'acme' }]);
    const annRecord = await t.call('GET', `${facts()}/users/ann`);
    expect(annRecord.body.associated_tenants.map((x: any) => x.tenant)).toContain('acme');

    const list = await t.call('GET', `${grp('members')}/users?per_page=1`);
    expect(list.status).toBe(200);
    expect(list.body.total_count).toBe(2);
    expect(list.body.page_count).toBe(2);
    expect(list.body.data).toEqual([expect.objectContaining({ key: 'ann', email: 'ann@acme.test', first_name: 'Ann', last_name: 'Lee' })]);
  });

  it('answers 404 for an unknown user or group and 409 for another tenant', async () => {
    expectError(await t.call('PUT', `${grp('members')}/users/nobody`, { tenant: 'acme' }), 404, 'NOT_FOUND');
    expectError(await t.call('PUT', `${grp('nope')}/users/ann`, { tenant: 'acme' }), 404, 'NOT_FOUND');
    expectError(await t.call('PUT', `${grp('members')}/users/ann`, { tenant: 'other' }), 409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS');
    expectError(await t.call('PUT', `${grp('members')}/users/ann`, {}), 422, 'INVALID_INPUT');
    expectError(await t.call('GET', `${grp('nope')}/users`), 404, 'NOT_FOUND');
  });

  it('removes a member: 204, then 404', async () => {
    expect((await t.call('DELETE', `${grp('members')}/users/bob`, { tenant: 'acme' })).status).toBe(204);
    expectError(await t.call('DELETE', `${grp('members')}/users/bob`, { tenant: 'acme' }), 404, 'NOT_FOUND');
    expect((await t.call('GET', grp('members'))).body.users).toEqual(['ann']);
    // the user stays, and so does their tenant membership
    expect((await t.call('GET', `${facts()}/users/bob`)).status).toBe(200);
    // the tenant is optional on removal
    expect((await t.call('PUT', `${grp('members')}/users/bob`, { tenant: 'acme' })).status).toBe(200);
    expect((await t.call('DELETE', `${grp('members')}/users/bob`)).status).toBe(204);
    expectError(await t.call('DELETE', `${grp('members')}/users/ann`, { tenant: 'other' }), 409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS');
  });
});

describe('bulk groups', () => {
  it('creates many groups in one call, all or nothing', async () => {
    const ops = ['b1', 'b2', 'b3'].map((k) => ({ group_instance_key: k, group_tenant: 'acme' }));
    const res = await t.call('POST', `${schema()}/groups/bulk`, {
      operations: [...ops, { group_instance_key: 'b4', group_tenant: 'acme', group_resource_type_key: 'crew', name: 'Crew' }],
    });
    expect(res.body).toEqual({ groups_created: 4 });
    expect((await t.call('GET', grp('b4'))).body).toEqual(
      expect.objectContaining({ group_resource_type_key: 'crew', name: 'Crew', group_tenant: 'acme' }),
    );
    const dup = await t.call('POST', `${schema()}/groups/bulk`, {
      operations: [
        { group_instance_key: 'b5', group_tenant: 'acme' },
        { group_instance_key: 'b1', group_tenant: 'acme' },
      ],
    });
    expectError(dup, 409, 'DUPLICATE_ENTITY');
    expect(dup.body.message).toMatch(/^Item 1:/);
    const twice = await t.call('POST', `${schema()}/groups/bulk`, {
      operations: [
        { group_instance_key: 'b6', group_tenant: 'acme' },
        { group_instance_key: 'b6', group_tenant: 'acme' },
      ],
    });
    expectError(twice, 409, 'DUPLICATE_ENTITY');
    expectError(
      await t.call('POST', `${schema()}/groups/bulk`, { operations: [{ group_instance_key: 'b7', group_tenant: 'nope' }] }),
      404,
      'NOT_FOUND',
    );
    for (const k of ['b5', 'b6', 'b7']) expect((await t.call('GET', grp(k))).status).toBe(404);
  });
});
