import { untilBlocked } from '../support/blocked';
import { assignTenantRole, buildWorld, type Client, expectError, login, ok, type World } from './approvals-support';

/**
 * Access requests (docs/behaviour.md section 11) on the approvals world: config `access` (LEVEL_1 role
 * `approver`, held by bob) governs `doc`; resource `wiki` has tenant roles `wiki_editor` (read,
 * write) and `wiki_viewer` (read); `doc:report` has the resource role `owner`, and carol holds
 * `_Reviewer_` on it (an instance reviewer, not a LEVEL one).
 */
let w: World;
let base: string;
let alice: Client;
let bob: Client;
let carol: Client;
let lena: Client;

const allowed = async (user: string, action: string, type: string, key: string) =>
  (await ok(w.t, 'POST', `/v2/allowed/${w.t.proj}/${w.t.env}`, { user, action, resource: { type, key, tenant: 'acme' } })).allow;
const tenantRequest = (role: string) => ({ access_request_details: { tenant: 'acme', role }, reason: 'I need it' });
const instanceRequest = (role: string, instance = 'report') => ({
  access_request_details: { tenant: 'acme', resource: 'doc', resource_instance: instance, role },
  reason: 'I own it',
});

beforeAll(async () => {
  w = await buildWorld();
  await ok(w.t, 'POST', `${w.schema}/resources`, { key: 'wiki', name: 'Wiki', actions: { read: {}, write: {} } });
  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'wiki_editor', name: 'Editor', permissions: ['wiki:read', 'wiki:write'] });
  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'wiki_viewer', name: 'Viewer', permissions: ['wiki:read'] });
  const config = await ok(w.t, 'POST', `/v2/elements/${w.t.proj}/${w.t.env}/config`, {
    key: 'access',
    name: 'Access requests',
    elements_type: 'access_request',
    settings: { resources: ['doc'] },
    roles_to_levels: { LEVEL_1: ['approver'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  await ok(w.t, 'POST', `${w.schema}/resources/doc/roles`, { key: 'owner', name: 'Owner', permissions: ['read'] });
  for (const key of ['report', 'memo', 'notes'])
    await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key, resource: 'doc', tenant: 'acme' });
  await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key: 'page', resource: 'wiki', tenant: 'acme' });
  await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key: 'elsewhere', resource: 'doc', tenant: 'other' });
  await ok(w.t, 'POST', `${w.facts}/role_assignments`, {
    user: 'carol',
    role: '_Reviewer_',
    resource_instance: 'doc:report',
    tenant: 'acme',
  });
  w.configId = config.id;
  w.base = base = `/v2/elements/${w.t.proj}/${w.t.env}/config/${config.id}/access_requests`;
  [alice, bob, carol, lena] = await Promise.all(['alice', 'bob', 'carol', 'lena'].map((u) => login(w, u)));
});
afterAll(async () => w?.t.close());

describe('access requests', () => {
  it('requests a tenant role; the reviewer grants another one, in the same step', async () => {
    const created = await alice.call('POST', '', tenantRequest('wiki_editor'));
    expect(created.status).toBe(200);
    const r = created.body;
    expect(r).toEqual({
      id: expect.any(String),
      type: 'access_request',
      requesting_user_id: 'alice',
      access_request_details: { tenant: 'acme', resource: null, resource_instance: null, role: 'wiki_editor' },
      reason: 'I need it',
      org_id: expect.any(String),
      project_id: expect.any(String),
      env_id: w.envId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      status: 'pending',
      granted_role: null,
      reviewer_user_id: null,
      reviewed_at: null,
      reviewer_comment: null,
      access_expires_at: null,
    });
    expect(await allowed('alice', 'read', 'wiki', 'page')).toBe(false);
    expect((await bob.call('GET', '')).body.data.map((x: any) => x.id)).toContain(r.id);
    expect((await bob.call('GET', `/${r.id}`)).body).toEqual(r);
    // An instance reviewer does not review a tenant-wide request; neither does a LEVEL_3 user.
    expectError(await carol.call('GET', `/${r.id}`), 404, 'NOT_FOUND');
    expectError(await lena.call('PUT', `/${r.id}/approve`, {}), 404, 'NOT_FOUND');
    expectError(await alice.call('PUT', `/${r.id}/approve`, {}), 403, 'FORBIDDEN_ACCESS');

    const approved = await bob.call('PUT', `/${r.id}/approve`, { reviewer_comment: 'read only', role: 'wiki_viewer' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      granted_role: 'wiki_viewer',
      reviewer_user_id: 'bob',
      reviewer_comment: 'read only',
      access_request_details: { role: 'wiki_editor' },
    });
    expect(await allowed('alice', 'read', 'wiki', 'page')).toBe(true);
    expect(await allowed('alice', 'write', 'wiki', 'page')).toBe(false);
    expectError(await bob.call('PUT', `/${r.id}/deny`, {}), 409, 'INVALID_STATE');
    expectError(await alice.call('PUT', `/${r.id}/cancel`, {}), 409, 'INVALID_STATE');
  });

  it('requests a role on an instance; an instance reviewer approves it with the requested role', async () => {
    const r = (await alice.call('POST', '', instanceRequest('owner'))).body;
    expect(r.access_request_details).toEqual({ tenant: 'acme', resource: 'doc', resource_instance: 'report', role: 'owner' });
    expect(await allowed('alice', 'read', 'doc', 'report')).toBe(false);
    expect((await carol.call('GET', '')).body.data.map((x: any) => x.id)).toContain(r.id);
    const approved = await carol.call('PUT', `/${r.id}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'approved', granted_role: 'owner', reviewer_user_id: 'carol' });
    expect(await allowed('alice', 'read', 'doc', 'report')).toBe(true);
    expect(await allowed('alice', 'read', 'doc', 'memo')).toBe(false);
  });

  it('denies and cancels without granting; the status filter and paging follow the approvals', async () => {
    const denied = (await alice.call('POST', '', instanceRequest('owner', 'memo'))).body;
    const canceled = (await alice.call('POST', '', instanceRequest('owner', 'notes'))).body;
    const pending = (await carol.call('POST', '', tenantRequest('wiki_viewer'))).body;
    expect((await bob.call('PUT', `/${denied.id}/deny`, { reviewer_comment: 'no' })).body).toMatchObject({
      status: 'denied',
      granted_role: null,
    });
    expectError(await bob.call('PUT', `/${canceled.id}/cancel`, {}), 403, 'FORBIDDEN_ACCESS');
    expect((await alice.call('PUT', `/${canceled.id}/cancel`, { reason: 'not needed' })).body).toMatchObject({
      status: 'canceled',
      reason: 'I own it',
    });
    expect(await allowed('alice', 'read', 'doc', 'memo')).toBe(false);
    expect(await allowed('alice', 'read', 'doc', 'notes')).toBe(false);

    const ids = async (c: Client, headers: Record<string, string>) =>
      (await c.call('GET', '', undefined, headers)).body.data.map((x: any) => x.id);
    expect(await ids(bob, { status: 'denied' })).toEqual([denied.id]);
    expect(await ids(bob, { status: 'canceled' })).toEqual([canceled.id]);
    expect(await ids(bob, { status: 'pending' })).toEqual([pending.id]);
    expect(await ids(alice, { status: 'pending' })).toEqual([]);
    const page = await bob.call('GET', '?per_page=2&page=2');
    expect(page.body).toMatchObject({ total_count: 5, page_count: 3 });
    expect(page.body.data).toHaveLength(2);
    expectError(await bob.call('GET', '', undefined, { status: 'deny' }), 422, 'INVALID_INPUT');
  });

  it('lets exactly one of concurrent transitions win', async () => {
    await assignTenantRole(w, 'lena', 'approver', 'acme');
    const lenaReviewer = await login(w, 'lena');
    const r = (await alice.call('POST', '', tenantRequest('wiki_editor'))).body;
    const results = await Promise.all([
      bob.call('PUT', `/${r.id}/approve`, {}),
      lenaReviewer.call('PUT', `/${r.id}/deny`, {}),
      alice.call('PUT', `/${r.id}/cancel`, {}),
    ]);
    expect(results.filter((x) => x.status === 200)).toHaveLength(1);
    for (const x of results.filter((y) => y.status !== 200)) expectError(x, 409, 'INVALID_STATE');
  });

  it('refuses bad requests with the errors of docs/behaviour.md section 1 and writes nothing', async () => {
    const before = (await bob.call('GET', '')).body.total_count;
    expectError(await alice.call('POST', '', tenantRequest('nope')), 422, 'INVALID_INPUT');
    expectError(await alice.call('POST', '', tenantRequest('owner')), 422, 'INVALID_INPUT');
    expectError(
      await alice.call('POST', '', { access_request_details: { tenant: 'acme', resource: 'doc', role: 'owner' }, reason: 'x' }),
      422,
      'INVALID_INPUT',
    );
    expectError(await alice.call('POST', '', instanceRequest('owner', 'missing')), 404, 'NOT_FOUND');
    expectError(await alice.call('POST', '', instanceRequest('owner', 'elsewhere')), 404, 'NOT_FOUND');
    expectError(
      await alice.call('POST', '', { access_request_details: { tenant: 'other', role: 'wiki_viewer' }, reason: 'x' }),
      403,
      'FORBIDDEN_ACCESS',
    );
    expectError(await alice.call('POST', '', { access_request_details: { tenant: 'acme' }, reason: 'x' }), 422, 'INVALID_INPUT');
    expect((await bob.call('GET', '')).body.total_count).toBe(before);

    const r = (await alice.call('POST', '', tenantRequest('wiki_viewer'))).body;
    expectError(await bob.call('PUT', `/${r.id}/approve`, { role: 'owner' }), 422, 'INVALID_INPUT');
    expect((await bob.call('GET', `/${r.id}`)).body.status).toBe('pending');
  });

  it('does not approve a request whose instance was deleted meanwhile (no tenant-wide grant); it can still be denied', async () => {
    await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key: 'gone', resource: 'doc', tenant: 'acme' });
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'nina' });
    const nina = await login(w, 'nina');
    // A tenant role asked for on one instance, and a resource role: both would fall back to the tenant.
    const tenantRole = (await nina.call('POST', '', instanceRequest('wiki_viewer', 'gone'))).body;
    const resourceRole = (await nina.call('POST', '', instanceRequest('owner', 'gone'))).body;
    expect((await w.t.call('DELETE', `${w.facts}/resource_instances/doc:gone`)).status).toBe(204);
    for (const r of [tenantRole, resourceRole]) {
      const res = await bob.call('PUT', `/${r.id}/approve`, {});
      expectError(res, 409, 'INVALID_STATE');
      expect(res.body.message).toContain('doc:gone');
      expect((await bob.call('GET', `/${r.id}`)).body).toMatchObject({ status: 'pending', granted_role: null });
    }
    expect(await allowed('nina', 'read', 'wiki', 'page')).toBe(false);
    expect(await allowed('nina', 'read', 'doc', 'memo')).toBe(false);
    expect((await bob.call('PUT', `/${tenantRole.id}/deny`, {})).body).toMatchObject({ status: 'denied', granted_role: null });
    expect((await nina.call('PUT', `/${resourceRole.id}/cancel`, {})).body).toMatchObject({ status: 'canceled' });
  });

  it('does not grant a requested role deleted meanwhile; the reviewer may deny it or grant another role', async () => {
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'temp_viewer', name: 'Temp', permissions: ['wiki:read'] });
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'olga' });
    const olga = await login(w, 'olga');
    const r = (await olga.call('POST', '', tenantRequest('temp_viewer'))).body;
    expect((await w.t.call('DELETE', `${w.schema}/roles/temp_viewer`)).status).toBe(204);
    const res = await bob.call('PUT', `/${r.id}/approve`, {});
    expectError(res, 409, 'INVALID_STATE');
    expect(res.body.message).toContain('temp_viewer');
    expect((await bob.call('GET', `/${r.id}`)).body).toMatchObject({ status: 'pending', granted_role: null });
    // No grant of the deleted key was written: a role made again under that key gives olga nothing.
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'temp_viewer', name: 'Temp again', permissions: ['wiki:read'] });
    expect(await allowed('olga', 'read', 'wiki', 'page')).toBe(false);
    expect((await bob.call('PUT', `/${r.id}/approve`, { role: 'wiki_viewer' })).body).toMatchObject({
      status: 'approved',
      granted_role: 'wiki_viewer',
    });
    expect(await allowed('olga', 'read', 'wiki', 'page')).toBe(true);
  });

  // The race of the test above: a role deleted after the reviewer's check, before or while the
  // approval's transaction writes the grant. The statement is run as the approval would run it.
  const transition = (id: string, grantRole: string) => ({
    env: w.envId,
    config: w.configId,
    tenant: 'acme',
    id,
    status: 'approved',
    reviewer: 'bob',
    comment: null,
    setComment: false,
    cancelReason: null,
    nowIso: new Date().toISOString(),
    grantRole,
    expiresAt: null,
    expiresAtMs: null,
  });

  it("writes no grant of a role deleted after the reviewer's check", async () => {
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'race_viewer', name: 'Race', permissions: ['wiki:read'] });
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'pia' });
    const r = (await (await login(w, 'pia')).call('POST', '', tenantRequest('race_viewer'))).body;
    expect((await w.t.call('DELETE', `${w.schema}/roles/race_viewer`)).status).toBe(204);
    const db = w.t.service.db;
    const row = await db.write(async (tx) => (await tx.rows(db.statement('approvals/transition'), transition(r.id, 'race_viewer')))[0]);
    expect({ won: row.won, roleGone: row.roleGone, status: (row.approval as any).status ?? null }).toEqual({
      won: false,
      roleGone: true,
      status: null,
    });
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'race_viewer', name: 'Race again', permissions: ['wiki:read'] });
    expect(await allowed('pia', 'read', 'wiki', 'page')).toBe(false);
  });

  it('removes a grant written while the role was being deleted', async () => {
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'race_editor', name: 'Race', permissions: ['wiki:read'] });
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'quinn' });
    const r = (await (await login(w, 'quinn')).call('POST', '', tenantRequest('race_editor'))).body;
    // The approval's transaction, held open after its write; the deletion starts meanwhile.
    const s = w.t.service.driver.session();
    const tx = s.beginTransaction();
    let deleted: Promise<{ status: number }> | undefined;
    try {
      const res = await tx.run(w.t.service.db.statement('approvals/transition').text, transition(r.id, 'race_editor'));
      expect(res.records[0].get('won')).toBe(true);
      deleted = w.t.call('DELETE', `${w.schema}/roles/race_editor`);
      // Commit once the deletion waits for the role's lock (or after 5 s: without the lock it has answered by then).
      await untilBlocked(w.t.service.driver, 'HAS_TENANT_ROLE {role: t.key}');
      await tx.commit();
    } finally {
      await s.close();
    }
    expect((await deleted!).status).toBe(204);
    // The deletion saw the committed grant and removed it: the key made again gives quinn nothing.
    await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'race_editor', name: 'Race again', permissions: ['wiki:read'] });
    expect(await allowed('quinn', 'read', 'wiki', 'page')).toBe(false);
  });

  it('runs only on access request configs, and approvals only on approval configs', async () => {
    const ops = await ok(w.t, 'GET', `/v2/elements/${w.t.proj}/${w.t.env}/config/ops`);
    const onOps = `/v2/elements/${w.t.proj}/${w.t.env}/config/${ops.id}/access_requests`;
    expectError(await alice.call('GET', onOps, undefined, { element_id: ops.id }), 422, 'INVALID_INPUT');
    expectError(await alice.call('GET', base.replace(/access_requests$/, 'operation_approval')), 422, 'INVALID_INPUT');
  });
});
