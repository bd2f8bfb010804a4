import { RetentionSweeper } from '../../src/areas/changes/retention';
import { RetentionStore } from '../../src/areas/changes/retentionStore';
import { startTestService, type TestService } from '../support/testService';

/**
 * Retention (AUDIT_RETENTION_DAYS): change events, audit events and decision logs older than the
 * retention are swept in bounded batches; younger ones and other environments' stay.
 */
const DAY_MS = 86_400_000;
let t: TestService;
let envId: string;
let otherEnvId: string;
const feed = (env: string) => `/v2/facts/${t.proj}/${env}/changes?page_size=1000`;

beforeAll(async () => {
  t = await startTestService({ env: { DECISION_LOG_SAMPLE: '1' } });
  await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'other', name: 'other' });
  envId = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body.environment_id;
  otherEnvId = (await t.ok('GET', `/v2/projects/${t.proj}/envs/other`)).id;
});
afterAll(async () => t?.close());

it('sweeps what is older than the retention, batch by batch, and keeps the rest', async () => {
  for (const k of ['a', 'b', 'c', 'd', 'e']) await t.ok('POST', `/v2/facts/${t.proj}/${t.env}/tenants`, { key: k, name: k });
  // A bulk write: one revision of several events, counted as events.
  await t.ok('PUT', `/v2/facts/${t.proj}/${t.env}/bulk/users`, { operations: [{ key: 'u1' }, { key: 'u2' }, { key: 'u3' }] });
  await t.ok('POST', `/v2/facts/${t.proj}/other/tenants`, { key: 'kept', name: 'kept' });
  await t.ok('POST', `/v2/api-key/${t.proj}/${t.env}`, {});
  await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: 'x', action: 'read', resource: { type: 'doc' } });
  await t.service.parts.decisionLog.flush();
  const count = async () => ({
    changes: (await t.ok('GET', feed(t.env))).changes.length,
    audit: (await t.ok('GET', `/v2/audit/${t.proj}/${t.env}`)).total_count,
    decisions: (await t.ok('GET', `/v2/decision-log/${t.proj}/${t.env}`)).total_count,
  });
  const before = await count();
  expect(before.changes).toBeGreaterThanOrEqual(8);
  expect(before.audit).toBeGreaterThanOrEqual(1);
  expect(before.decisions).toBe(1);

  const sweeper = new RetentionSweeper(new RetentionStore(t.service.db), 1, 2);
  // Nothing is a day old yet.
  expect(await sweeper.sweep(Date.now(), envId)).toBe(0);
  expect(await count()).toEqual(before);
  // A day and a minute later, everything of the environment is past the retention: batches of 2.
  const swept = await sweeper.sweep(Date.now() + DAY_MS + 60_000, envId);
  expect(swept).toBe(before.changes + before.audit + before.decisions);
  expect(await count()).toEqual({ changes: 0, audit: 0, decisions: 0 });
  // The other environment was not touched.
  expect((await t.ok('GET', feed('other'))).changes).toEqual([expect.objectContaining({ kind: 'tenant', key: 'kept' })]);
  expect(otherEnvId).not.toBe(envId);
});
