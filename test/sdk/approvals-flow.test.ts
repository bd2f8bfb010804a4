import { startTestService, type TestService } from '../support/testService';
import { type Approvals, AuthzClient, ConflictError, ForbiddenError, type LoginResult, NotFoundError, UnauthorizedError } from './sdk';

/**
 * The seed's operation approval flow through the client library: the backend logs users in
 * with `elements.loginAs`, and each user works on approvals with their session.
 */
let t: TestService;
let authz: AuthzClient;
let configId: string;
let alice: Approvals;
let bob: Approvals;
let aliceLogin: LoginResult;

const operate = (user: string, instance: string) => authz.check(user, 'operate', { type: 'doc', key: instance, tenant: 'acme' });
const request = (resource = 'doc', resource_instance?: string) => ({
  access_request_details: { tenant: 'acme', resource, ...(resource_instance ? { resource_instance } : {}) },
  reason: 'I need to operate it',
});

beforeAll(async () => {
  t = await startTestService();
  authz = new AuthzClient({ baseUrl: t.url, token: t.envKey });
  await authz.api.resources.create({ key: 'doc', name: 'Doc', actions: { read: {} } });
  await authz.api.resources.create({ key: 'file', name: 'File', actions: {} });
  await authz.api.roles.create({ key: 'approver', name: 'Approver', permissions: ['doc:read'] });
  await authz.api.tenants.create({ key: 'acme', name: 'Acme' });
  await authz.api.tenants.create({ key: 'other', name: 'Other' });
  await authz.api.users.create({ key: 'alice', email: 'alice@acme.test', first_name: 'Alice', last_name: 'Liddell' });
  await authz.api.tenants.addTenantUser('acme', { key: 'alice' });
  await authz.api.tenants.addTenantUser('acme', { key: 'carol' });
  await authz.api.tenants.addTenantUser('acme', { key: 'bob' });
  await authz.api.tenants.addTenantUser('other', { key: 'outsider' });
  await authz.api.roleAssignments.assign({ user: 'bob', role: 'approver', tenant: 'acme' });
  // An approval names only an existing instance of the session's tenant (docs/behaviour.md section 15).
  await authz.api.resourceInstances.create({ key: 'report-1', tenant: 'acme', resource: 'doc' });
  const config = await authz.elements.configs.create({
    key: 'ops',
    name: 'Ops approvals',
    elements_type: 'operation_approval',
    settings: { resources: ['doc', 'file'] },
    roles_to_levels: { LEVEL_1: ['approver'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  configId = config.id;
  aliceLogin = await authz.elements.loginAs({ userId: 'alice', tenant: 'acme' });
  alice = authz.approvals(aliceLogin, configId);
  bob = authz.approvals((await authz.elements.loginAs({ userId: 'bob', tenant: 'acme' })).cookie, configId);
});
afterAll(async () => t?.close());

describe('loginAs', () => {
  it('answers the session cookie to forward, and the login fields', async () => {
    expect(aliceLogin.cookie).toMatch(/^authz_session=[^;]+$/);
    expect(aliceLogin.setCookie).toMatch(/^authz_session=[^;]+;.*HttpOnly/i);
    expect(aliceLogin).toMatchObject({
      token: expect.any(String),
      element_bearer_token: aliceLogin.token,
      redirect_url: expect.stringContaining(t.url),
      user_id: 'alice',
      tenant_id: 'acme',
    });
  });

  it('refuses a user outside the tenant (404 USER_NOT_FOUND) and an unknown tenant (404 TENANT_NOT_FOUND)', async () => {
    const outsider = await authz.elements.loginAs({ userId: 'outsider', tenant: 'acme' }).catch((e: unknown) => e);
    expect(outsider).toBeInstanceOf(NotFoundError);
    expect(outsider).toMatchObject({ status: 404, errorCode: 'USER_NOT_FOUND' });
    await expect(authz.elements.loginAs({ userId: 'alice', tenant: 'nowhere' })).rejects.toMatchObject({ errorCode: 'TENANT_NOT_FOUND' });
  });

  it('works with the admin key and an explicit project/env', async () => {
    const admin = new AuthzClient({ baseUrl: t.url, token: t.adminKey, project: t.proj, env: t.env });
    const login = await admin.elements.loginAs({ userId: 'carol', tenant: 'acme' });
    const carol = admin.approvals(login, 'ops');
    expect((await carol.list()).data).toEqual([]);
  });

  it('logout ends the session: a later call answers 401', async () => {
    const login = await authz.elements.loginAs({ userId: 'carol', tenant: 'acme' });
    const carol = authz.approvals(login, configId);
    await carol.list();
    await authz.elements.logout(login);
    const after = await carol.list().catch((e: unknown) => e);
    expect(after).toBeInstanceOf(UnauthorizedError);
    expect(after).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
  });

  it('answers NotFoundError for an unknown elements config', async () => {
    const wrong = authz.approvals(aliceLogin, '00000000-0000-4000-8000-000000000000');
    await expect(wrong.list()).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the approval flow', () => {
  it('requests, lists, reads, comments and approves; the requester may then operate', async () => {
    const a = await alice.create(request());
    expect(a).toMatchObject({
      type: 'operation_approval',
      requesting_user_id: 'alice',
      status: null,
      reviewer_user_id: null,
      reviewed_at: null,
      reviewer_comment: null,
      reason: 'I need to operate it',
      access_request_details: { tenant: 'acme', resource: 'doc' },
    });
    const instance = a.access_request_details.resource_instance;
    expect(instance).toEqual(expect.any(String));
    expect(await operate('alice', instance)).toBe(false);

    const item = (await bob.list({ status: 'pending' })).data.find((x) => x.id === a.id);
    expect(item).toEqual({
      ...a,
      requesting_user_email: 'alice@acme.test',
      requesting_user_first_name: 'Alice',
      requesting_user_last_name: 'Liddell',
      resource_key: 'doc',
      resource_instance_key: instance,
    });
    expect(await bob.get(a.id)).toEqual(a);
    expect(await alice.get(a.id)).toEqual(a);

    expect(await bob.updateReviewer(a.id, 'looking')).toMatchObject({ status: null, reviewer_comment: 'looking', reviewer_user_id: null });
    const approved = await bob.approve(a.id, 'fine');
    expect(approved).toMatchObject({ status: 'approved', reviewer_user_id: 'bob', reviewer_comment: 'fine', reason: a.reason });
    expect(approved.reviewed_at).toEqual(expect.any(String));
    expect(await operate('alice', instance)).toBe(true);
    expect(await operate('carol', instance)).toBe(false);

    const again = await bob.deny(a.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
    expect((await bob.list({ status: 'approved' })).data.map((x) => x.id)).toContain(a.id);
  });

  it('denies without granting', async () => {
    const a = await alice.create(request('doc', 'report-1'));
    expect(a.access_request_details.resource_instance).toBe('report-1');
    const denied = await bob.deny(a.id);
    expect(denied).toMatchObject({ status: 'deny', reviewer_user_id: 'bob', reviewer_comment: null });
    expect(await operate('alice', 'report-1')).toBe(false);
    await expect(bob.approve(a.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('cancels by the requester, keeping the original reason and no reviewer fields', async () => {
    const a = await alice.create(request());
    await expect(bob.cancel(a.id, 'not mine')).rejects.toBeInstanceOf(ForbiddenError);
    const cancelled = await alice.cancel(a.id, 'changed my mind');
    expect(cancelled).toMatchObject({
      status: 'cancel',
      reason: 'I need to operate it',
      reviewer_user_id: null,
      reviewed_at: null,
      reviewer_comment: null,
    });
    await expect(bob.approve(a.id)).rejects.toMatchObject({ status: 409, errorCode: 'INVALID_STATE' });
  });

  it('pages through every approval with all(), sending the filters as headers', async () => {
    const mine = [];
    for (let i = 0; i < 7; i++) mine.push(await alice.create(request('file')));
    const seen = [];
    for await (const item of bob.all({ resource: 'file', per_page: 3 })) seen.push(item);
    expect(seen.map((x) => x.id).sort()).toEqual(mine.map((x) => x.id).sort());
    expect(seen.every((x) => x.resource_key === 'file')).toBe(true);

    const page = await bob.list({ resource: 'file', per_page: 3, page: 3 });
    expect(page).toMatchObject({ total_count: 7, page_count: 3 });
    expect(page.data).toHaveLength(1);
    expect((await bob.list({ resource_instance: mine[0].access_request_details.resource_instance })).data.map((x) => x.id)).toEqual([
      mine[0].id,
    ]);

    const defaults = [];
    for await (const item of alice.all()) defaults.push(item);
    expect(defaults.length).toBeGreaterThanOrEqual(7);
    expect(defaults.every((x) => x.requesting_user_id === 'alice')).toBe(true);
  });
});

describe('elements configs', () => {
  it('creates, reads, lists, updates and deletes a config', async () => {
    const made = await authz.elements.configs.create({
      key: 'cfg-2',
      name: 'Second',
      elements_type: 'operation_approval',
      settings: { resources: ['file'] },
      roles_to_levels: { LEVEL_2: ['approver'] },
    });
    expect(made).toMatchObject({ key: 'cfg-2', elements_type: 'operation_approval', settings: { resources: ['file'] } });
    // The create answer alone carries the webhook secret.
    const { webhook_secret, ...shown } = made;
    expect(webhook_secret).toEqual(expect.any(String));
    expect(await authz.elements.configs.get('cfg-2')).toEqual(shown);
    expect(await authz.elements.configs.get(made.id)).toEqual(shown);
    expect((await authz.elements.configs.list({ per_page: 100 })).data.map((c) => c.key).sort()).toEqual(['cfg-2', 'ops']);
    const renamed = await authz.elements.configs.update('cfg-2', { name: 'Renamed' });
    expect(renamed).toMatchObject({ id: made.id, name: 'Renamed' });
    await authz.elements.configs.delete('cfg-2');
    await expect(authz.elements.configs.get('cfg-2')).rejects.toBeInstanceOf(NotFoundError);
  });
});
