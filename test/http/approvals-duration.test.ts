import neo4j, { type Driver } from 'neo4j-driver';
import { buildWorld, type Client, expectError, instances, login, ok, request, type World } from './approvals-support';

/**
 * Time-bound grants (docs/behaviour.md section 11): approve takes `access_duration_seconds` (60..31,536,000);
 * the granted edge carries `expires_at` (epoch ms, docs/graph-model.md), which the decision rule
 * reads, and the approval answers it as `access_expires_at`.
 */
let w: World;
let alice: Client;
let bob: Client;
let driver: Driver;
let accessBase: string;

/** The `expires_at` of alice's grant edges of `role` (the contract with the decision rule). */
async function edgeExpiry(rel: 'HAS_ROLE' | 'HAS_TENANT_ROLE', role: string): Promise<unknown[]> {
  const res = await driver.executeQuery(`MATCH (:User {env: $env, key: 'alice'})-[h:${rel} {role: $role}]->() RETURN h.expires_at AS e`, {
    env: w.envId,
    role,
  });
  return res.records.map((r) => {
    const e = r.get('e');
    return e === null ? null : new Date(typeof e === 'number' ? e : e.toNumber()).toISOString();
  });
}

beforeAll(async () => {
  w = await buildWorld();
  await instances(w, 'doc', ['timed']);
  await instances(w, 'file', ['forever']);
  driver = neo4j.driver(process.env.NEO4J_URI!, neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'));
  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'viewer', name: 'Viewer', permissions: ['doc:read'] });
  const cfg = await ok(w.t, 'POST', `/v2/elements/${w.t.proj}/${w.t.env}/config`, {
    key: 'access',
    name: 'Access',
    elements_type: 'access_request',
    roles_to_levels: { LEVEL_1: ['approver'] },
  });
  accessBase = `/v2/elements/${w.t.proj}/${w.t.env}/config/${cfg.id}/access_requests`;
  [alice, bob] = await Promise.all([login(w, 'alice'), login(w, 'bob')]);
});
afterAll(async () => {
  await driver?.close();
  await w?.t.close();
});

describe('approve with access_duration_seconds', () => {
  it('grants _Approved_ until reviewed_at + duration, on the edge and in the answer', async () => {
    const a = (await alice.call('POST', '', request('doc', { resource_instance: 'timed' }))).body;
    const approved = await bob.call('PUT', `/${a.id}/approve`, { access_duration_seconds: 3600 });
    expect(approved.status).toBe(200);
    const expires = approved.body.access_expires_at;
    expect(Date.parse(expires) - Date.parse(approved.body.reviewed_at)).toBeGreaterThanOrEqual(3599_000);
    expect(Date.parse(expires) - Date.parse(approved.body.reviewed_at)).toBeLessThanOrEqual(3601_000);
    expect(await edgeExpiry('HAS_ROLE', '_Approved_')).toEqual([expires]);
    expect((await bob.call('GET', `/${a.id}`)).body.access_expires_at).toBe(expires);
  });

  it('grants forever without a duration', async () => {
    const a = (await alice.call('POST', '', request('file', { resource_instance: 'forever' }))).body;
    expect((await bob.call('PUT', `/${a.id}/approve`, {})).body.access_expires_at).toBeNull();
  });

  it('refuses a duration outside 60..31,536,000 seconds with 422, leaving the approval pending', async () => {
    const a = (await alice.call('POST', '', request())).body;
    for (const access_duration_seconds of [59, 31_536_001, 0, -60, 1.5, '3600']) {
      expectError(await bob.call('PUT', `/${a.id}/approve`, { access_duration_seconds }), 422, 'INVALID_INPUT');
    }
    expect((await bob.call('GET', `/${a.id}`)).body).toMatchObject({ status: null, access_expires_at: null });
    expect((await bob.call('PUT', `/${a.id}/approve`, { access_duration_seconds: 31_536_000 })).status).toBe(200);
  });

  it('time-bounds an access request grant the same way', async () => {
    const r = (
      await alice.call(
        'POST',
        accessBase,
        { access_request_details: { tenant: 'acme', role: 'viewer' }, reason: 'a day' },
        { element_id: accessBase.split('/')[6] },
      )
    ).body;
    const h = { element_id: accessBase.split('/')[6] };
    expectError(await bob.call('PUT', `${accessBase}/${r.id}/approve`, { access_duration_seconds: 10 }, h), 422, 'INVALID_INPUT');
    const approved = await bob.call('PUT', `${accessBase}/${r.id}/approve`, { access_duration_seconds: 86_400 }, h);
    expect(approved.body).toMatchObject({ status: 'approved', granted_role: 'viewer', access_expires_at: expect.any(String) });
    expect(await edgeExpiry('HAS_TENANT_ROLE', 'viewer')).toEqual([approved.body.access_expires_at]);
  });
});
