import { buildWorld, expectError, login, request, type World } from './approvals-support';

/** The console's approvals queue: every config's approvals, across sessions, for the admin only. */
let w: World;
let queue: string;
beforeAll(async () => {
  w = await buildWorld();
  queue = `/v2/console/${w.t.proj}/${w.t.env}/approvals`;
  const [alice, carol, bob] = await Promise.all([login(w, 'alice'), login(w, 'carol'), login(w, 'bob')]);
  const first = await alice.call('POST', '', request());
  expect(first.status).toBe(200);
  expect((await carol.call('POST', '', { ...request(), reason: 'carol needs it' })).status).toBe(200);
  expect((await bob.call('PUT', `/${first.body.id}/approve`, { reviewer_comment: 'fine' })).status).toBe(200);
}, 180_000);
afterAll(async () => w?.t.close());

it('lists the approvals of every session to the admin, pending first', async () => {
  const res = await w.t.call('GET', queue);
  expect(res.status).toBe(200);
  expect(res.body.total_count).toBe(2);
  expect(res.body.data.map((a: any) => [a.requesting_user_id, a.status, a.elements_config_key])).toEqual([
    ['carol', 'pending', 'ops'],
    ['alice', 'approved', 'ops'],
  ]);
  expect(res.body.data[1]).toEqual(
    expect.objectContaining({ reviewer_user_id: 'bob', reviewer_comment: 'fine', tenant: 'acme', resource: 'doc' }),
  );
});

it('filters by status and by config key or id', async () => {
  const pending = await w.t.call('GET', `${queue}?status=pending`);
  expect(pending.body.data.map((a: any) => a.requesting_user_id)).toEqual(['carol']);
  expect((await w.t.call('GET', `${queue}?config=ops`)).body.total_count).toBe(2);
  expect((await w.t.call('GET', `${queue}?config=${w.configId}&status=approved`)).body.total_count).toBe(1);
  expect((await w.t.call('GET', `${queue}?config=nope`)).body.total_count).toBe(0);
  expectError(await w.t.call('GET', `${queue}?status=maybe`), 422, 'INVALID_INPUT');
});

it('answers 403 to an environment key, even of this environment', async () => {
  expectError(await w.t.call('GET', queue, undefined, { key: w.t.envKey }), 403, 'FORBIDDEN_ACCESS');
});
