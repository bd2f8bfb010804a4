import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 14, the requests Permit's SDKs send: `users/{user}/roles`, filters sent as
 * null, a resource named by `id`, unknown fields in decision requests, and the login step's
 * answer without `content`.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;
const ok = (method: string, path: string, body?: unknown, status = 200) => t.ok(method, path, body, status);
/** As the SDKs call the PDP paths: with the environment key. */
const pdp = (path: string, body: unknown) => t.call('POST', path, body, { key: t.envKey });

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {}, write: {} },
    roles: { editor: { permissions: ['read', 'write'] } },
  });
  await ok('POST', `${schema()}/roles`, { key: 'writer', name: 'Writer', permissions: ['doc:write'] });
  await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
  for (const key of ['ana', 'bob']) await ok('POST', `${facts()}/users`, { key });
  await ok('POST', `${facts()}/resource_instances`, { key: 'readme', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'editor', resource_instance: 'doc:readme', tenant: 'acme' });
});
afterAll(async () => t?.close());

const canWrite = async (user: string) =>
  (await ok('POST', allowed(), { user, action: 'write', resource: { type: 'doc', tenant: 'acme' } })).allow;

describe("users/{user}/roles (Permit's users.assign_role / unassign_role)", () => {
  it('POST assigns the role (the assignment record), DELETE removes it (204), a second DELETE is 404', async () => {
    const a = await ok('POST', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme' });
    expect(a).toEqual(
      expect.objectContaining({ user: 'ana', role: 'writer', tenant: 'acme', id: expect.any(String), created_at: expect.any(String) }),
    );
    expect(await canWrite('ana')).toBe(true);
    const listed = await ok('GET', `${facts()}/role_assignments?user=ana`);
    expect((Array.isArray(listed) ? listed : listed.data).map((x: any) => x.role)).toEqual(['writer']);
    expect((await t.call('POST', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme' })).status).toBe(409);

    await ok('DELETE', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme' }, 204);
    expect(await canWrite('ana')).toBe(false);
    expect((await t.call('DELETE', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme' })).body.error_code).toBe('NOT_FOUND');
  });

  it('takes a resource instance; the user in the path, not in the body', async () => {
    const a = await ok('POST', `${facts()}/users/ana/roles`, { role: 'editor', tenant: 'acme', resource_instance: 'doc:readme' });
    expect(a).toEqual(expect.objectContaining({ user: 'ana', role: 'editor', resource_instance: 'doc:readme' }));
    expect(
      (await ok('POST', allowed(), { user: 'ana', action: 'write', resource: { type: 'doc', key: 'readme', tenant: 'acme' } })).allow,
    ).toBe(true);
    await ok('DELETE', `${facts()}/users/ana/roles`, { role: 'editor', tenant: 'acme', resource_instance: 'doc:readme' }, 204);
    expect((await t.call('POST', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme', user: 'bob' })).status).toBe(422);
    expect((await t.call('POST', `${facts()}/users/ana/roles`, { tenant: 'acme' })).status).toBe(422);
  });
});

describe("decision requests take what Permit's PDP takes", () => {
  it('user-permissions: filters sent as null mean not sent (the Python SDK sends them so)', async () => {
    const nulls = { user: { key: 'bob' }, tenants: null, resources: null, resource_types: null };
    const plain = await pdp('/user-permissions', { user: { key: 'bob' } });
    expect(plain.status).toBe(200);
    expect(plain.body['doc:readme']).toEqual(expect.objectContaining({ roles: ['editor'] }));
    const withNulls = await pdp('/user-permissions', nulls);
    expect(withNulls.status).toBe(200);
    expect(withNulls.body).toEqual(plain.body);
    expect(await ok('POST', `${allowed()}/user-permissions`, nulls)).toEqual(plain.body);
  });

  it("a resource named by id (as Permit's SDKs may send it) is the instance of that key", async () => {
    const byId = { user: 'bob', action: 'write', resource: { type: 'doc', id: 'readme', tenant: 'acme' } };
    expect((await pdp('/allowed', byId)).body.allow).toBe(true);
    expect((await pdp('/allowed', { ...byId, user: 'ana' })).body.allow).toBe(false);
    expect(
      (await pdp('/allowed/bulk', [byId, { ...byId, resource: { type: 'doc', id: 'other', tenant: 'acme' } }])).body.allow.map(
        (a: any) => a.allow,
      ),
    ).toEqual([true, false]);
    const users = await pdp('/authorized_users', { action: 'write', resource: { type: 'doc', id: 'readme', tenant: 'acme' } });
    expect(users.body).toEqual(expect.objectContaining({ resource: 'doc:readme' }));
    expect(Object.keys(users.body.users)).toEqual(['bob']);
  });

  it('unknown fields are ignored, not refused; null context and attributes are accepted', async () => {
    const q = {
      user: { key: 'bob', firstName: 'Bob', roles: [] },
      action: 'write',
      resource: { type: 'doc', key: 'readme', tenant: 'acme', attributes: null, context: null, urn: 'x' },
      context: null,
      sdk: 'python',
      some_future_field: { x: 1 },
    };
    const one = await pdp('/allowed', q);
    expect({ status: one.status, allow: one.body.allow }).toEqual({ status: 200, allow: true });
    expect((await ok('POST', allowed(), q)).allow).toBe(true);
    expect((await pdp('/allowed/bulk', [q])).body.allow[0].allow).toBe(true);
    expect((await pdp('/user-permissions', { user: { key: 'bob' }, context: {}, extra: true })).status).toBe(200);
    expect((await pdp('/authorized_users', { action: 'write', resource: q.resource, context: {}, extra: true })).status).toBe(200);
    // The fields we know keep their rules.
    expect((await pdp('/allowed', { ...q, action: 7 })).status).toBe(422);
    expect((await pdp('/allowed', { ...q, resource: { key: 'readme' } })).status).toBe(422);
  });
});

describe('login step', () => {
  it("answers Permit's fields and ours, without `content` (the SDKs build it; the Python SDK fails on it)", async () => {
    await ok('POST', `${facts()}/users/ana/roles`, { role: 'writer', tenant: 'acme' });
    const res = await t.call('POST', '/v2/auth/elements_login_as', { user_id: 'ana', tenant_id: 'acme' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        redirect_url: expect.any(String),
        token: expect.any(String),
        element_bearer_token: res.body.token,
        user_id: 'ana',
        tenant_id: 'acme',
      }),
    );
    expect(res.body).not.toHaveProperty('content');
  });
});
