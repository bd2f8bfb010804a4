import { runCypher, startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 24: Permit's URL-mapping rules (held by proxy configs,
 * /v2/facts/{p}/{e}/proxy_configs) and its PDP's POST /allowed_url, over HTTP with Permit's shapes
 * (neither pinned SDK has these calls).
 */
let t: TestService;
let other: TestService;
let configs: string;
const BASE = 'https://billing.example.com';

beforeAll(async () => {
  t = await startTestService();
  other = await startTestService();
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  configs = `${facts}/proxy_configs`;
  await t.ok('POST', `${schema}/resources`, { key: 'invoice', name: 'Invoice', actions: { read: {}, pay: {} } });
  await t.ok('POST', `${schema}/roles`, { key: 'accountant', name: 'Accountant', permissions: ['invoice:read'] });
  await t.ok('POST', `${facts}/users`, { key: 'amy' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'amy', role: 'accountant', tenant: 'default' });
}, 120_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const checkUrl = (http_method: string, url: string, key = t.envKey) =>
  t.call('POST', '/allowed_url', { user: { key: 'amy' }, http_method, url, tenant: 'default', context: {} }, { key });

it("proxy configs hold the rules in Permit's ProxyConfigRead; the secret is taken and never kept", async () => {
  const made = await t.ok('POST', configs, {
    key: 'billing',
    name: 'Billing API',
    secret: 'proxy-secret-value-42',
    auth_mechanism: 'Bearer',
    mapping_rules: [
      { url: `${BASE}/invoices/{invoice_id}`, http_method: 'get', resource: 'invoice', action: 'read' },
      { url: `${BASE}/invoices/{invoice_id}/pay`, http_method: 'POST', resource: 'invoice', action: 'pay', priority: 2 },
    ],
  });
  expect(made).toEqual(
    expect.objectContaining({
      key: 'billing',
      name: 'Billing API',
      secret: null,
      auth_mechanism: 'Bearer',
      environment_id: expect.any(String),
    }),
  );
  expect(made.mapping_rules).toEqual([
    {
      url: `${BASE}/invoices/{invoice_id}`,
      url_type: null,
      http_method: 'get',
      resource: 'invoice',
      headers: {},
      action: 'read',
      priority: null,
    },
    {
      url: `${BASE}/invoices/{invoice_id}/pay`,
      url_type: null,
      http_method: 'post',
      resource: 'invoice',
      headers: {},
      action: 'pay',
      priority: 2,
    },
  ]);
  expect((await t.ok('GET', `${configs}/${made.id}`)).key).toBe('billing');
  expect((await t.ok('GET', configs)).map((c: any) => c.key)).toEqual(['billing']);
  const stored = await runCypher(t, 'MATCH (c:ProxyConfig {id: $id}) RETURN c {.*} AS c', { id: made.id });
  expect(JSON.stringify(stored)).not.toContain('proxy-secret-value-42');
});

it('/allowed_url: the matching rule names the type and action, its placeholders the attributes; no rule is a deny that says why', async () => {
  const read = await checkUrl('GET', `${BASE}/invoices/7`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(
    expect.objectContaining({
      allow: true,
      result: true,
      query: {
        user: { key: 'amy' },
        action: 'read',
        resource: { type: 'invoice', tenant: 'default', attributes: { invoice_id: '7' } },
        context: {},
      },
    }),
  );
  expect((await checkUrl('post', `${BASE}/invoices/7/pay`)).body.allow).toBe(false);
  const none = await checkUrl('DELETE', `${BASE}/invoices/7`);
  expect(none.status).toBe(200);
  expect([none.body.allow, none.body.result, none.body.debug.reason]).toEqual([
    false,
    false,
    'Matched mapping rule not found for the requested URL and HTTP method',
  ]);
  // The rules follow a PATCH (given rules replace the config's).
  await t.ok('PATCH', `${configs}/billing`, {
    mapping_rules: [{ url: `${BASE}/invoices/{invoice_id}/pay`, http_method: 'post', resource: 'invoice', action: 'read' }],
  });
  expect((await checkUrl('POST', `${BASE}/invoices/7/pay`)).body.allow).toBe(true);
  expect((await checkUrl('GET', `${BASE}/invoices/7`)).body.allow).toBe(false);
});

it('regex rules run on RE2: a pattern matched at the start of the URL decides, its named groups the attributes, by priority with plain rules', async () => {
  const rx = 'https://billing\\.example\\.com';
  await t.ok('POST', configs, {
    key: 'rx',
    name: 'Regex rules',
    secret: 'x',
    mapping_rules: [
      { url: `${rx}/v2/invoices/(?P<invoice_id>\\d+)$`, url_type: 'regex', http_method: 'get', resource: 'invoice', action: 'read' },
      { url: `${BASE}/invoices/{invoice_id}`, http_method: 'get', resource: 'invoice', action: 'read', priority: 1 },
      { url: `${rx}/invoices/\\d+$`, url_type: 'regex', http_method: 'get', resource: 'invoice', action: 'pay', priority: 5 },
      { url: `${rx}/(a+)+$`, url_type: 'regex', http_method: 'get', resource: 'invoice', action: 'read' },
    ],
  });
  const allowed = await checkUrl('GET', `${BASE}/v2/invoices/42`);
  expect([allowed.body.allow, allowed.body.query.action, allowed.body.query.resource.attributes]).toEqual([
    true,
    'read',
    { invoice_id: '42' },
  ]);
  expect(allowed.body.debug.mapping_rule.url_type).toBe('regex');
  // `$` ends the pattern: a longer path matches no rule.
  const unmatched = await checkUrl('GET', `${BASE}/v2/invoices/42/lines`);
  expect([unmatched.body.allow, unmatched.body.debug.reason]).toEqual([
    false,
    'Matched mapping rule not found for the requested URL and HTTP method',
  ]);
  // The regex rule of priority 5 beats the plain rule of priority 1 (amy may read, not pay)...
  const paid = await checkUrl('GET', `${BASE}/invoices/7`);
  expect([paid.body.allow, paid.body.query.action]).toEqual([false, 'pay']);
  // ...where it matches: a key that is not digits leaves the plain rule.
  const read = await checkUrl('GET', `${BASE}/invoices/abc`);
  expect([read.body.allow, read.body.query.action, read.body.query.resource.attributes]).toEqual([true, 'read', { invoice_id: 'abc' }]);
  // (a+)+$ on "aaa...a!" would take a backtracking engine 2^4000 steps; RE2 answers.
  const as = 'a'.repeat(4000);
  expect((await checkUrl('GET', `${BASE}/${as}!`)).body.allow).toBe(false);
  expect((await checkUrl('GET', `${BASE}/${as}`)).body.allow).toBe(true);
  await t.ok('DELETE', `${configs}/rx`, undefined, 204);
});

it('bad input answers the error body, never a 500', async () => {
  const regex = await t.call('POST', configs, {
    key: 'rx-bad',
    name: 'Rx',
    secret: 'x',
    mapping_rules: [
      { url: 'https://a\\.io/x', url_type: 'regex', http_method: 'get', resource: 'invoice' },
      { url: 'https://a\\.io/(?!admin)(?P<id>\\w+)$', url_type: 'regex', http_method: 'get', resource: 'invoice' },
    ],
  });
  expect([regex.status, regex.body.error_code, regex.body.details]).toEqual([
    422,
    'INVALID_INPUT',
    [
      {
        path: '/body/mapping_rules/1/url',
        message: expect.stringContaining('invalid or unsupported Perl syntax: `(?!`'),
      },
    ],
  ]);
  expect(regex.body.message).toContain('/body/mapping_rules/1/url is not a regular expression this service can run');
  const hostless = await t.call('POST', configs, {
    key: 'h',
    name: 'H',
    secret: 'x',
    mapping_rules: [{ url: '/invoices', http_method: 'get', resource: 'invoice' }],
  });
  expect(hostless.status).toBe(422);
  expect((await t.call('POST', configs, { key: 'nosecret', name: 'N' })).status).toBe(422);
  expect((await t.call('POST', configs, { key: 'billing', name: 'Again', secret: 'x' })).status).toBe(409);
  expect((await t.call('GET', `${configs}/nope`)).status).toBe(404);
  expect((await checkUrl('GET', 'not a url')).status).toBe(422);
  expect((await t.call('POST', '/allowed_url', { user: 'amy', http_method: 'get', url: `${BASE}/x` }, { key: t.envKey })).status).toBe(422);
  expect((await checkUrl('GET', `${BASE}/invoices/7`, t.adminKey)).status).toBe(403);
  // The local PDP's list of role assignments, the other PDP path of this area's kind: an environment key, Permit's page bound.
  const local = (query: string, key = t.envKey) => t.call('GET', `/local/role_assignments${query}`, undefined, { key });
  expect((await local('?user=amy')).body).toEqual([{ user: 'amy', role: 'accountant', tenant: 'default' }]);
  expect((await local('?user=amy', t.adminKey)).status).toBe(403);
  expect((await local('?per_page=101')).status).toBe(422);
});

it("environments are apart: another environment sees none of this one's configs or rules", async () => {
  const id = (await t.ok('GET', `${configs}/billing`)).id;
  const elsewhere = `/v2/facts/${other.proj}/${other.env}/proxy_configs`;
  expect(await other.ok('GET', elsewhere)).toEqual([]);
  expect((await other.call('GET', `${elsewhere}/${id}`)).status).toBe(404);
  const res = await other.call(
    'POST',
    '/allowed_url',
    { user: 'amy', http_method: 'post', url: `${BASE}/invoices/7/pay`, tenant: 'default' },
    { key: other.envKey },
  );
  expect([res.body.allow, res.body.debug.mapping_rules]).toEqual([false, []]);
});

it('a deleted config takes its rules with it', async () => {
  await t.ok('DELETE', `${configs}/billing`, undefined, 204);
  expect((await t.call('GET', `${configs}/billing`)).status).toBe(404);
  expect((await checkUrl('POST', `${BASE}/invoices/7/pay`)).body.allow).toBe(false);
});
