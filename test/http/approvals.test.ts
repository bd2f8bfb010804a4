import { buildWorld, type Client, expectError, instances, login, ok, request, type World } from './approvals-support';

let w: World;
let alice: Client;
let bob: Client;
let carol: Client;

beforeAll(async () => {
  w = await buildWorld();
  await instances(w, 'doc', ['report-1', 'by-group', 'direct']);
  [alice, bob, carol] = await Promise.all([login(w, 'alice'), login(w, 'bob'), login(w, 'carol')]);
});
afterAll(async () => w?.t.close());

const allowedOperate = async (user: string, instance: string) =>
  (
    await ok(w.t, 'POST', `/v2/allowed/${w.t.proj}/${w.t.env}`, {
      user,
      action: 'operate',
      resource: { type: 'doc', key: instance, tenant: 'acme' },
    })
  ).allow;

describe('the seed flow', () => {
  it('requests, lists, reads, comments and approves; the requester may then operate', async () => {
    const created = await alice.call('POST', '', request());
    expect(created.status).toBe(200);
    const a = created.body;
    expect(a).toEqual({
      id: expect.any(String),
      type: 'operation_approval',
      requesting_user_id: 'alice',
      access_request_details: { tenant: 'acme', resource: 'doc', resource_instance: expect.any(String) },
      reason: 'I need to operate it',
      org_id: expect.any(String),
      project_id: expect.any(String),
      env_id: w.envId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      status: null,
      reviewer_user_id: null,
      reviewed_at: null,
      reviewer_comment: null,
      access_expires_at: null,
    });
    const instance = a.access_request_details.resource_instance;
    expect(await allowedOperate('alice', instance)).toBe(false);

    const list = await bob.call('GET', '');
    expect(list.status).toBe(200);
    const item = list.body.data.find((x: any) => x.id === a.id);
    expect(item).toEqual({
      ...a,
      requesting_user_email: 'alice@acme.test',
      requesting_user_first_name: 'Alice',
      requesting_user_last_name: 'Liddell',
      resource_key: 'doc',
      resource_instance_key: instance,
    });
    expect((await bob.call('GET', `/${a.id}`)).body).toEqual(a);

    const commented = await bob.call('PATCH', `/${a.id}/reviewer`, { reviewer_comment: 'looking' });
    expect(commented.body).toMatchObject({ status: null, reviewer_comment: 'looking', reviewer_user_id: null });

    const approved = await bob.call('PUT', `/${a.id}/approve`, { reviewer_comment: 'fine' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', reviewer_user_id: 'bob', reviewer_comment: 'fine', reason: a.reason });
    expect(Date.parse(approved.body.reviewed_at)).toBeGreaterThanOrEqual(Date.parse(a.created_at));
    expect(await allowedOperate('alice', instance)).toBe(true);
    expect(await allowedOperate('carol', instance)).toBe(false);

    expectError(await bob.call('PUT', `/${a.id}/deny`), 409, 'INVALID_STATE');
    expectError(await alice.call('PUT', `/${a.id}/cancel`, { reason: 'x' }), 409, 'INVALID_STATE');
    const later = await bob.call('PATCH', `/${a.id}/reviewer`, { reviewer_comment: 'done' });
    expect(later.body).toMatchObject({ status: 'approved', reviewer_comment: 'done' });
  });

  it('denies without granting, keeping the reviewer comment unset when none is sent', async () => {
    const a = (await alice.call('POST', '', request('doc', { resource_instance: 'report-1' }))).body;
    expect(a.access_request_details.resource_instance).toBe('report-1');
    const denied = await bob.call('PUT', `/${a.id}/deny`);
    expect(denied.body).toMatchObject({ status: 'deny', reviewer_user_id: 'bob', reviewer_comment: null });
    expect(denied.body.reviewed_at).toEqual(expect.any(String));
    expect(await allowedOperate('alice', 'report-1')).toBe(false);
    expectError(await bob.call('PUT', `/${a.id}/approve`), 409, 'INVALID_STATE');
  });

  it('cancels by the requester only, keeping the original reason and no reviewer fields', async () => {
    const a = (await alice.call('POST', '', request())).body;
    expectError(await bob.call('PUT', `/${a.id}/cancel`, { reason: 'not mine' }), 403, 'FORBIDDEN_ACCESS');
    expectError(await carol.call('PUT', `/${a.id}/cancel`, { reason: 'not mine' }), 404, 'NOT_FOUND');
    const cancelled = await alice.call('PUT', `/${a.id}/cancel`, { reason: 'changed my mind' });
    expect(cancelled.body).toMatchObject({
      status: 'cancel',
      reason: 'I need to operate it',
      reviewer_user_id: null,
      reviewed_at: null,
      reviewer_comment: null,
    });
    const s = w.t.service.driver.session();
    try {
      const r = await s.run('MATCH (a:OperationApproval {id: $id}) RETURN a.cancel_reason AS c, a._lock AS lock', { id: a.id });
      expect(r.records[0].toObject()).toEqual({ c: 'changed my mind', lock: null });
    } finally {
      await s.close();
    }
    expectError(await bob.call('PUT', `/${a.id}/approve`), 409, 'INVALID_STATE');
  });
});

describe('who may do what', () => {
  it('shows a non-reviewer only their own approvals, and hides the others (404)', async () => {
    const mine = (await carol.call('POST', '', request('file'))).body;
    const list = await carol.call('GET', '');
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((x: any) => x.requesting_user_id === 'carol')).toBe(true);
    expect(list.body.data.map((x: any) => x.id)).toContain(mine.id);
    const lena = await login(w, 'lena');
    const lenaList = await lena.call('GET', '');
    expect(lenaList.body).toEqual({ data: [], total_count: 0, page_count: 0 });
    const aliceOne = (await alice.call('POST', '', request())).body;
    expectError(await carol.call('GET', `/${aliceOne.id}`), 404, 'NOT_FOUND');
    expectError(await carol.call('PUT', `/${aliceOne.id}/approve`), 404, 'NOT_FOUND');
    expectError(await alice.call('PUT', `/${mine.id}/approve`), 404, 'NOT_FOUND');
    expect((await carol.call('GET', `/${mine.id}`)).body.id).toBe(mine.id);
  });

  it("forbids reviewing one's own request, and reviewer actions to a requester", async () => {
    const own = (await bob.call('POST', '', request())).body;
    expectError(await bob.call('PUT', `/${own.id}/approve`), 403, 'FORBIDDEN_ACCESS');
    expectError(await bob.call('PATCH', `/${own.id}/reviewer`, { reviewer_comment: 'me' }), 403, 'FORBIDDEN_ACCESS');
    const a = (await alice.call('POST', '', request())).body;
    expectError(await alice.call('PATCH', `/${a.id}/reviewer`, { reviewer_comment: 'x' }), 403, 'FORBIDDEN_ACCESS');
    expectError(await alice.call('PUT', `/${a.id}/approve`), 403, 'FORBIDDEN_ACCESS');
  });

  it('makes a reviewer of a user a set rule grants `review` (docs/behaviour.md section 17)', async () => {
    await ok(w.t, 'POST', `${w.schema}/resource_instances`, { key: 'by-rule', tenant: 'acme', resource: 'doc' });
    const a = (await alice.call('POST', '', request('doc', { resource_instance: 'by-rule' }))).body;
    expectError(await carol.call('GET', `/${a.id}`), 404, 'NOT_FOUND');
    expect((await carol.call('GET', '')).body.data.map((x: any) => x.id)).not.toContain(a.id);
    await ok(w.t, 'POST', `${w.schema}/condition_sets`, {
      key: 'carol-only',
      name: 'Carol',
      conditions: { 'user.key': { equals: 'carol' } },
    });
    await ok(w.t, 'POST', `${w.schema}/condition_sets`, {
      key: 'rule-docs',
      name: 'By rule',
      type: 'resourceset',
      resource_id: 'doc',
      conditions: { 'resource.key': { equals: 'by-rule' } },
    });
    await ok(w.t, 'POST', `${w.facts}/set_rules`, { user_set: 'carol-only', permission: 'doc:review', resource_set: 'rule-docs' });
    expect((await carol.call('GET', `/${a.id}`)).status).toBe(200);
    expect((await carol.call('GET', '')).body.data.map((x: any) => x.id)).toContain(a.id);
    expect((await carol.call('PUT', `/${a.id}/approve`)).body).toMatchObject({ status: 'approved', reviewer_user_id: 'carol' });
    await ok(w.t, 'DELETE', `${w.facts}/set_rules`, { user_set: 'carol-only', permission: 'doc:review', resource_set: 'rule-docs' }, 204);
  });

  it('makes a reviewer of a user allowed `review` on the instance through a group', async () => {
    const a = (await alice.call('POST', '', request('doc', { resource_instance: 'by-group' }))).body;
    const other = (await alice.call('POST', '', request())).body;
    const gina = await login(w, 'gina');
    expectError(await gina.call('GET', `/${a.id}`), 404, 'NOT_FOUND');
    await ok(w.t, 'POST', `${w.schema}/groups`, { group_instance_key: 'reviewers', group_tenant: 'acme' });
    await ok(w.t, 'POST', `${w.schema}/group/reviewers/roles`, {
      resource: 'doc',
      resource_instance: 'by-group',
      role: '_Reviewer_',
      tenant: 'acme',
    });
    await ok(w.t, 'PUT', `${w.schema}/groups/reviewers/users/gina`, { tenant: 'acme' });
    expect((await gina.call('GET', `/${a.id}`)).status).toBe(200);
    const list = (await gina.call('GET', '')).body;
    expect(list.data.map((x: any) => x.id)).toEqual([a.id]);
    expectError(await gina.call('GET', `/${other.id}`), 404, 'NOT_FOUND');
    const approved = await gina.call('PUT', `/${a.id}/approve`);
    expect(approved.body).toMatchObject({ status: 'approved', reviewer_user_id: 'gina' });
    expect(await allowedOperate('alice', 'by-group')).toBe(true);
  });

  it('stops making a reviewer of a user whose LEVEL role has expired, from its expires_at on', async () => {
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'tess' });
    const expiresAt = Math.ceil((Date.now() + 3000) / 1000) * 1000;
    await ok(w.t, 'POST', `${w.facts}/role_assignments`, {
      user: 'tess',
      role: 'approver',
      tenant: 'acme',
      expires_at: new Date(expiresAt).toISOString(),
    });
    const tess = await login(w, 'tess');
    const a = (await alice.call('POST', '', request())).body;
    expect((await tess.call('GET', `/${a.id}`)).status).toBe(200);
    await new Promise((ok) => setTimeout(ok, expiresAt - Date.now() + 50));
    // Before the sweep removes the edge, the expired role reviews nothing.
    expectError(await tess.call('GET', `/${a.id}`), 404, 'NOT_FOUND');
    expect((await tess.call('GET', '')).body.data.map((x: any) => x.id)).not.toContain(a.id);
    expectError(await tess.call('PUT', `/${a.id}/approve`), 404, 'NOT_FOUND');
    expect((await bob.call('GET', `/${a.id}`)).body.status).toBeNull();
  });

  it('makes a reviewer of a user holding _Reviewer_ on the instance directly', async () => {
    const a = (await alice.call('POST', '', request('doc', { resource_instance: 'direct' }))).body;
    await ok(w.t, 'POST', `${w.facts}/role_assignments`, {
      user: 'carol',
      role: '_Reviewer_',
      tenant: 'acme',
      resource_instance: 'doc:direct',
    });
    expect((await carol.call('GET', '')).body.data.map((x: any) => x.id)).toContain(a.id);
    const denied = await carol.call('PUT', `/${a.id}/deny`, { reviewer_comment: 'no' });
    expect(denied.body).toMatchObject({ status: 'deny', reviewer_user_id: 'carol', reviewer_comment: 'no' });
  });

  it('refuses a request for another tenant (403), an ungoverned resource (422) and a foreign instance (404)', async () => {
    expectError(
      await alice.call('POST', '', { ...request(), access_request_details: { tenant: 'other', resource: 'doc' } }),
      403,
      'FORBIDDEN_ACCESS',
    );
    await ok(w.t, 'POST', `${w.schema}/resources`, { key: 'ship', name: 'Ship', actions: {} });
    expectError(await alice.call('POST', '', request('ship')), 422, 'INVALID_INPUT');
    await ok(w.t, 'POST', `${w.schema}/resource_instances`, { key: 'theirs', tenant: 'other', resource: 'doc' });
    expectError(await alice.call('POST', '', request('doc', { resource_instance: 'theirs' })), 404, 'NOT_FOUND');
  });
});

describe('atomic transitions', () => {
  it('lets exactly one of 20 concurrent approve/deny/cancel calls win', async () => {
    for (let round = 0; round < 3; round++) {
      const a = (await alice.call('POST', '', request())).body;
      const instance = a.access_request_details.resource_instance;
      const calls = Array.from({ length: 20 }, (_, i) => {
        const kind = ['approve', 'deny', 'cancel'][(i + round) % 3];
        return (
          kind === 'cancel'
            ? alice.call('PUT', `/${a.id}/cancel`, { reason: `c${i}` })
            : bob.call('PUT', `/${a.id}/${kind}`, { reviewer_comment: `r${i}` })
        ).then((res) => ({ kind, i, res }));
      });
      const results = await Promise.all(calls);
      const winners = results.filter((r) => r.res.status === 200);
      expect(winners).toHaveLength(1);
      for (const r of results.filter((x) => x.res.status !== 200)) expectError(r.res, 409, 'INVALID_STATE');
      const win = winners[0];
      const stored = (await bob.call('GET', `/${a.id}`)).body;
      expect(stored).toEqual(win.res.body);
      const status = { approve: 'approved', deny: 'deny', cancel: 'cancel' }[win.kind];
      expect(stored.status).toBe(status);
      if (win.kind === 'cancel') expect(stored).toMatchObject({ reviewer_user_id: null, reviewed_at: null, reviewer_comment: null });
      else expect(stored).toMatchObject({ reviewer_user_id: 'bob', reviewer_comment: `r${win.i}` });
      expect(await allowedOperate('alice', instance)).toBe(win.kind === 'approve');
    }
  });
});
