import { assign, cypher, enc, expectError, facts, group, grp, instance, schema, t, useGroupsService, user } from './groups-support';

useGroupsService();

describe('group to group (assign_group)', () => {
  beforeAll(async () => {
    for (const k of ['ga', 'gb', 'gc', 'gd']) await group(k, 'acme');
    await group('g-other-tenant', 'other');
    await group('g-team', 'acme', { group_resource_type_key: 'team' });
  });

  it('makes A a member of B: relation `group`, derivation member -> member and the tuple; children and parents list it', async () => {
    const res = await assign('ga', 'gb');
    expect(res.status).toBe(200);
    expect(res.body.group_instance_key).toBe('ga');
    expect(res.body.assigned_roles).toEqual([]); // the group link is not a role
    const graph = await cypher(
      `MATCH (t:Resource {env: $env, key: 'group'})-[:HAS_RELATION]->(rel:Relation {env: $env, resource: 'group', key: 'group'})-[:SUBJECT]->(t)
       MATCH (d:Derivation {env: $env, resource: 'group', role: 'member', on_resource: 'group', from_role: 'member', relation: 'group'})-[:DERIVES]->(rel)
       MATCH (:Group {env: $env, key: 'ga'})-[x:RELATED {relation: 'group'}]->(:Group {env: $env, key: 'gb'})
       RETURN rel.subject_resource AS subject, x.tenant AS tenant`,
    );
    expect(graph).toEqual([{ subject: 'group', tenant: 'acme' }]);
    const children = await t.call('GET', `${grp('gb')}/children`);
    expect(children.body.total_count).toBe(1);
    expect(children.body.data.map((g: any) => g.group_instance_key)).toEqual(['ga']);
    const parents = await t.call('GET', `${grp('ga')}/parents`);
    expect(parents.body.data.map((g: any) => g.group_instance_key)).toEqual(['gb']);
    expect((await t.call('GET', `${grp('gb')}/parents`)).body).toEqual({ data: [], total_count: 0, page_count: 0 });
  });

  it('answers 409 DUPLICATE_ENTITY for a second identical assignment', async () => {
    expectError(await assign('ga', 'gb'), 409, 'DUPLICATE_ENTITY');
    expect(
      (await cypher(`MATCH (:Group {env: $env, key: 'ga'})-[x:RELATED]->(:Group {env: $env, key: 'gb'}) RETURN count(x) AS n`))[0].n,
    ).toBe(1);
  });

  it('answers 422 GROUP_CYCLE for A -> A, B -> A and A -> B -> C -> A', async () => {
    expectError(await assign('ga', 'ga'), 422, 'GROUP_CYCLE');
    expectError(await assign('gb', 'ga'), 422, 'GROUP_CYCLE');
    expect((await assign('gb', 'gc')).status).toBe(200);
    expectError(await assign('gc', 'ga'), 422, 'GROUP_CYCLE');
    expectError(await assign('gc', 'gb'), 422, 'GROUP_CYCLE');
    // a diamond is not a cycle
    expect((await assign('ga', 'gc')).status).toBe(200);
    expect((await t.call('GET', `${grp('gc')}/children`)).body.data.map((g: any) => g.group_instance_key)).toEqual(['ga', 'gb']);
    expect((await cypher(`MATCH (:Group {env: $env, key: 'gc'})-[x:RELATED]->() RETURN count(x) AS n`))[0].n).toBe(0);
  });

  it('answers 422 for another type, 409 for another tenant, 404 for an unknown group', async () => {
    expectError(await assign('gd', 'g-team'), 422, 'INVALID_INPUT');
    expectError(await assign('gd', 'g-other-tenant'), 409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS');
    expectError(await assign('gd', 'nope'), 404, 'NOT_FOUND');
    expectError(await assign('nope', 'gd'), 404, 'NOT_FOUND');
    expectError(await t.call('PUT', `${grp('gd')}/assign_group`, {}), 422, 'INVALID_INPUT');
    expect((await t.call('GET', `${grp('gd')}/parents`)).body.total_count).toBe(0);
  });

  it('removes an assignment: 204 then 404; afterwards the reverse is allowed', async () => {
    expect((await t.call('DELETE', `${grp('ga')}/assign_group`, { group_instance_key: 'gc' })).status).toBe(204);
    expect((await t.call('DELETE', `${grp('gb')}/assign_group`, { group_instance_key: 'gc' })).status).toBe(204);
    expectError(await t.call('DELETE', `${grp('gb')}/assign_group`, { group_instance_key: 'gc' }), 404, 'NOT_FOUND');
    expect((await assign('gc', 'ga')).status).toBe(200); // gc -> ga -> gb: no cycle now
    expect((await t.call('GET', `${grp('ga')}/children`)).body.data.map((g: any) => g.group_instance_key)).toEqual(['gc']);
  });

  it('lets only one of two concurrent assignments that close a cycle succeed', async () => {
    for (let round = 0; round < 4; round++) {
      const [x, y] = [`cx${round}`, `cy${round}`];
      await group(x, 'acme');
      await group(y, 'acme');
      const results = await Promise.all([assign(x, y), assign(y, x)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    }
    // cycle through four groups closed by two assignments on disjoint pairs:
    // existing q2 -> q3 and q4 -> q1; concurrently q1 -> q2 and q3 -> q4.
    for (let round = 0; round < 3; round++) {
      const q = [1, 2, 3, 4].map((i) => `q${i}r${round}`);
      for (const k of q) await group(k, 'acme');
      expect((await assign(q[1], q[2])).status).toBe(200);
      expect((await assign(q[3], q[0])).status).toBe(200);
      const results = await Promise.all([assign(q[0], q[1]), assign(q[2], q[3])]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    }
  });
});

describe('resource groups (resource_instances)', () => {
  beforeAll(async () => {
    await group('docs', 'acme');
  });

  it('attaches instances (creating missing ones in the group tenant), lists and detaches them', async () => {
    const res = await t.call(
      'PUT',
      `${grp('docs')}/resource_instances`,
      { resource: 'folder', resource_instance: 'd1', tenant: 'acme' },
      { key: t.envKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.group_instance_key).toBe('docs');
    const again = await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'd1', tenant: 'acme' });
    expect(again.status).toBe(200);
    expect(
      (await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' })).status,
    ).toBe(200);
    const graph = await cypher(
      `MATCH (:Group {env: $env, key: 'docs'})-[x:GROUPS]->(i:Instance {env: $env, resource: 'folder', key: 'd1'})-[:IN_TENANT]->(:Tenant {key: 'acme'})
       RETURN x.tenant AS tenant, i.tenant AS instanceTenant`,
    );
    expect(graph).toEqual([{ tenant: 'acme', instanceTenant: 'acme' }]);
    const list = await t.call('GET', `${grp('docs')}/resource_instances`);
    expect(list.body.total_count).toBe(2);
    expect(list.body.data.map((i: any) => `${i.resource}:${i.key}`)).toEqual(['folder:d1', 'repo:api']);
    expect(list.body.data[0]).toEqual(expect.objectContaining({ tenant: 'acme', attributes: {}, id: expect.any(String) }));

    expect(
      (await t.call('DELETE', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' })).status,
    ).toBe(204);
    expectError(
      await t.call('DELETE', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' }),
      404,
      'NOT_FOUND',
    );
    expect((await t.call('GET', `${grp('docs')}/resource_instances`)).body.total_count).toBe(1);
  });

  it('answers 409 for an instance of another tenant or a tenant mismatch, 404 for an unknown resource', async () => {
    await instance('folder', 'theirs', 'other');
    expectError(
      await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'theirs', tenant: 'acme' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(
      await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'd9', tenant: 'other' }),
      409,
      'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(
      await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'nope', resource_instance: 'd9', tenant: 'acme' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.call('PUT', `${grp('nope')}/resource_instances`, { resource: 'folder', resource_instance: 'd9', tenant: 'acme' }),
      404,
      'NOT_FOUND',
    );
    expect((await cypher(`MATCH (i:Instance {env: $env, key: 'd9'}) RETURN count(i) AS n`))[0].n).toBe(0);
  });
});

describe('concurrent writes', () => {
  it('creates groups of a new type at once without duplicating the type, and the same role at once without duplicates', async () => {
    const created = await Promise.all(
      [...Array(8).keys()].map((i) =>
        t.call('POST', `${schema()}/groups`, { group_instance_key: `burst-${i}`, group_tenant: 'acme', group_resource_type_key: 'burst' }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(200));
    const types = await cypher(
      `MATCH (r:Resource {env: $env, key: 'burst'})-[:HAS_ROLE]->(m:ResourceRole) RETURN count(DISTINCT r) AS r, count(m) AS m`,
    );
    expect(types).toEqual([{ r: 1, m: 1 }]);

    const body = { resource: 'folder', resource_instance: 'burst-f', role: 'viewer', tenant: 'acme' };
    const assigned = await Promise.all([...Array(6).keys()].map((i) => t.call('POST', `${grp(`burst-${i % 3}`)}/roles`, body)));
    expect(assigned.map((r) => r.status)).toEqual(Array(6).fill(200));
    const graph = await cypher(
      `MATCH (i:Instance {env: $env, resource: 'folder', key: 'burst-f'})
       RETURN count(i) AS instances,
              COUNT { (:Group)-[:RELATED {relation: 'burst_viewer_group'}]->(i) } AS tuples,
              COUNT { (r:Relation {env: $env, resource: 'folder', key: 'burst_viewer_group'}) } AS relations,
              COUNT { (d:Derivation {env: $env, resource: 'folder', relation: 'burst_viewer_group'}) } AS derivations`,
    );
    expect(graph).toEqual([{ instances: 1, tuples: 3, relations: 1, derivations: 1 }]);
  });
});

describe('group deletion', () => {
  it('removes the group and everything hanging on it, keeping users, instances and shared schema', async () => {
    await group('del-parent', 'acme');
    await group('del', 'acme');
    await group('del-child', 'acme');
    await user('dora');
    expect((await t.call('PUT', `${grp('del')}/users/dora`, { tenant: 'acme' })).status).toBe(200);
    expect(
      (await t.call('POST', `${grp('del')}/roles`, { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme' })).status,
    ).toBe(200);
    expect(
      (await t.call('PUT', `${grp('del')}/resource_instances`, { resource: 'folder', resource_instance: 'f2', tenant: 'acme' })).status,
    ).toBe(200);
    expect((await assign('del', 'del-parent')).status).toBe(200);
    expect((await assign('del-child', 'del')).status).toBe(200);

    expect((await t.call('DELETE', grp('del'), undefined, { key: t.envKey })).status).toBe(204);
    expectError(await t.call('GET', grp('del')), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', grp('del')), 404, 'NOT_FOUND');
    expect((await t.call('GET', `${grp('del-parent')}/children`)).body.total_count).toBe(0);
    expect((await t.call('GET', `${grp('del-child')}/parents`)).body.total_count).toBe(0);
    expect((await cypher(`MATCH (:User {env: $env, key: 'dora'})-[r:HAS_ROLE]->() RETURN count(r) AS n`))[0].n).toBe(0);
    expect((await t.call('GET', `${facts()}/users/dora`)).status).toBe(200);
    expect((await cypher(`MATCH (i:Instance {env: $env, resource: 'folder'}) WHERE i.key IN ['f1', 'f2'] RETURN count(i) AS n`))[0].n).toBe(
      2,
    );
    expect((await cypher(`MATCH (d:Derivation {env: $env, relation: 'group_viewer_group'}) RETURN count(d) AS n`))[0].n).toBe(1);
    // the key is free again
    await group('del', 'other');
    expect((await t.call('GET', grp('del'))).body).toEqual(
      expect.objectContaining({ group_tenant: 'other', users: [], assigned_roles: [] }),
    );
  });
});

describe('visible through the schema endpoints and the decision engine', () => {
  const allowed = async (userKey: string, action: string, type: string, key: string) => {
    const res = await t.call('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: userKey, action, resource: { type, key, tenant: 'acme' } });
    expect(res.status).toBe(200);
    return res.body.allow as boolean;
  };
  const roleBody = (resourceKey: string, inst: string, role: string) => ({
    resource: resourceKey,
    resource_instance: inst,
    role,
    tenant: 'acme',
  });

  beforeAll(async () => {
    for (const g of ['vis-a', 'vis-b', 'vis-child', 'vis-docs', 'vis-readers']) await group(g, 'acme');
    for (const u of ['val', 'vic', 'vera', 'vince']) await user(u);
    expect((await t.call('POST', `${grp('vis-a')}/roles`, roleBody('folder', 'v1', 'viewer'))).status).toBe(200);
    expect((await t.call('POST', `${grp('vis-b')}/roles`, roleBody('folder', 'v2', 'editor'))).status).toBe(200);
    expect((await t.call('PUT', `${grp('vis-a')}/users/val`, { tenant: 'acme' })).status).toBe(200);
    expect((await t.call('PUT', `${grp('vis-b')}/users/vince`, { tenant: 'acme' })).status).toBe(200);
    expect((await t.call('PUT', `${grp('vis-child')}/users/vic`, { tenant: 'acme' })).status).toBe(200);
    expect((await assign('vis-child', 'vis-a')).status).toBe(200);
  });

  it('shows the automatic relations and derivations in the schema', async () => {
    const rels = await t.call('GET', `${schema()}/resources/folder/relations?per_page=100`);
    expect(rels.status).toBe(200);
    expect(rels.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'group_viewer_group', subject_resource: 'group', object_resource: 'folder' }),
        expect.objectContaining({ key: 'group_editor_group', subject_resource: 'group', object_resource: 'folder' }),
      ]),
    );
    const viewer = await t.call('GET', `${schema()}/resources/folder/roles/viewer`);
    expect(viewer.body.granted_to.users_with_role).toContainEqual({
      role: 'member',
      on_resource: 'group',
      linked_by_relation: 'group_viewer_group',
      role_id: expect.any(String),
      resource_id: expect.any(String),
      relation_id: expect.any(String),
    });
    expect(viewer.body.granted_to.users_with_role).not.toContainEqual(
      expect.objectContaining({ linked_by_relation: 'group_editor_group' }),
    );
    const groupRels = await t.call('GET', `${schema()}/resources/group/relations?per_page=100`);
    expect(groupRels.body.data).toContainEqual(
      expect.objectContaining({ key: 'group', subject_resource: 'group', object_resource: 'group' }),
    );
    const member = await t.call('GET', `${schema()}/resources/group/roles/member`);
    expect(member.status).toBe(200);
    expect(member.body.granted_to.users_with_role).toContainEqual({
      role: 'member',
      on_resource: 'group',
      linked_by_relation: 'group',
      role_id: expect.any(String),
      resource_id: expect.any(String),
      relation_id: expect.any(String),
    });
    const inst = await t.call('GET', `${schema()}/resource_instances/${enc('folder:v1')}`);
    expect(inst.status).toBe(200);
    expect(inst.body.tenant).toBe('acme');
  });

  it('shows the automatic relationships and memberships in the facts', async () => {
    const toV2 = await t.call('GET', `${facts()}/relationship_tuples?object=${enc('folder:v2')}`);
    expect(toV2.status).toBe(200);
    expect(toV2.body).toEqual([
      expect.objectContaining({ subject: 'group:vis-b', relation: 'group_editor_group', object: 'folder:v2', tenant: 'acme' }),
    ]);
    const nested = await t.call('GET', `${facts()}/relationship_tuples?subject=${enc('group:vis-child')}&relation=group`);
    expect(nested.body).toEqual([
      expect.objectContaining({ subject: 'group:vis-child', relation: 'group', object: 'group:vis-a', tenant: 'acme' }),
    ]);
    const ra = await t.call('GET', `${facts()}/role_assignments?user=vince`);
    expect(ra.status).toBe(200);
    expect(ra.body).toContainEqual(
      expect.objectContaining({ user: 'vince', role: 'member', tenant: 'acme', resource_instance: 'group:vis-b' }),
    );
  });

  it("gives members exactly the group role, nested members the ancestors' roles, and revokes on removal", async () => {
    expect(await allowed('val', 'read', 'folder', 'v1')).toBe(true);
    expect(await allowed('val', 'write', 'folder', 'v1')).toBe(false);
    expect(await allowed('val', 'read', 'folder', 'v2')).toBe(false); // exactness: vis-b's editor is not vis-a's
    expect(await allowed('vince', 'write', 'folder', 'v2')).toBe(true);
    expect(await allowed('vince', 'read', 'folder', 'v1')).toBe(false);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(true); // vis-child -group-> vis-a
    expect(await allowed('val', 'read', 'group', 'vis-child')).toBe(false);

    expect((await t.call('DELETE', `${grp('vis-a')}/users/val`, { tenant: 'acme' })).status).toBe(204);
    expect(await allowed('val', 'read', 'folder', 'v1')).toBe(false);
    expect((await t.call('DELETE', `${grp('vis-child')}/assign_group`, { group_instance_key: 'vis-a' })).status).toBe(204);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(false);
    expect((await assign('vis-child', 'vis-a')).status).toBe(200);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(true);
    expect((await t.call('DELETE', `${grp('vis-a')}/roles`, roleBody('folder', 'v1', 'viewer'))).status).toBe(204);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(false);
    expect((await t.call('POST', `${grp('vis-a')}/roles`, roleBody('folder', 'v1', 'viewer'))).status).toBe(200);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(true);
    expect((await t.call('DELETE', grp('vis-a'))).status).toBe(204);
    expect(await allowed('vic', 'read', 'folder', 'v1')).toBe(false);
  });

  it('applies a role held on a resource group to its attached instances, until detached', async () => {
    expect(
      (await t.call('PUT', `${grp('vis-docs')}/resource_instances`, { resource: 'folder', resource_instance: 'doc1', tenant: 'acme' }))
        .status,
    ).toBe(200);
    // members of vis-readers hold the tenant role auditor (folder:read) on group:vis-docs
    const held = await t.call('POST', `${grp('vis-readers')}/roles`, roleBody('group', 'vis-docs', 'auditor'));
    expect(held.status).toBe(200);
    expect(held.body.assigned_roles).toEqual(['group:vis-docs#auditor']);
    expect((await t.call('PUT', `${grp('vis-readers')}/users/vera`, { tenant: 'acme' })).status).toBe(200);
    expect(await allowed('vera', 'read', 'folder', 'doc1')).toBe(true);
    expect(await allowed('vera', 'write', 'folder', 'doc1')).toBe(false);
    expect(await allowed('vera', 'read', 'folder', 'v2')).toBe(false);
    expect(
      (await t.call('DELETE', `${grp('vis-docs')}/resource_instances`, { resource: 'folder', resource_instance: 'doc1', tenant: 'acme' }))
        .status,
    ).toBe(204);
    expect(await allowed('vera', 'read', 'folder', 'doc1')).toBe(false);
  });
});
