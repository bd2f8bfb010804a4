import { buildWorld, login, ok, request, type World } from './approvals-support';

/**
 * The audit log (docs/behaviour.md section 12): admin only; key creation and revocation, logins and
 * logouts, approval transitions and schema changes, each with its actor, filtered and paged.
 */
let w: World;
const audit = () => `/v2/audit/${w.t.proj}/${w.t.env}`;

beforeAll(async () => {
  w = await buildWorld();
});
afterAll(async () => w?.t.close());

interface Entry {
  at: string;
  actor: { kind: string; id: string };
  op: string;
  kind: string;
  key: string;
  before?: any;
  after?: any;
}

async function entries(query = ''): Promise<Entry[]> {
  const out: Entry[] = [];
  for (let page = 1; ; page++) {
    const res = await ok(w.t, 'GET', `${audit()}?per_page=100&page=${page}${query}`);
    out.push(...res.data);
    if (page >= res.page_count) return out;
  }
}

it('records key creation and revocation, logins, logouts, approval transitions and schema changes', async () => {
  const start = new Date().toISOString();
  const key = await ok(w.t, 'POST', `/v2/api-key/${w.t.proj}/${w.t.env}`, {});
  const rotated = await ok(w.t, 'POST', `/v2/api-key/${key.id}/rotate-secret`);
  await ok(w.t, 'DELETE', `/v2/api-key/${w.t.proj}/${w.t.env}/${key.id}`, undefined, 204);
  const alice = await login(w, 'alice');
  const bob = await login(w, 'bob');
  const created = (await alice.call('POST', '', request())).body;
  expect((await bob.call('PUT', `/${created.id}/approve`, { reviewer_comment: 'fine' })).status).toBe(200);
  expect((await alice.call('POST', '/v2/auth/logout')).status).toBeLessThan(300);
  const carol = await w.t.call('POST', '/v2/auth/elements_login_as', { user_id: 'carol', tenant_id: 'acme' }, { key: w.t.envKey });
  const code = new URL(carol.body.redirect_url);
  expect((await w.t.call('GET', code.pathname + code.search, undefined, { key: null })).status).toBe(200);
  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'late_role', name: 'Late' });
  await ok(w.t, 'POST', `${w.facts}/users`, { key: 'not-audited' });

  const log = await entries(`&from=${encodeURIComponent(start)}`);
  const admin = { kind: 'admin', id: 'admin' };
  expect(log).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ op: 'create', kind: 'api_key', key: key.id, actor: admin }),
      expect.objectContaining({ op: 'update', kind: 'api_key', key: key.id, actor: admin }),
      expect.objectContaining({ op: 'delete', kind: 'api_key', key: key.id, actor: admin }),
      expect.objectContaining({
        op: 'create',
        kind: 'session',
        actor: expect.objectContaining({ kind: 'env_key' }),
        after: expect.objectContaining({ user: 'alice' }),
      }),
      expect.objectContaining({ op: 'delete', kind: 'session', actor: { kind: 'session', id: 'alice' } }),
      // The login code's redemption (the browser's session), by the user it logs in.
      expect.objectContaining({
        op: 'create',
        kind: 'session',
        actor: { kind: 'session', id: 'carol' },
        after: expect.objectContaining({ user: 'carol', tenant: 'acme' }),
      }),
      expect.objectContaining({ op: 'create', kind: 'operation_approval', key: created.id, actor: { kind: 'session', id: 'alice' } }),
      expect.objectContaining({ op: 'update', kind: 'operation_approval', key: created.id, actor: { kind: 'session', id: 'bob' } }),
      expect.objectContaining({ op: 'create', kind: 'role', key: 'late_role', actor: admin }),
    ]),
  );
  // Facts (users) are in the changes feed, not in the audit log; no secret or token is logged.
  expect(log.some((e) => e.key === 'not-audited')).toBe(false);
  expect(JSON.stringify(log)).not.toContain(key.secret);
  expect(JSON.stringify(log)).not.toContain(rotated.secret);
  expect(JSON.stringify(log)).not.toContain(alice.token);
  // Newest first.
  expect(log.map((e) => e.at)).toEqual([...log.map((e) => e.at)].sort().reverse());
});

it('filters by actor, kind and time, and pages', async () => {
  const sessions = await entries('&kind=session');
  expect(sessions.length).toBeGreaterThanOrEqual(3);
  expect(sessions.every((e) => e.kind === 'session')).toBe(true);
  // A change event kind (read from the revisions' change sets): only that kind, none of the others of its revision.
  const roles = await entries('&kind=role');
  expect(roles).toEqual(expect.arrayContaining([expect.objectContaining({ op: 'create', kind: 'role', key: 'late_role' })]));
  expect(roles.every((e) => e.kind === 'role')).toBe(true);
  expect(await entries('&kind=user')).toEqual([]);
  const byBob = await entries('&actor=bob');
  expect(byBob.length).toBeGreaterThan(0);
  expect(byBob.every((e) => e.actor.id === 'bob')).toBe(true);
  expect(await entries('&actor=session:bob')).toEqual(byBob);
  expect(await entries(`&to=${encodeURIComponent('2000-01-01T00:00:00.000Z')}`)).toEqual([]);
  const all = await entries();
  // An instant with an offset compares as that instant: an hour ago, written at +05:00.
  const hourAgo = new Date(Date.now() - 3_600_000 + 5 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+05:00');
  expect(await entries(`&from=${encodeURIComponent(hourAgo)}`)).toEqual(all);
  const page2 = await ok(w.t, 'GET', `${audit()}?per_page=2&page=2`);
  expect(page2.total_count).toBe(all.length);
  expect(page2.data).toEqual(all.slice(2, 4));
});

it("audits the admin console's writes whatever their kind; the header names the console only with the admin key", async () => {
  const console_ = { 'x-authz-actor': 'console' };
  expect((await w.t.call('POST', `${w.facts}/users`, { key: 'by-console' }, { headers: console_ })).status).toBe(200);
  expect((await w.t.call('POST', `${w.facts}/users`, { key: 'by-env-key' }, { key: w.t.envKey, headers: console_ })).status).toBe(200);
  expect((await w.t.call('POST', `${w.facts}/users`, { key: 'by-other' }, { headers: { 'x-authz-actor': 'someone' } })).status).toBe(200);
  const byConsole = await entries('&actor=admin:console');
  expect(byConsole).toEqual([
    expect.objectContaining({ op: 'create', kind: 'user', key: 'by-console', actor: { kind: 'admin', id: 'console' } }),
  ]);
  // Sent with an environment key, or with another value, the header changes nothing: those writes stay out of the audit log.
  const all = await entries();
  expect(all.some((e) => e.key === 'by-env-key' || e.key === 'by-other')).toBe(false);
});

it('answers 403 to an environment key and 422 to a bad filter', async () => {
  const res = await w.t.call('GET', audit(), undefined, { key: w.t.envKey });
  expect(res.status).toBe(403);
  expect(res.body.error_code).toBe('FORBIDDEN_ACCESS');
  expect((await w.t.call('GET', `${audit()}?from=yesterday`)).status).toBe(422);
  // A leap second passes the date-time format but names no instant the clock holds.
  const leap = await w.t.call('GET', `${audit()}?to=2016-12-31T23:59:60Z`);
  expect({ status: leap.status, code: leap.body.error_code }).toEqual({ status: 422, code: 'INVALID_INPUT' });
  expect((await w.t.call('GET', `${audit()}?per_page=101`)).status).toBe(422);
});
