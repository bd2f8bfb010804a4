import { startTestService, type TestService } from '../support/testService';

/**
 * Time-bound access (issue 16): a role assignment with `expires_at` grants until that instant and
 * nothing from it on, on every decision endpoint, whether the answer was cached or not; no sweep
 * is needed for that; a background sweep deletes them later. A past or unparsable `expires_at` is
 * refused with 422.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;
const ok = (method: string, path: string, body?: unknown, status = 200) => t.ok(method, path, body, status);
const sleepUntil = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
  for (const k of ['alice', 'bob', 'carol']) await ok('POST', `${facts()}/users`, { key: k });
  await ok('POST', `${schema()}/resources`, {
    key: 'folder',
    name: 'Folder',
    actions: { read: {} },
    roles: { viewer: { permissions: ['read'] } },
  });
  await ok('POST', `${schema()}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {} },
    relations: { parent: 'folder' },
    roles: { reader: { permissions: ['read'] } },
  });
  await ok('POST', `${schema()}/resources/doc/roles/reader/implicit_grants`, {
    role: 'viewer',
    on_resource: 'folder',
    linked_by_relation: 'parent',
  });
  await ok('POST', `${schema()}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['doc:read'] });
  await ok('POST', `${facts()}/resource_instances`, { key: 'f1', tenant: 'acme', resource: 'folder' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'doc:d1', tenant: 'acme' });
});
afterAll(async () => t?.close());

const check = (user: string, consistency?: string) =>
  t.ok('POST', allowed(), { user, action: 'read', resource: { type: 'doc', key: 'd1' }, ...(consistency ? { consistency } : {}) });

it('refuses an expires_at in the past or unparsable with 422, writing nothing', async () => {
  // Date.parse alone would take the last four: a year, a local time, February 30 (as March 2),
  // a time without seconds or offset.
  for (const expires_at of [
    '2001-01-01T00:00:00Z',
    'tomorrow',
    '2099',
    '2099-01-01T00:00:00',
    '2099-02-30T00:00:00Z',
    '2099-06-30 12:00',
  ]) {
    const res = await t.call('POST', `${facts()}/role_assignments`, {
      user: 'bob',
      role: 'viewer',
      tenant: 'acme',
      resource_instance: 'folder:f1',
      expires_at,
    });
    expect({ status: res.status, code: res.body.error_code }).toEqual({ status: 422, code: expect.any(String) });
    const bulk = await t.call('POST', `${facts()}/role_assignments/bulk`, [
      { user: 'bob', role: 'auditor', tenant: 'acme' },
      { user: 'bob', role: 'viewer', tenant: 'acme', resource_instance: 'folder:f1', expires_at },
    ]);
    expect(bulk.status).toBe(422);
  }
  expect((await check('bob', 'fully_consistent')).allow).toBe(false);
});

/**
 * Asks `question` before an expiry: an answer that arrived before it must be `before`'s; one
 * asked when the expiry had passed must be the expired answer; one that straddled it may be
 * either (a machine slow enough to cross the margin proves nothing, and fails nothing). Answers
 * whether the answer arrived in time.
 */
async function inTime<T>(expiresAt: number, question: () => Promise<T>, before: (a: T) => void, after: (a: T) => void) {
  const started = Date.now();
  const answer = await question();
  if (Date.now() < expiresAt) before(answer);
  else if (started >= expiresAt) after(answer);
  return Date.now() < expiresAt;
}

it('allows before expires_at and denies from expires_at, cached and uncached, on every decision endpoint', async () => {
  // The questions below, asked once before the timed part: their plans are compiled and cached
  // (under load, a first question took seconds).
  await check('alice');
  await check('alice', 'fully_consistent');
  await ok('GET', `/v2/graph/${t.proj}/${t.env}?focus=${encodeURIComponent('user:alice')}&depth=2`);
  await ok('POST', `${allowed()}/authorized_users`, { action: 'read', resource: { type: 'doc', key: 'd1' } });
  // 12 s for the writes below and 4 s of margin before the expiry for the questions that must
  // still be allowed (a machine at a load average of 12 took more than 6 s for the writes, and
  // more than 1 s for the questions).
  const expiresAt = Math.ceil((Date.now() + 16_000) / 1000) * 1000;
  const iso = new Date(expiresAt).toISOString();
  const a = await ok('POST', `${facts()}/role_assignments`, {
    user: 'alice',
    role: 'viewer',
    tenant: 'acme',
    resource_instance: 'folder:f1',
    expires_at: iso,
  });
  expect(a.expires_at).toBe(iso);
  await ok('POST', `${facts()}/role_assignments/bulk`, [{ user: 'carol', role: 'auditor', tenant: 'acme', expires_at: iso }]);
  const listed = await ok('GET', `${facts()}/role_assignments?user=alice`);
  expect(listed.map((x: { expires_at?: string }) => x.expires_at)).toEqual([iso]);

  await sleepUntil(expiresAt - 4000);
  expect(Date.now()).toBeLessThan(expiresAt);
  const allows = (x: { allow: boolean }) => expect(x.allow).toBe(true);
  const denies = (x: { allow: boolean }) => expect(x.allow).toBe(false);
  let inTimeAnswers = 0;
  for (const user of ['alice', 'carol']) {
    // The first fills the cache, the second is answered from it.
    for (const consistency of [undefined, undefined, 'fully_consistent']) {
      if (await inTime(expiresAt, () => check(user, consistency), allows, denies)) inTimeAnswers++;
    }
  }
  await inTime(
    expiresAt,
    () => ok('GET', `/v2/graph/${t.proj}/${t.env}?focus=${encodeURIComponent('user:alice')}&depth=2`),
    (v) => expect(v.edges.filter((e: { type: string }) => e.type === 'HAS_ROLE')).toHaveLength(1),
    () => {}, // after the expiry: asserted below
  );
  await inTime(
    expiresAt,
    () => ok('POST', `${allowed()}/authorized_users`, { action: 'read', resource: { type: 'doc', key: 'd1' } }),
    (v) => expect(Object.keys(v.users).sort()).toEqual(['alice', 'carol']),
    () => {}, // after the expiry: asserted below
  );
  // The first questions at least were answered before the expiry: the test compared something.
  expect(inTimeAnswers).toBeGreaterThan(0);

  await sleepUntil(expiresAt);
  for (const user of ['alice', 'carol']) {
    expect((await check(user)).allow).toBe(false); // the cached allow is not served past the expiry
    expect((await check(user, 'fully_consistent')).allow).toBe(false);
  }
  const explained = await ok('POST', `${allowed()}?explain=true`, { user: 'alice', action: 'read', resource: { type: 'doc', key: 'd1' } });
  expect(explained.explanation.paths).toEqual([]);
  const after = await ok('POST', `${allowed()}/authorized_users`, { action: 'read', resource: { type: 'doc', key: 'd1' } });
  expect(after.users).toEqual({});
  const perms = await ok('POST', `${allowed()}/user-permissions`, { user: 'alice' });
  expect(perms['doc:d1']).toBeUndefined();
  const objects = await ok('POST', `${allowed()}/list-objects`, { user: 'carol', action: 'read', resource_type: 'doc' });
  expect(objects.objects).toEqual([]);
  const effective = await ok('GET', `/v2/graph/${t.proj}/${t.env}/users/alice/effective_roles`);
  expect(effective.roles).toEqual([]);
  const view = await ok('GET', `/v2/graph/${t.proj}/${t.env}?focus=${encodeURIComponent('user:alice')}&depth=2`);
  expect(view.edges.filter((e: { type: string }) => e.type === 'HAS_ROLE')).toEqual([]);

  // The background sweep (here one round of it) deletes the expired edges, in bounded batches.
  expect(await t.service.parts.expirySweep.sweepOnce()).toBeGreaterThanOrEqual(2);
  expect(await ok('GET', `${facts()}/role_assignments?user=alice`)).toEqual([]);
  expect(await ok('GET', `${facts()}/role_assignments?user=carol`)).toEqual([]);
}, 60_000);

it('tuples, group memberships and group role grants with expires_at grant until then, nothing after', async () => {
  for (const k of ['dan', 'erin', 'fay']) await ok('POST', `${facts()}/users`, { key: k });
  await ok('POST', `${facts()}/resource_instances`, { key: 'f2', tenant: 'acme', resource: 'folder' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd2', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/role_assignments`, { user: 'dan', role: 'viewer', tenant: 'acme', resource_instance: 'folder:f2' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'team', group_tenant: 'acme' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'crew', group_tenant: 'acme' });
  await ok('PUT', `${schema()}/groups/crew/users/fay`, { tenant: 'acme' });
  const past = await t.call('PUT', `${schema()}/groups/team/users/erin`, { tenant: 'acme', expires_at: '2000-01-01T00:00:00Z' });
  expect(past.status).toBe(422);
  const badTuple = await t.call('POST', `${facts()}/relationship_tuples`, {
    subject: 'folder:f2',
    relation: 'parent',
    object: 'doc:d2',
    tenant: 'acme',
    expires_at: 'soon',
  });
  expect(badTuple.status).toBe(422);

  // 12 s for the writes below and 4 s of margin before the expiry for the questions that must
  // still be allowed (a machine at a load average of 12 took more than 6 s for the writes, and
  // more than 1 s for the questions).
  const expiresAt = Math.ceil((Date.now() + 16_000) / 1000) * 1000;
  const iso = new Date(expiresAt).toISOString();
  const tuple = await ok('POST', `${facts()}/relationship_tuples`, {
    subject: 'folder:f2',
    relation: 'parent',
    object: 'doc:d2',
    tenant: 'acme',
    expires_at: iso,
  });
  expect(tuple.expires_at).toBe(iso);
  await ok('POST', `${schema()}/group/team/roles`, { resource: 'doc', resource_instance: 'd2', role: 'reader', tenant: 'acme' });
  await ok('PUT', `${schema()}/groups/team/users/erin`, { tenant: 'acme', expires_at: iso });
  await ok('POST', `${schema()}/group/crew/roles`, {
    resource: 'doc',
    resource_instance: 'd2',
    role: 'reader',
    tenant: 'acme',
    expires_at: iso,
  });
  const ask = (user: string, consistency?: string) =>
    t.ok('POST', allowed(), { user, action: 'read', resource: { type: 'doc', key: 'd2' }, ...(consistency ? { consistency } : {}) });

  await sleepUntil(expiresAt - 3000);
  expect(Date.now()).toBeLessThan(expiresAt);
  for (const user of ['dan', 'erin', 'fay']) {
    expect({
      user,
      cached: (await ask(user)).allow,
      again: (await ask(user)).allow,
      uncached: (await ask(user, 'fully_consistent')).allow,
    }).toEqual({ user, cached: true, again: true, uncached: true });
  }
  await sleepUntil(expiresAt);
  for (const user of ['dan', 'erin', 'fay']) {
    expect({ user, cached: (await ask(user)).allow, uncached: (await ask(user, 'fully_consistent')).allow }).toEqual({
      user,
      cached: false,
      uncached: false,
    });
  }
  const users = await ok('POST', `${allowed()}/authorized_users`, { action: 'read', resource: { type: 'doc', key: 'd2' } });
  expect(users.users).toEqual({});
}, 30_000);

it('grants again what is given again after its expiry, before the sweep; a live membership takes a given expires_at', async () => {
  for (const k of ['kim', 'lou', 'max', 'ned', 'ora']) await ok('POST', `${facts()}/users`, { key: k });
  await ok('POST', `${facts()}/resource_instances`, { key: 'f4', tenant: 'acme', resource: 'folder' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd4', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd5', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${facts()}/role_assignments`, { user: 'max', role: 'viewer', tenant: 'acme', resource_instance: 'folder:f4' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'band', group_tenant: 'acme' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'club', group_tenant: 'acme' });
  await ok('POST', `${schema()}/group/band/roles`, { resource: 'doc', resource_instance: 'd5', role: 'reader', tenant: 'acme' });
  await ok('POST', `${schema()}/group/club/roles`, { resource: 'doc', resource_instance: 'd5', role: 'reader', tenant: 'acme' });
  await ok('PUT', `${schema()}/groups/club/users/ora`, { tenant: 'acme' });

  const expiresAt = Math.ceil((Date.now() + 6000) / 1000) * 1000;
  const iso = new Date(expiresAt).toISOString();
  const grants: [string, unknown][] = [
    [`${facts()}/role_assignments`, { user: 'kim', role: 'reader', tenant: 'acme', resource_instance: 'doc:d4', expires_at: iso }],
    [`${facts()}/role_assignments`, { user: 'lou', role: 'auditor', tenant: 'acme', expires_at: iso }],
    [`${facts()}/relationship_tuples`, { subject: 'folder:f4', relation: 'parent', object: 'doc:d4', tenant: 'acme', expires_at: iso }],
  ];
  for (const [path, body] of grants) await ok('POST', path, body);
  await ok('PUT', `${schema()}/groups/band/users/ned`, { tenant: 'acme', expires_at: iso });
  // A live membership given an end takes it.
  await ok('PUT', `${schema()}/groups/club/users/ora`, { tenant: 'acme', expires_at: iso });
  const ask = (user: string, key: string) =>
    t.ok('POST', allowed(), { user, action: 'read', resource: { type: 'doc', key }, consistency: 'fully_consistent' });
  const answers = async () => ({
    kim: (await ask('kim', 'd4')).allow,
    lou: (await ask('lou', 'd4')).allow,
    max: (await ask('max', 'd4')).allow,
    ned: (await ask('ned', 'd5')).allow,
    ora: (await ask('ora', 'd5')).allow,
  });
  expect(await answers()).toEqual({ kim: true, lou: true, max: true, ned: true, ora: true });

  await sleepUntil(expiresAt);
  expect(await answers()).toEqual({ kim: false, lou: false, max: false, ned: false, ora: false });
  // Given again (without an end) before the sweep ran: new grants, not duplicates of the expired edges.
  for (const [path, body] of grants) {
    const { expires_at: _dropped, ...forever } = body as Record<string, unknown>;
    const res = await t.call('POST', path, forever);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
  }
  await ok('PUT', `${schema()}/groups/band/users/ned`, { tenant: 'acme' });
  await ok('PUT', `${schema()}/groups/club/users/ora`, { tenant: 'acme' });
  expect(await answers()).toEqual({ kim: true, lou: true, max: true, ned: true, ora: true });
  const listed = await ok('GET', `${facts()}/role_assignments?user=kim`);
  expect(listed).toEqual([expect.not.objectContaining({ expires_at: expect.anything() })]);
  // The sweep finds nothing of these to delete: they do not expire any more.
  await t.service.parts.expirySweep.sweepOnce();
  expect(await answers()).toEqual({ kim: true, lou: true, max: true, ned: true, ora: true });
}, 30_000);

it('records each edge the sweep deletes as a change of its kind, keyed as its removal, with its state before', async () => {
  for (const k of ['gus', 'hal', 'ivy', 'jon']) await ok('POST', `${facts()}/users`, { key: k });
  await ok('POST', `${facts()}/resource_instances`, { key: 'f3', tenant: 'acme', resource: 'folder' });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd3', tenant: 'acme', resource: 'doc' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'squad', group_tenant: 'acme' });
  const expiresAt = Date.now() + 5000;
  const iso = new Date(expiresAt).toISOString();
  const a = await ok('POST', `${facts()}/role_assignments`, {
    user: 'gus',
    role: 'viewer',
    tenant: 'acme',
    resource_instance: 'folder:f3',
    expires_at: iso,
  });
  await ok('POST', `${facts()}/role_assignments`, { user: 'hal', role: 'auditor', tenant: 'acme', expires_at: iso });
  const tuple = await ok('POST', `${facts()}/relationship_tuples`, {
    subject: 'folder:f3',
    relation: 'parent',
    object: 'doc:d3',
    expires_at: iso,
  });
  await ok('PUT', `${schema()}/groups/squad/users/ivy`, { tenant: 'acme', expires_at: iso });
  await ok('POST', `${schema()}/group/squad/roles`, {
    resource: 'doc',
    resource_instance: 'd3',
    role: 'reader',
    tenant: 'acme',
    expires_at: iso,
  });
  await ok('POST', `${facts()}/role_assignments`, { user: 'jon', role: 'auditor', tenant: 'acme' });
  // The last revision before the edges expire: the service's own sweep (every minute) may delete
  // them before the round asked for below does, and its changes are then after this revision too.
  const rev = (await ok('GET', `${facts()}/changes?page_size=1000`)).changes.at(-1)?.revision ?? 0;
  await sleepUntil(expiresAt + 10);

  await t.service.parts.expirySweep.sweepOnce();
  const { changes } = await ok('GET', `${facts()}/changes?after_revision=${rev}&page_size=1000`);
  const mine = ['gus/viewer/acme/folder/f3', 'hal/auditor/acme', 'folder/f3/parent/doc/d3', 'squad/ivy', 'squad/doc/d3/group_reader_group'];
  const swept = changes.filter((c: { key: string }) => mine.includes(c.key));
  const system = { op: 'delete', actor: { kind: 'admin', id: 'system' } };
  expect(swept).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        ...system,
        kind: 'role_assignment',
        key: 'gus/viewer/acme/folder/f3',
        before: {
          id: a.id,
          user: 'gus',
          role: 'viewer',
          tenant: 'acme',
          resource_instance: 'folder:f3',
          created_at: a.created_at,
          expires_at: iso,
        },
      }),
      expect.objectContaining({
        ...system,
        kind: 'role_assignment',
        key: 'hal/auditor/acme',
        before: expect.objectContaining({ user: 'hal', role: 'auditor', tenant: 'acme', resource_instance: null, expires_at: iso }),
      }),
      expect.objectContaining({
        ...system,
        kind: 'relationship_tuple',
        key: 'folder/f3/parent/doc/d3',
        before: {
          id: tuple.id,
          subject: 'folder:f3',
          relation: 'parent',
          object: 'doc:d3',
          tenant: 'acme',
          created_at: tuple.created_at,
          expires_at: iso,
        },
      }),
      expect.objectContaining({
        ...system,
        kind: 'group_member',
        key: 'squad/ivy',
        before: expect.objectContaining({ group: 'squad', user: 'ivy', tenant: 'acme', expires_at: iso }),
      }),
      expect.objectContaining({
        ...system,
        kind: 'group_role',
        key: 'squad/doc/d3/group_reader_group',
        before: expect.objectContaining({
          group: 'squad',
          role: 'reader',
          resource: 'doc',
          resource_instance: 'd3',
          tenant: 'acme',
          expires_at: iso,
        }),
      }),
    ]),
  );
  expect(swept).toHaveLength(5);
  // What has no expiry stays, and is not in the sweep's changes.
  expect(changes.some((c: { key: string }) => c.key.startsWith('jon/'))).toBe(false);
  expect(await ok('GET', `${facts()}/role_assignments?user=jon`)).toHaveLength(1);
}, 30_000);
