import { startTestService, type TestService } from '../support/testService';
import { buildWorld, expectError, login, ok, request, type World } from './approvals-support';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
});
afterAll(async () => w?.t.close());

const loginAs = (body: unknown, key: string | null = w.t.envKey, query = '') =>
  w.t.call('POST', `/v2/auth/elements_login_as${query}`, body, { key });

describe('login step', () => {
  it('answers the tokens and sets an HttpOnly session cookie; aliases userId/tenant are accepted', async () => {
    const res = await loginAs({ userId: 'alice', tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      redirect_url: expect.stringContaining('/v2/auth/login_by_token?code='),
      token: expect.stringMatching(/^els_/),
      element_bearer_token: res.body.token,
    });
    expect(res.body).not.toHaveProperty('content');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^authz_session=${res.body.token}; Path=/v2; Max-Age=86400; HttpOnly; SameSite=Lax$`));
    // The redirect (a one-time code, never the token) sets a session cookie; the bearer form of the token works too.
    expect(res.body.redirect_url).not.toContain(res.body.token);
    const redirected = await w.t.call('GET', new URL(res.body.redirect_url).pathname + new URL(res.body.redirect_url).search, undefined, {
      key: null,
    });
    expect(redirected.status).toBe(200);
    expect(redirected.headers.get('set-cookie')).toMatch(/^authz_session=els_[^;]+; Path=\/v2; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const viaBearer = await w.t.call('GET', w.base, undefined, { key: res.body.element_bearer_token, headers: { element_id: w.configId } });
    expect(viaBearer.status).toBe(200);
  });

  it('stores only the digest of the session token', async () => {
    const res = await loginAs({ user_id: 'carol', tenant_id: 'acme' });
    const s = w.t.service.driver.session();
    try {
      const r = await s.run('MATCH (x:Session {env: $env, user: "carol"}) RETURN properties(x) AS p', { env: w.envId });
      expect(JSON.stringify(r.records.map((x) => x.get('p')))).not.toContain(res.body.token);
      expect(r.records[0].get('p')).toMatchObject({ tenant: 'acme', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    } finally {
      await s.close();
    }
  });

  it('refuses a user outside the tenant (USER_NOT_FOUND) and an unknown tenant (TENANT_NOT_FOUND)', async () => {
    expectError(await loginAs({ user_id: 'outsider', tenant_id: 'acme' }), 404, 'USER_NOT_FOUND');
    expectError(await loginAs({ user_id: 'ghost', tenant_id: 'acme' }), 404, 'USER_NOT_FOUND');
    expectError(await loginAs({ user_id: 'alice', tenant_id: 'nowhere' }), 404, 'TENANT_NOT_FOUND');
  });

  it('marks the cookie Secure when COOKIE_SECURE=true', async () => {
    process.env.COOKIE_SECURE = 'true';
    const other = await startTestService().finally(() => delete process.env.COOKIE_SECURE);
    try {
      await other.call('POST', `/v2/facts/${other.proj}/${other.env}/tenants`, { key: 'acme', name: 'Acme' });
      await other.call('POST', `/v2/facts/${other.proj}/${other.env}/tenants/acme/users`, { key: 'alice' });
      const res = await other.call('POST', '/v2/auth/elements_login_as', { user_id: 'alice', tenant_id: 'acme' }, { key: other.envKey });
      expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await other.close();
    }
  });

  it('takes the admin key with ?proj_id=&env_id=, and says what is missing without them', async () => {
    expectError(await loginAs({ user_id: 'alice', tenant_id: 'acme' }, w.t.adminKey), 403, 'FORBIDDEN_ACCESS');
    const res = await loginAs({ user_id: 'alice', tenant_id: 'acme' }, w.t.adminKey, `?proj_id=${w.t.proj}&env_id=${w.t.env}`);
    expect(res.status).toBe(200);
    expectError(await loginAs({ user_id: 'alice', tenant_id: 'acme' }, null), 401, 'UNAUTHORIZED');
  });

  it('rejects malformed bodies without a 500', async () => {
    expectError(await loginAs({ tenant_id: 'acme' }), 422, 'INVALID_INPUT');
    expectError(await loginAs({ user_id: 'alice', tenant_id: 'acme', extra: 1 }), 422, 'INVALID_INPUT');
    expectError(
      await w.t.call('POST', '/v2/auth/elements_login_as', undefined, { key: w.t.envKey, raw: '{"user_id":' }),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('session checks', () => {
  it('answers 401 after logout', async () => {
    const alice = await login(w, 'alice');
    expect((await alice.call('GET', '')).status).toBe(200);
    const out = await alice.call('POST', '/v2/auth/logout');
    expect(out.status).toBe(204);
    expectError(await alice.call('GET', ''), 401, 'UNAUTHORIZED');
    expectError(await alice.call('POST', '/v2/auth/logout'), 401, 'UNAUTHORIZED');
  });

  it('answers 401 once the session has expired', async () => {
    const alice = await login(w, 'alice');
    const s = w.t.service.driver.session();
    try {
      await s.run('MATCH (x:Session {env: $env, user: "alice"}) SET x.expires_at = "2000-01-01T00:00:00.000Z"', { env: w.envId });
    } finally {
      await s.close();
    }
    expectError(await alice.call('GET', ''), 401, 'UNAUTHORIZED');
  });

  it('answers 401 when the user has left the tenant since the login', async () => {
    const carol = await login(w, 'carol');
    await ok(w.t, 'DELETE', `${w.facts}/tenants/acme/users/carol`, undefined, 204);
    expectError(await carol.call('GET', ''), 401, 'UNAUTHORIZED');
    await ok(w.t, 'POST', `${w.facts}/tenants/acme/users`, { key: 'carol' });
  });

  it('answers 401 without a session or with an unknown one', async () => {
    expectError(await w.t.call('GET', w.base, undefined, { key: null, headers: { element_id: w.configId } }), 401, 'UNAUTHORIZED');
    expectError(
      await w.t.call('GET', w.base, undefined, {
        key: null,
        headers: { element_id: w.configId, cookie: 'authz_session=els_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      }),
      401,
      'UNAUTHORIZED',
    );
    // An API key is not a session.
    expectError(await w.t.call('GET', w.base, undefined, { key: w.t.envKey, headers: { element_id: w.configId } }), 401, 'UNAUTHORIZED');
  });

  it('answers 403 for a missing or mismatching element_id', async () => {
    const alice = await login(w, 'alice');
    expectError(await alice.call('GET', '', undefined, { element_id: 'another' }), 403, 'FORBIDDEN_ACCESS');
    const noHeader = await w.t.call('GET', w.base, undefined, { key: null, headers: { cookie: alice.cookie } });
    expectError(noHeader, 403, 'FORBIDDEN_ACCESS');
    // The config key names the same config as its id.
    expect((await alice.call('GET', '', undefined, { element_id: 'ops' })).status).toBe(200);
  });

  it('answers 403 for a session of another environment', async () => {
    const alice = await login(w, 'alice');
    const other: TestService = await startTestService();
    try {
      const path = `/v2/elements/${other.proj}/${other.env}/config/${w.configId}/operation_approval`;
      expectError(await alice.call('GET', path), 403, 'FORBIDDEN_ACCESS');
      expectError(await alice.call('POST', path, request()), 403, 'FORBIDDEN_ACCESS');
    } finally {
      await other.close();
    }
  });

  it('rejects bad approval input with 4xx, never 500', async () => {
    const alice = await login(w, 'alice');
    expectError(await alice.call('POST', '', { ...request(), extra: true }), 422, 'INVALID_INPUT');
    expectError(await alice.call('POST', '', { reason: 'no details' }), 422, 'INVALID_INPUT');
    expectError(
      await w.t.call('POST', w.base, undefined, { key: null, raw: '{oops', headers: { cookie: alice.cookie, element_id: w.configId } }),
      400,
      'INVALID_INPUT',
    );
    expectError(await alice.call('GET', '/not-an-approval'), 404, 'NOT_FOUND');
    expectError(await alice.call('GET', '', undefined, { status: 'weird' }), 422, 'INVALID_INPUT');
    expectError(await alice.call('GET', '', undefined, { per_page: 'many' }), 422, 'INVALID_INPUT');
    const unknownConfig = `/v2/elements/${w.t.proj}/${w.t.env}/config/nope/operation_approval`;
    expectError(await alice.call('GET', unknownConfig, undefined, { element_id: 'nope' }), 404, 'NOT_FOUND');
    const a = (await alice.call('POST', '', request())).body;
    expectError(await alice.call('PUT', `/${a.id}/cancel`, { reason: 5 }), 422, 'INVALID_INPUT');
    expect((await ok(w.t, 'GET', `/v2/openapi.json`)).paths).toBeDefined();
  });
});
