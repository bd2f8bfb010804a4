import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 8: the login step's redirect_url carries a one-time code (60 s, one use,
 * stored hashed so any replica redeems it), never the session token; X-Forwarded-* count only
 * with TRUST_PROXY=true; the session cookie is HttpOnly, SameSite=Lax, and Secure over HTTPS.
 */
let t: TestService;
const login = (extra: Record<string, string> = {}, on: TestService = t) =>
  on.call('POST', '/v2/auth/elements_login_as', { user_id: 'alice', tenant_id: 'acme' }, { key: on.envKey, headers: extra });
const redeem = (url: string, on: TestService = t) => {
  const u = new URL(url);
  return on.call('GET', u.pathname + u.search, undefined, { key: null });
};

async function world(on: TestService) {
  await on.ok('POST', `/v2/facts/${on.proj}/${on.env}/tenants`, { key: 'acme', name: 'Acme' });
  await on.ok('POST', `/v2/facts/${on.proj}/${on.env}/tenants/acme/users`, { key: 'alice' });
}

beforeAll(async () => {
  t = await startTestService();
  await world(t);
}, 180_000);
afterAll(async () => t?.close());

it('redirect_url carries a code, not the token; the code sets a working session cookie once', async () => {
  const res = await login();
  expect(res.status).toBe(200);
  const url = new URL(res.body.redirect_url);
  expect(url.pathname).toBe('/v2/auth/login_by_token');
  expect(url.searchParams.get('code')).toMatch(/^elc_/);
  expect(res.body.redirect_url).not.toContain(res.body.token);
  // No `content`: Permit's SDKs add it themselves, and the Python SDK fails when it is already there.
  expect(res.body).not.toHaveProperty('content');

  const first = await redeem(res.body.redirect_url);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ user_id: 'alice', tenant_id: 'acme' });
  const cookie = first.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^authz_session=els_[A-Za-z0-9_-]+; Path=\/v2; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  // The cookie is a session of its own: it works, and it is not the backend's token.
  const token = /^authz_session=([^;]+)/.exec(cookie)![1];
  expect(token).not.toBe(res.body.token);
  const out = await t.call('POST', '/v2/auth/logout', undefined, { key: null, headers: { cookie: `authz_session=${token}` } });
  expect(out.status).toBe(204);

  const second = await redeem(res.body.redirect_url);
  expect({ status: second.status, code: second.body.error_code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  expect(second.headers.get('set-cookie')).toBeNull();
});

it('a logout ends every session of that login step: the backend token, the browser cookie, an unused code', async () => {
  const asked = (token: string) =>
    t.call('POST', '/v2/auth/logout', undefined, { key: null, headers: { authorization: `Bearer ${token}` } });
  // Logged out in the browser (the cookie its code opened): the backend's token is ended too.
  const a = await login();
  const browser = /^authz_session=([^;]+)/.exec((await redeem(a.body.redirect_url)).headers.get('set-cookie')!)![1];
  expect((await t.call('POST', '/v2/auth/logout', undefined, { key: null, headers: { cookie: `authz_session=${browser}` } })).status).toBe(
    204,
  );
  expect((await asked(a.body.element_bearer_token)).status).toBe(401);
  // Logged out with the token before the browser came: the code opens nothing afterwards.
  const b = await login();
  expect((await asked(b.body.element_bearer_token)).status).toBe(204);
  expect((await redeem(b.body.redirect_url)).status).toBe(401);
  // Another login of the same user is another login step: it stays.
  const c = await login();
  const d = await login();
  expect((await asked(c.body.element_bearer_token)).status).toBe(204);
  expect((await asked(d.body.element_bearer_token)).status).toBe(204);
});

it('a session token in the old ?token= form sets no cookie', async () => {
  const res = await login();
  const old = await t.call('GET', `/v2/auth/login_by_token?token=${res.body.token}`, undefined, { key: null });
  expect(old.status).toBe(422);
  expect(old.headers.get('set-cookie')).toBeNull();
  const asCode = await t.call('GET', `/v2/auth/login_by_token?code=${res.body.token}`, undefined, { key: null });
  expect(asCode.status).toBe(401);
});

it('an expired code answers 401', async () => {
  const res = await login();
  const s = t.service.driver.session();
  try {
    // 61 s later, as the graph sees it.
    await s.run('MATCH (c:LoginCode) WHERE c.used_at IS NULL SET c.expires_at = $past', {
      past: new Date(Date.now() - 1000).toISOString(),
    });
  } finally {
    await s.close();
  }
  const late = await redeem(res.body.redirect_url);
  expect({ status: late.status, code: late.body.error_code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
});

it('stores only the digest of the code, valid for 60 s', async () => {
  const res = await login();
  const code = new URL(res.body.redirect_url).searchParams.get('code')!;
  const s = t.service.driver.session();
  try {
    const r = await s.run('MATCH (c:LoginCode {user: "alice"}) WHERE c.used_at IS NULL RETURN properties(c) AS p');
    const props = r.records.map((x) => x.get('p'));
    expect(JSON.stringify(props)).not.toContain(code);
    const fresh = props.find((p: any) => Date.parse(p.expires_at) > Date.now());
    expect(Date.parse(fresh.expires_at) - Date.parse(fresh.created_at)).toBe(60_000);
  } finally {
    await s.close();
  }
});

it('of concurrent redemptions of one code, exactly one wins', async () => {
  const res = await login();
  const answers = await Promise.all(Array.from({ length: 5 }, () => redeem(res.body.redirect_url)));
  expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
});

it('ignores X-Forwarded-* without TRUST_PROXY', async () => {
  const res = await login({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
  expect(new URL(res.body.redirect_url).host).toBe(new URL(t.url).host);
  expect(res.body.redirect_url.startsWith('http://')).toBe(true);
  expect(res.headers.get('set-cookie')).not.toMatch(/Secure/);
});

it('with TRUST_PROXY=true, takes the origin from the proxy and marks the cookie Secure over HTTPS', async () => {
  process.env.TRUST_PROXY = 'true';
  const proxied = await startTestService().finally(() => delete process.env.TRUST_PROXY);
  try {
    await world(proxied);
    const res = await login({ 'x-forwarded-host': 'authz.example.com', 'x-forwarded-proto': 'https' }, proxied);
    expect(res.body.redirect_url.startsWith('https://authz.example.com/v2/auth/login_by_token?code=')).toBe(true);
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const plain = await login({}, proxied);
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
  } finally {
    await proxied.close();
  }
});
