import { startTestService, TestService } from '../support/testService';

let t: TestService;
let envId: string;
beforeAll(async () => {
  t = await startTestService();
  const scope = await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey });
  envId = scope.body.environment_id;
});
afterAll(async () => t?.close());

const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const enc = encodeURIComponent;
const grp = (key: string) => `${schema()}/groups/${enc(key)}`;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body).toEqual(expect.objectContaining({ title: expect.any(String), message: expect.any(String) }));
  expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|Neo4jError|MATCH \(/);
}

/** Direct graph access, scoped to this file's environment, for set-up and for checking graph effects. */
async function cypher(text: string, params: Record<string, unknown> = {}): Promise<Record<string, any>[]> {
  const session = t.service.driver.session();
  try {
    const res = await session.run(text, { env: envId, ...params });
    return res.records.map((r) => r.toObject());
  } finally {
    await session.close();
  }
}

/** Schema set-up through the schema area's API. */
async function resource(key: string, actions: string[], roles: Record<string, string[]> = {}) {
  const res = await t.call('POST', `${schema()}/resources`, {
    key, name: key,
    actions: Object.fromEntries(actions.map((a) => [a, {}])),
    roles: Object.fromEntries(Object.entries(roles).map(([k, permissions]) => [k, { name: k, permissions }])),
  });
  expect(res.status).toBe(200);
}
async function tenantRole(key: string, permissions: string[]) {
  const res = await t.call('POST', `${schema()}/roles`, { key, name: key, permissions });
  expect(res.status).toBe(200);
}
async function instance(resourceKey: string, key: string, tenantKey: string) {
  const res = await t.call('POST', `${schema()}/resource_instances`, { key, resource: resourceKey, tenant: tenantKey });
  expect(res.status).toBe(200);
}
async function tenant(key: string) {
  const res = await t.call('POST', `${facts()}/tenants`, { key, name: key });
  expect(res.status).toBe(200);
}
async function user(key: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', `${facts()}/users`, { key, ...extra });
  expect(res.status).toBe(200);
}
async function group(key: string, tenantKey: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', `${schema()}/groups`, { group_instance_key: key, group_tenant: tenantKey, ...extra });
  expect(res.status).toBe(200);
  return res.body;
}
const assign = (a: string, b: string) => t.call('PUT', `${grp(a)}/assign_group`, { group_instance_key: b });

beforeAll(async () => {
  await tenant('acme');
  await tenant('other');
  await resource('folder', ['read', 'write'], { viewer: ['read'], editor: ['read', 'write'] });
  await resource('repo', ['pull', 'push'], { maintainer: ['pull', 'push'] });
  await tenantRole('auditor', ['folder:read']);
});

describe('group CRUD', () => {
  it('creates a group of the default type, with the type resource and its member role', async () => {
    const res = await t.call('POST', `${schema()}/groups`, { group_instance_key: 'eng', group_tenant: 'acme' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({
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
    }));
    const graph = await cypher(
      `MATCH (r:Resource {env: $env, key: 'group'})-[:HAS_ROLE]->(m:ResourceRole {env: $env, resource: 'group', key: 'member'})
       MATCH (g:Group:Instance:InEnv {env: $env, key: 'eng'})-[:IN_TENANT]->(:Tenant {env: $env, key: 'acme'})
       RETURN r.actions AS actions, m.permissions AS permissions, g.resource AS resource, g.tenant AS tenant`,
    );
    expect(graph).toEqual([{ actions: [], permissions: [], resource: 'group', tenant: 'acme' }]);
  });

  it('creates a group of a named type with name, description and attributes; reads it by key and by id', async () => {
    const created = await group('platform', 'acme', {
      group_resource_type_key: 'team', name: 'Platform', description: 'Platform team', attributes: { cost_center: 42 },
    });
    expect(created).toEqual(expect.objectContaining({
      group_resource_type_key: 'team', name: 'Platform', description: 'Platform team', attributes: { cost_center: 42 },
    }));
    const byKey = await t.call('GET', grp('platform'));
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual(created);
    const byId = await t.call('GET', grp(created.id));
    expect(byId.body.group_instance_key).toBe('platform');
    expect((await cypher(`MATCH (:Resource {env: $env, key: 'team'})-[:HAS_ROLE]->(m:ResourceRole {key: 'member'}) RETURN count(m) AS n`))[0].n).toBe(1);
  });

  it('answers 409 for a duplicate key (even of another type) and for an existing plain instance of the type', async () => {
    await group('dup', 'acme');
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: 'dup', group_tenant: 'acme' }), 409, 'DUPLICATE_ENTITY');
    expectError(
      await t.call('POST', `${schema()}/groups`, { group_instance_key: 'dup', group_tenant: 'other', group_resource_type_key: 'team' }),
      409, 'DUPLICATE_ENTITY',
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
    expectError(await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x', group_tenant: 'acme', colour: 'red' }), 422, 'INVALID_INPUT');
    expectError(
      await t.call('POST', `${schema()}/groups`, { group_instance_key: 'x', group_tenant: 'acme', group_resource_type_key: 'bad type!' }),
      422, 'INVALID_INPUT',
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
      resource: 'folder', resource_instance: 'weird "f`1" ü', role: 'viewer', tenant: 'acme',
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
    const res = await t.call('POST', `/v2/schema/${t.proj}/${t.env}/group/readers/roles`, {
      resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme',
    }, { key: t.envKey });
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
    const res = await t.call('POST', `${grp('writers')}/roles`, { resource: 'folder', resource_instance: 'f2', role: 'editor', tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body.assigned_roles).toEqual(['folder:f2#editor']);
    expect((await t.call('GET', grp('readers'))).body.assigned_roles).toEqual(['folder:f1#viewer']);
    const rels = await cypher(`MATCH (r:Relation {env: $env, resource: 'folder'}) RETURN r.key AS key ORDER BY key`);
    expect(rels.map((r) => r.key)).toEqual(['group_editor_group', 'group_viewer_group']);
    const roles = await t.call('GET', `${grp('writers')}/roles`);
    expect(roles.body).toEqual({ data: [{ resource: 'folder', resource_instance: 'f2', role: 'editor', tenant: 'acme' }], total_count: 1, page_count: 1 });
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
    expect((await t.call('POST', `${grp('readers')}/roles`, { resource: 'folder', resource_instance: 'f1', role: 'auditor', tenant: 'acme' })).status).toBe(200);
    const res = await t.call('POST', `${grp('readers')}/roles`, { resource: 'repo', resource_instance: 'api', role: 'maintainer', tenant: 'acme' });
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
      409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    const missing = await t.call('POST', `${grp('readers')}/roles`, { resource: 'folder', role: 'viewer', tenant: 'acme' });
    expectError(missing, 422, 'INVALID_INPUT');
    expect(missing.body.details).toContainEqual({ path: '/body/resource_instance', message: 'is required' });
    expect((await cypher(`MATCH (i:Instance {env: $env, key: 'fx'}) RETURN count(i) AS n`))[0].n).toBe(0);
    expect((await cypher(`MATCH (:Group {env: $env, key: 'readers'})-[x:RELATED]->(:Instance {key: 'theirs'}) RETURN count(x) AS n`))[0].n).toBe(0);
  });

  it('removes only the tuple, on both paths; 404 when the group does not hold the role', async () => {
    const body = { resource: 'folder', resource_instance: 'f1', role: 'auditor', tenant: 'acme' };
    const del = await t.call('DELETE', `/v2/schema/${t.proj}/${t.env}/group/readers/roles`, body);
    expect(del.status).toBe(204);
    expectError(await t.call('DELETE', `${grp('readers')}/roles`, body), 404, 'NOT_FOUND');
    const del2 = await t.call('DELETE', `${grp('readers')}/roles`, { resource: 'repo', resource_instance: 'api', role: 'maintainer', tenant: 'acme' });
    expect(del2.status).toBe(204);
    expect((await t.call('GET', grp('readers'))).body.assigned_roles).toEqual(['folder:f1#viewer']);
    // the schema made for it stays: other groups of the type share it
    const schemaLeft = await cypher(
      `MATCH (d:Derivation {env: $env, resource: 'repo', role: 'maintainer', relation: 'group_maintainer_group'})-[:DERIVES]->(r:Relation)
       RETURN count(d) AS n`,
    );
    expect(schemaLeft[0].n).toBe(1);
    expectError(await t.call('DELETE', `${grp('readers')}/roles`, { ...body, tenant: 'other' }), 409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS');
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

    const edges = await cypher(`MATCH (u:User {env: $env, key: 'ann'})-[m:HAS_ROLE]->(:Group {env: $env, key: 'members'}) RETURN m.role AS role, m.tenant AS tenant`);
    expect(edges).toEqual([{ role: 'member', tenant: 'acme' }]);
    const annRecord = await t.call('GET', `${facts()}/users/ann`);
    expect(annRecord.body.associated_tenants).toContain('acme');

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
    expect((await cypher(`MATCH (:Group {env: $env, key: 'ga'})-[x:RELATED]->(:Group {env: $env, key: 'gb'}) RETURN count(x) AS n`))[0].n).toBe(1);
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
    const res = await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'd1', tenant: 'acme' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body.group_instance_key).toBe('docs');
    const again = await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'd1', tenant: 'acme' });
    expect(again.status).toBe(200);
    expect((await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' })).status).toBe(200);
    const graph = await cypher(
      `MATCH (:Group {env: $env, key: 'docs'})-[x:GROUPS]->(i:Instance {env: $env, resource: 'folder', key: 'd1'})-[:IN_TENANT]->(:Tenant {key: 'acme'})
       RETURN x.tenant AS tenant, i.tenant AS instanceTenant`,
    );
    expect(graph).toEqual([{ tenant: 'acme', instanceTenant: 'acme' }]);
    const list = await t.call('GET', `${grp('docs')}/resource_instances`);
    expect(list.body.total_count).toBe(2);
    expect(list.body.data.map((i: any) => `${i.resource}:${i.key}`)).toEqual(['folder:d1', 'repo:api']);
    expect(list.body.data[0]).toEqual(expect.objectContaining({ tenant: 'acme', attributes: {}, id: expect.any(String) }));

    expect((await t.call('DELETE', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' })).status).toBe(204);
    expectError(await t.call('DELETE', `${grp('docs')}/resource_instances`, { resource: 'repo', resource_instance: 'api', tenant: 'acme' }), 404, 'NOT_FOUND');
    expect((await t.call('GET', `${grp('docs')}/resource_instances`)).body.total_count).toBe(1);
  });

  it('answers 409 for an instance of another tenant or a tenant mismatch, 404 for an unknown resource', async () => {
    expectError(
      await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'theirs', tenant: 'acme' }),
      409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(
      await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'folder', resource_instance: 'd9', tenant: 'other' }),
      409, 'MISMATCH_RESOURCE_INSTANCES_TENANTS',
    );
    expectError(await t.call('PUT', `${grp('docs')}/resource_instances`, { resource: 'nope', resource_instance: 'd9', tenant: 'acme' }), 404, 'NOT_FOUND');
    expectError(await t.call('PUT', `${grp('nope')}/resource_instances`, { resource: 'folder', resource_instance: 'd9', tenant: 'acme' }), 404, 'NOT_FOUND');
    expect((await cypher(`MATCH (i:Instance {env: $env, key: 'd9'}) RETURN count(i) AS n`))[0].n).toBe(0);
  });
});

describe('concurrent writes', () => {
  it('creates groups of a new type at once without duplicating the type, and the same role at once without duplicates', async () => {
    const created = await Promise.all([...Array(8).keys()].map((i) =>
      t.call('POST', `${schema()}/groups`, { group_instance_key: `burst-${i}`, group_tenant: 'acme', group_resource_type_key: 'burst' })));
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(200));
    const types = await cypher(`MATCH (r:Resource {env: $env, key: 'burst'})-[:HAS_ROLE]->(m:ResourceRole) RETURN count(DISTINCT r) AS r, count(m) AS m`);
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
    expect((await t.call('POST', `${grp('del')}/roles`, { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme' })).status).toBe(200);
    expect((await t.call('PUT', `${grp('del')}/resource_instances`, { resource: 'folder', resource_instance: 'f2', tenant: 'acme' })).status).toBe(200);
    expect((await assign('del', 'del-parent')).status).toBe(200);
    expect((await assign('del-child', 'del')).status).toBe(200);

    expect((await t.call('DELETE', grp('del'), undefined, { key: t.envKey })).status).toBe(204);
    expectError(await t.call('GET', grp('del')), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', grp('del')), 404, 'NOT_FOUND');
    expect((await t.call('GET', `${grp('del-parent')}/children`)).body.total_count).toBe(0);
    expect((await t.call('GET', `${grp('del-child')}/parents`)).body.total_count).toBe(0);
    expect((await cypher(`MATCH (:User {env: $env, key: 'dora'})-[r:HAS_ROLE]->() RETURN count(r) AS n`))[0].n).toBe(0);
    expect((await t.call('GET', `${facts()}/users/dora`)).status).toBe(200);
    expect((await cypher(`MATCH (i:Instance {env: $env, resource: 'folder'}) WHERE i.key IN ['f1', 'f2'] RETURN count(i) AS n`))[0].n).toBe(2);
    expect((await cypher(`MATCH (d:Derivation {env: $env, relation: 'group_viewer_group'}) RETURN count(d) AS n`))[0].n).toBe(1);
    // the key is free again
    await group('del', 'other');
    expect((await t.call('GET', grp('del'))).body).toEqual(expect.objectContaining({ group_tenant: 'other', users: [], assigned_roles: [] }));
  });
});

describe('visible through the schema endpoints and the decision engine', () => {
  const allowed = async (userKey: string, action: string, type: string, key: string) => {
    const res = await t.call('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: userKey, action, resource: { type, key, tenant: 'acme' } });
    expect(res.status).toBe(200);
    return res.body.allow as boolean;
  };
  const roleBody = (resourceKey: string, inst: string, role: string) => ({ resource: resourceKey, resource_instance: inst, role, tenant: 'acme' });

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
    expect(rels.body.data).toEqual(expect.arrayContaining([
      expect.objectContaining({ key: 'group_viewer_group', subject_resource: 'group', object_resource: 'folder' }),
      expect.objectContaining({ key: 'group_editor_group', subject_resource: 'group', object_resource: 'folder' }),
    ]));
    const viewer = await t.call('GET', `${schema()}/resources/folder/roles/viewer`);
    expect(viewer.body.granted_to.users_with_role).toContainEqual({ role: 'member', on_resource: 'group', linked_by_relation: 'group_viewer_group' });
    expect(viewer.body.granted_to.users_with_role).not.toContainEqual(expect.objectContaining({ linked_by_relation: 'group_editor_group' }));
    const groupRels = await t.call('GET', `${schema()}/resources/group/relations?per_page=100`);
    expect(groupRels.body.data).toContainEqual(expect.objectContaining({ key: 'group', subject_resource: 'group', object_resource: 'group' }));
    const member = await t.call('GET', `${schema()}/resources/group/roles/member`);
    expect(member.status).toBe(200);
    expect(member.body.granted_to.users_with_role).toContainEqual({ role: 'member', on_resource: 'group', linked_by_relation: 'group' });
    const inst = await t.call('GET', `${schema()}/resource_instances/${enc('folder:v1')}`);
    expect(inst.status).toBe(200);
    expect(inst.body.tenant).toBe('acme');
  });

  it('shows the automatic relationships and memberships in the facts', async () => {
    const toV2 = await t.call('GET', `${facts()}/relationship_tuples?object=${enc('folder:v2')}`);
    expect(toV2.status).toBe(200);
    expect(toV2.body.data).toEqual([expect.objectContaining({ subject: 'group:vis-b', relation: 'group_editor_group', object: 'folder:v2', tenant: 'acme' })]);
    const nested = await t.call('GET', `${facts()}/relationship_tuples?subject=${enc('group:vis-child')}&relation=group`);
    expect(nested.body.data).toEqual([expect.objectContaining({ subject: 'group:vis-child', relation: 'group', object: 'group:vis-a', tenant: 'acme' })]);
    const ra = await t.call('GET', `${facts()}/role_assignments?user=vince`);
    expect(ra.status).toBe(200);
    expect(ra.body.data ?? ra.body).toContainEqual(expect.objectContaining({ user: 'vince', role: 'member', tenant: 'acme', resource_instance: 'group:vis-b' }));
  });

  it('gives members exactly the group role, nested members the ancestors\' roles, and revokes on removal', async () => {
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
    expect((await t.call('PUT', `${grp('vis-docs')}/resource_instances`, { resource: 'folder', resource_instance: 'doc1', tenant: 'acme' })).status).toBe(200);
    // members of vis-readers hold the tenant role auditor (folder:read) on group:vis-docs
    const held = await t.call('POST', `${grp('vis-readers')}/roles`, roleBody('group', 'vis-docs', 'auditor'));
    expect(held.status).toBe(200);
    expect(held.body.assigned_roles).toEqual(['group:vis-docs#auditor']);
    expect((await t.call('PUT', `${grp('vis-readers')}/users/vera`, { tenant: 'acme' })).status).toBe(200);
    expect(await allowed('vera', 'read', 'folder', 'doc1')).toBe(true);
    expect(await allowed('vera', 'write', 'folder', 'doc1')).toBe(false);
    expect(await allowed('vera', 'read', 'folder', 'v2')).toBe(false);
    expect((await t.call('DELETE', `${grp('vis-docs')}/resource_instances`, { resource: 'folder', resource_instance: 'doc1', tenant: 'acme' })).status).toBe(204);
    expect(await allowed('vera', 'read', 'folder', 'doc1')).toBe(false);
  });
});
