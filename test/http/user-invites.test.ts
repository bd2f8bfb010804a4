import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 25: user invites redeemed into a user with the invite's role (here a
 * tenant role, over HTTP: the pinned Python SDK's model requires an instance; it drives the
 * resource-role form), bad input and environment isolation. No mail is sent.
 */
let t: TestService;
let other: TestService;
let invites: string;
let ids: { role: string; tenant: string; doc: string; instance: string };

beforeAll(async () => {
  t = await startTestService();
  other = await startTestService();
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  invites = `${facts}/user_invites`;
  await t.ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {} },
    roles: { viewer: { name: 'V', permissions: ['read'] } },
  });
  const role = await t.ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  const tenant = await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  const doc = await t.ok('GET', `${schema}/resources/doc/roles/viewer`);
  const instance = await t.ok('POST', `${facts}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  ids = { role: role.id, tenant: tenant.id, doc: doc.id, instance: instance.id };
}, 120_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const allowed = async (user: string) =>
  (await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, { user, action: 'read', resource: { type: 'doc', key: 'd1', tenant: 'acme' } }))
    .allow;

it("an invite into a tenant role: redeemed, the user exists with the invite's fields and role; twice is a 409", async () => {
  const made = await t.ok('POST', invites, { key: 'kim', email: 'kim@x.io', first_name: 'Kim', role_id: ids.role, tenant_id: ids.tenant });
  expect(made).toEqual(expect.objectContaining({ key: 'kim', status: 'pending', resource_instance_id: null, role_id: ids.role }));
  expect((await t.ok('GET', invites)).data.map((i: any) => i.id)).toEqual([made.id]);
  expect((await t.call('GET', `/v2/facts/${t.proj}/${t.env}/users/kim`)).status).toBe(404);
  const user = await t.ok('POST', `${invites}/${made.id}/approve`, { email: 'KIM@x.io', key: 'kim', attributes: { level: 2 } });
  expect(user).toEqual(expect.objectContaining({ key: 'kim', email: 'kim@x.io', first_name: 'Kim', attributes: { level: 2 } }));
  expect(user.roles).toEqual([{ role: 'reader', tenant: 'acme' }]);
  expect((await t.ok('GET', `${invites}/${made.id}`)).status).toBe('approved');
  const again = await t.call('POST', `${invites}/${made.id}/approve`, { email: 'kim@x.io', key: 'kim', attributes: {} });
  expect([again.status, again.body.error_code]).toEqual([409, 'INVALID_STATE']);
});

it('bad input answers the error body, never a 500; a refused redemption writes nothing', async () => {
  const post = (body: Record<string, unknown>) => t.call('POST', invites, { key: 'x1', email: 'x1@x.io', ...body });
  const noRole = await post({ role_id: 'nope', tenant_id: ids.tenant });
  expect([noRole.status, noRole.body.details?.[0]?.path]).toEqual([422, '/body/role_id']);
  expect((await post({ role_id: ids.role, tenant_id: 'nope' })).status).toBe(422);
  // A resource role needs its instance; an instance of another tenant is refused.
  expect((await post({ role_id: ids.doc, tenant_id: ids.tenant })).status).toBe(422);
  expect((await post({ role_id: ids.doc, tenant_id: ids.tenant, resource_instance_id: ids.instance })).status).toBe(422);
  expect((await t.call('POST', invites, { key: 'x2', email: 'not-an-email', role_id: ids.role, tenant_id: ids.tenant })).status).toBe(422);
  const pending = await t.ok('POST', invites, { key: 'lou', email: 'lou@x.io', role_id: ids.role, tenant_id: ids.tenant });
  const wrong = await t.call('POST', `${invites}/${pending.id}/approve`, { email: 'eve@x.io', key: 'lou', attributes: {} });
  expect([wrong.status, wrong.body.details?.[0]?.path]).toEqual([422, '/body/email']);
  expect((await t.call('POST', `${invites}/${pending.id}/approve`, { email: 'lou@x.io', key: 'eve', attributes: {} })).status).toBe(422);
  expect((await t.ok('GET', `${invites}/${pending.id}`)).status).toBe('pending');
  expect(await allowed('lou')).toBe(false);
  expect((await t.call('GET', `${invites}/nope`)).status).toBe(404);
  expect((await t.call('POST', `${invites}/nope/approve`, { email: 'a@b.c', key: 'a' })).status).toBe(404);
  // The tenant role is gone before the redemption: refused (409), nothing written.
  await t.ok('DELETE', `/v2/schema/${t.proj}/${t.env}/roles/reader`, undefined, 204);
  const gone = await t.call('POST', `${invites}/${pending.id}/approve`, { email: 'lou@x.io', key: 'lou', attributes: {} });
  expect(gone.status).toBe(409);
  expect((await t.call('GET', `/v2/facts/${t.proj}/${t.env}/users/lou`)).status).toBe(404);
  expect((await t.ok('GET', `${invites}/${pending.id}`)).status).toBe('pending');
});

it("environments are apart: another environment sees none of this one's invites", async () => {
  const [first] = (await t.ok('GET', invites)).data;
  const elsewhere = `/v2/facts/${other.proj}/${other.env}/user_invites`;
  expect((await other.ok('GET', elsewhere)).total_count).toBe(0);
  expect((await other.call('GET', `${elsewhere}/${first.id}`)).status).toBe(404);
  expect((await other.call('DELETE', `${elsewhere}/${first.id}`)).status).toBe(404);
  await t.ok('DELETE', `${invites}/${first.id}`, undefined, 204);
  expect((await t.call('GET', `${invites}/${first.id}`)).status).toBe(404);
});
