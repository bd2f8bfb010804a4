import { startTestService, type TestService } from '../support/testService';

/** all-tenants and user-tenants, groups/direct, PATCH projects/envs, Permit's elements config DELETE path. */
let t: TestService;
let facts: string;
let schema: string;
let allowed: string;

beforeAll(async () => {
  t = await startTestService();
  facts = `/v2/facts/${t.proj}/${t.env}`;
  schema = `/v2/schema/${t.proj}/${t.env}`;
  allowed = `/v2/allowed/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'repo', name: 'Repo', actions: { pull: {}, push: {} } });
  await t.ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['repo:pull'] });
  await t.ok('POST', `${schema}/resources/repo/roles`, { key: 'maintainer', name: 'Maintainer', permissions: ['push', 'pull'] });
  for (const key of ['t1', 't2', 't3']) await t.ok('POST', `${facts}/tenants`, { key, name: key, attributes: { n: key } });
  await t.ok('POST', `${facts}/users`, { key: 'ann' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'ann', role: 'reader', tenant: 't1' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'api', tenant: 't2', resource: 'repo' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'ann', role: 'maintainer', tenant: 't2', resource_instance: 'repo:api' });
  await t.ok('POST', `${facts}/tenants/t3/users`, { key: 'ann' });
});
afterAll(async () => t?.close());

describe('user-tenants and all-tenants', () => {
  it('lists the tenants the user belongs to (added, tenant role, instance role)', async () => {
    const tenants = await t.ok('POST', `${allowed}/user-tenants`, { user: 'ann' });
    expect(tenants).toEqual([
      { key: 't1', attributes: { n: 't1' } },
      { key: 't2', attributes: { n: 't2' } },
      { key: 't3', attributes: { n: 't3' } },
    ]);
    expect(await t.ok('POST', `${allowed}/user-tenants`, { user: { key: 'nobody' } })).toEqual([]);
    const res = await t.call('POST', '/user-tenants', { user: 'ann' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.key)).toEqual(['t1', 't2', 't3']);
  });

  it('answers the tenants where the check is allowed, tenant by tenant', async () => {
    const pull = await t.ok('POST', `${allowed}/all-tenants`, { user: 'ann', action: 'pull', resource: { type: 'repo' } });
    expect(pull.allowed_tenants).toEqual([{ allow: true, tenant: { key: 't1', attributes: { n: 't1' } } }]);
    const push = await t.ok('POST', `${allowed}/all-tenants`, { user: 'ann', action: 'push', resource: { type: 'repo', key: 'api' } });
    expect(push.allowed_tenants.map((x: any) => x.tenant.key)).toEqual(['t2']);
    const none = await t.ok('POST', `${allowed}/all-tenants`, { user: 'ann', action: 'delete', resource: { type: 'repo' } });
    expect(none.allowed_tenants).toEqual([]);
  });

  it('the PDP path takes the environment key from the header or, as permitio 2.7.6 sends it, the body', async () => {
    const direct = await t.call(
      'POST',
      '/allowed/all-tenants',
      { user: 'ann', action: 'pull', resource: { type: 'repo' } },
      { key: t.envKey },
    );
    expect(direct.status).toBe(200);
    expect(direct.body.allowed_tenants.map((x: any) => x.tenant.key)).toEqual(['t1']);
    const sdkShape = await t.call(
      'POST',
      '/allowed/all-tenants',
      {
        headers: { Authorization: `Bearer ${t.envKey}` },
        params: { user: 'ann', action: 'push', resource: { type: 'repo', key: 'api' }, context: {} },
      },
      { key: null },
    );
    expect(sdkShape.status).toBe(200);
    expect(sdkShape.body.allowedTenants.map((x: any) => x.tenant.key)).toEqual(['t2']);
    const noKey = await t.call('POST', '/allowed/all-tenants', { user: 'ann', action: 'pull', resource: { type: 'repo' } }, { key: null });
    expect([noKey.status, noKey.body.error_code]).toEqual([401, 'UNAUTHORIZED']);
    const badKey = await t.call(
      'POST',
      '/allowed/all-tenants',
      { headers: { Authorization: 'Bearer nope_nope_nope_nope' }, params: { user: 'ann', action: 'pull', resource: { type: 'repo' } } },
      { key: null },
    );
    expect(badKey.status).toBe(401);
    const admin = await t.call('POST', '/allowed/all-tenants', { user: 'ann', action: 'pull', resource: { type: 'repo' } });
    expect(admin.status).toBe(403);
    const bad = await t.call('POST', `${allowed}/all-tenants`, { user: 'ann', resource: { type: 'repo' } });
    expect([bad.status, bad.body.error_code]).toEqual([422, 'INVALID_INPUT']);
  });
});

describe('groups/direct', () => {
  it('lists (paged) and gets groups with their direct members and role grants', async () => {
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 't2' });
    await t.ok('POST', `${schema}/groups/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'maintainer', tenant: 't2' });
    await t.ok('PUT', `${schema}/groups/eng/users/ann`, { tenant: 't2' });
    const g = await t.ok('GET', `${schema}/groups/direct/eng`);
    expect(g).toMatchObject({
      group_instance_key: 'eng',
      group_tenant: 't2',
      users: ['ann'],
      group_roles: [{ role: 'maintainer', resource: 'repo', resource_instance: 'api', tenant: 't2' }],
    });
    const page = await t.ok('GET', `${schema}/groups/direct?per_page=1`);
    expect(page).toMatchObject({ total_count: 1, page_count: 1 });
    expect(page.data[0].group_instance_key).toBe('eng');
    expect((await t.call('GET', `${schema}/groups/direct/ghost`)).status).toBe(404);
    expect((await t.call('GET', `${schema}/groups/direct?per_page=101`)).body.error_code).toBe('PAGINATION_SIZE_OVERREACHED');
  });
});

describe('PATCH projects and environments, elements config DELETE', () => {
  it('renames a project and an environment; unknown fields are refused', async () => {
    expect(await t.ok('PATCH', `/v2/projects/${t.proj}`, { name: 'Renamed', description: 'd' })).toMatchObject({
      key: t.proj,
      name: 'Renamed',
      description: 'd',
    });
    expect((await t.ok('GET', `/v2/projects/${t.proj}`)).name).toBe('Renamed');
    expect(await t.ok('PATCH', `/v2/projects/${t.proj}/envs/${t.env}`, { description: 'env d' })).toMatchObject({
      key: t.env,
      description: 'env d',
    });
    expect((await t.call('PATCH', `/v2/projects/${t.proj}`, { key: 'other' })).status).toBe(422);
    expect((await t.call('PATCH', '/v2/projects/no_such_project', { name: 'x' })).status).toBe(404);
    expect((await t.call('PATCH', `/v2/projects/${t.proj}`, { name: 'x' }, { key: t.envKey })).status).toBe(403);
  });

  it('deletes an elements config at /v2/elements/{p}/{e}/{config_id}', async () => {
    const cfg = await t.ok('POST', `/v2/elements/${t.proj}/${t.env}/config`, {
      key: 'approvals',
      name: 'Approvals',
      elements_type: 'operation_approval',
      settings: { resources: ['repo'] },
      roles_to_levels: { LEVEL_1: ['reader'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
    });
    await t.ok('DELETE', `/v2/elements/${t.proj}/${t.env}/${cfg.id}`, undefined, 204);
    expect((await t.call('GET', `/v2/elements/${t.proj}/${t.env}/config/${cfg.id}`)).status).toBe(404);
    expect((await t.call('DELETE', `/v2/elements/${t.proj}/${t.env}/${cfg.id}`)).status).toBe(404);
  });
});
