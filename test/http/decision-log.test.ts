import { startTestService, type TestService } from '../support/testService';

/**
 * The decision log (docs/behaviour.md section 12): with DECISION_LOG_SAMPLE=1 every decision is logged
 * with its answer and reason, off the request path, and read at /v2/decision-log with filters, and
 * at Permit's audit_logs path in Permit's shape (docs/behaviour.md section 14); with the default 0 nothing is logged.
 */
let t: TestService;
let off: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const logs = (s: TestService) => `/v2/decision-log/${s.proj}/${s.env}`;

beforeAll(async () => {
  t = await startTestService({ env: { DECISION_LOG_SAMPLE: '1' } });
  off = await startTestService();
  await t.ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
  await t.ok('POST', `${schema()}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await t.ok('POST', `${facts()}/users`, { key: 'ann' });
  await t.ok('POST', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default' });
});
afterAll(async () => {
  await t?.close();
  await off?.close();
});

const ask = (user: string, action: string, key?: string) => ({
  user,
  action,
  resource: { type: 'doc', tenant: 'default', ...(key ? { key } : {}) },
});

it('logs each decision with its answer and reason, filtered by user, resource, decision and time', async () => {
  const start = new Date().toISOString();
  expect((await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, ask('ann', 'read'))).allow).toBe(true);
  expect((await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, ask('ann', 'write', 'd1'))).allow).toBe(false);
  await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}/bulk`, [ask('bob', 'read'), ask('ann', 'read', 'd2')]);
  // Written off the request path: not necessarily there yet when the answer came.
  await t.service.parts.decisionLog.flush();

  const all = await t.ok('GET', `${logs(t)}?from=${encodeURIComponent(start)}`);
  expect(all.total_count).toBe(4);
  expect(all.data).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        user_key: 'ann',
        action: 'read',
        resource_type: 'doc',
        resource_key: null,
        tenant: 'default',
        decision: true,
      }),
      expect.objectContaining({
        user_key: 'ann',
        action: 'write',
        resource_key: 'd1',
        decision: false,
        reason: expect.stringMatching(/\S/),
      }),
      expect.objectContaining({ user_key: 'bob', decision: false }),
      expect.objectContaining({ user_key: 'ann', resource_key: 'd2', decision: true }),
    ]),
  );
  expect((await t.ok('GET', `${logs(t)}?user=bob`)).data.map((d: any) => d.user_key)).toEqual(['bob']);
  expect((await t.ok('GET', `${logs(t)}?decision=false`)).total_count).toBe(2);
  expect((await t.ok('GET', `${logs(t)}?resource=doc:d1`)).data.map((d: any) => d.action)).toEqual(['write']);
  expect((await t.ok('GET', `${logs(t)}?to=2000-01-01T00:00:00Z`)).total_count).toBe(0);
  const page = await t.ok('GET', `${logs(t)}?per_page=3&page=2`);
  expect(page).toMatchObject({ total_count: 4, page_count: 2 });
  expect(page.data).toHaveLength(1);
  expect((await t.call('GET', `${logs(t)}?decision=maybe`)).status).toBe(422);
  const leap = await t.call('GET', `${logs(t)}?from=2016-12-31T23:59:60Z`);
  expect({ status: leap.status, code: leap.body.error_code }).toEqual({ status: 422, code: 'INVALID_INPUT' });

  // Permit's path: PaginatedResultAuditLog, each entry with the ids Permit's AuditLog requires, and Permit's filters.
  const permit = `/v2/pdps/${t.proj}/${t.env}/audit_logs`;
  const scope = await t.ok('GET', '/v2/api-key/scope');
  const mine = await t.call('GET', `/v2/api-key/scope`, undefined, { key: t.envKey });
  const since = Math.floor(Date.parse(start) / 1000);
  const asPermit = await t.ok('GET', `${permit}?timestamp_from=${since}`);
  expect(asPermit.total_count).toBe(4);
  for (const e of asPermit.data) {
    expect(e).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        timestamp: expect.any(String),
        pdp_config_id: mine.body.environment_id,
        env_id: mine.body.environment_id,
        project_id: mine.body.project_id,
        org_id: scope.organization_id,
      }),
    );
  }
  expect((await t.ok('GET', `${permit}?users=bob&users=nobody`)).data.map((d: any) => d.user_key)).toEqual(['bob']);
  expect((await t.ok('GET', `${permit}?resources=doc:d1&action=write`)).data.map((d: any) => d.decision)).toEqual([false]);
  expect((await t.ok('GET', `${permit}?tenant=default&decision=true`)).total_count).toBe(2);
  expect((await t.ok('GET', `${permit}?timestamp_to=946684800`)).total_count).toBe(0);
  expect((await t.ok('GET', `${permit}?pdp_id=${mine.body.environment_id}`)).total_count).toBe(4);
  expect((await t.ok('GET', `${permit}?pdp_id=another-pdp`)).total_count).toBe(0);
  // Our own filters are not Permit's: refused, not ignored.
  expect((await t.call('GET', `${permit}?user=bob`)).status).toBe(422);
});

it("answers one entry by its id as Permit's DetailedAuditLog; an unknown id, or another environment's, is a 404", async () => {
  const permit = `/v2/pdps/${t.proj}/${t.env}/audit_logs`;
  const [denied] = (await t.ok('GET', `${permit}?resources=doc:d1&action=write`)).data;
  const one = await t.ok('GET', `${permit}/${encodeURIComponent(denied.id)}`);
  const input = { user: { key: 'ann' }, action: 'write', resource: { type: 'doc', key: 'd1', tenant: 'default' } };
  expect(one).toEqual(
    expect.objectContaining({
      id: denied.id,
      timestamp: denied.timestamp,
      user_key: 'ann',
      action: 'write',
      resource_type: 'doc',
      resource_key: 'd1',
      tenant: 'default',
      decision: false,
      reason: denied.reason,
      pdp_config_id: denied.pdp_config_id,
      env_id: denied.env_id,
      project_id: denied.project_id,
      org_id: denied.org_id,
      input,
      result: { allow: false },
      objects: {},
    }),
  );
  expect(one.raw_data).toEqual(
    expect.objectContaining({ decision_id: denied.id, path: 'permit/root', input, result: { allow: false }, tenant: 'default' }),
  );
  const missing = await t.call('GET', `${permit}/no-such-entry-0`);
  expect([missing.status, missing.body.error_code]).toEqual([404, 'NOT_FOUND']);
  // The same id through another environment's key: its log holds no such entry.
  const elsewhere = await off.call('GET', `/v2/pdps/${off.proj}/${off.env}/audit_logs/${encodeURIComponent(denied.id)}`);
  expect(elsewhere.status).toBe(404);
});

it('logs nothing by default', async () => {
  await off.ok('POST', `/v2/allowed/${off.proj}/${off.env}`, { user: 'x', action: 'read', resource: { type: 'doc' } });
  await off.service.parts.decisionLog.flush();
  expect((await off.ok('GET', logs(off))).total_count).toBe(0);
});
