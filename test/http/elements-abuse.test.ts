import { buildWorld, type Client, expectError, instances, login, ok, request, type World } from './approvals-support';

/**
 * End users cannot squat or probe (docs/behaviour.md section 15): an operation approval or an access
 * request naming an instance outside the session's tenant answers one 404 whether the key lives
 * in another tenant or nowhere, creates nothing and moves no revision; an approval naming no
 * instance makes one (UUID key) that a cancel or deny removes again; a user creates at most
 * ELEMENTS_REQUESTS_PER_HOUR requests per elements config per hour (here 6).
 */
let w: World;
let alice: Client;
let bob: Client;
let accessBase: string;
let accessId: string;

const revision = () => w.t.service.parts.revisions.latest(w.envId);
const instance = (key: string) => w.t.call('GET', `${w.facts}/resource_instances/${encodeURIComponent(`doc:${key}`)}`);
/** The client on the access-request config (its own element_id). */
const withAccess = (c: Client) => ({
  call: (method: string, path: string, body?: unknown) => c.call(method, `${accessBase}${path}`, body, { element_id: accessId }),
});

beforeAll(async () => {
  w = await buildWorld({ env: { ELEMENTS_REQUESTS_PER_HOUR: '6' } });
  await ok(w.t, 'POST', `${w.schema}/resources/doc/roles`, { key: 'owner', name: 'Owner', permissions: ['read'] });
  await instances(w, 'doc', ['theirs'], 'other');
  await instances(w, 'doc', ['ours']);
  const access = await ok(w.t, 'POST', `/v2/elements/${w.t.proj}/${w.t.env}/config`, {
    key: 'access',
    name: 'Access requests',
    elements_type: 'access_request',
    settings: { resources: ['doc'] },
    roles_to_levels: { LEVEL_1: ['approver'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  accessId = access.id;
  accessBase = `/v2/elements/${w.t.proj}/${w.t.env}/config/${access.id}/access_requests`;
  [alice, bob] = await Promise.all([login(w, 'alice'), login(w, 'bob')]);
}, 180_000);
afterAll(async () => w?.t.close());

/** The error body without its id, with the instance key named in it replaced. */
const shape = (body: any, key: string) => ({ ...body, id: undefined, message: String(body.message).replaceAll(key, '<key>') });

describe("an instance outside the session's tenant", () => {
  it('answers an operation approval with one 404 for "elsewhere" and "nowhere", creating nothing', async () => {
    const before = await revision();
    const elsewhere = await alice.call('POST', '', request('doc', { resource_instance: 'theirs' }));
    const nowhere = await alice.call('POST', '', request('doc', { resource_instance: 'ghost' }));
    expectError(elsewhere, 404, 'NOT_FOUND');
    expectError(nowhere, 404, 'NOT_FOUND');
    expect(shape(elsewhere.body, 'theirs')).toEqual(shape(nowhere.body, 'ghost'));
    expect((await instance('ghost')).status).toBe(404);
    expect(await revision()).toBe(before);
    expect((await bob.call('GET', '')).body.total_count).toBe(0);
    // An instance of the tenant is named as before.
    expect(
      (await alice.call('POST', '', request('doc', { resource_instance: 'ours' }))).body.access_request_details.resource_instance,
    ).toBe('ours');
  });

  it('answers an access request the same way', async () => {
    const ask = (key: string) =>
      withAccess(alice).call('POST', '', {
        access_request_details: { tenant: 'acme', resource: 'doc', resource_instance: key, role: 'owner' },
        reason: 'mine',
      });
    const before = await revision();
    const [elsewhere, nowhere] = [await ask('theirs'), await ask('ghost')];
    expectError(elsewhere, 404, 'NOT_FOUND');
    expectError(nowhere, 404, 'NOT_FOUND');
    expect(shape(elsewhere.body, 'theirs')).toEqual(shape(nowhere.body, 'ghost'));
    expect(await revision()).toBe(before);
    expect((await withAccess(bob).call('GET', '')).body.total_count).toBe(0);
  });
});

describe('an operation approval naming no instance', () => {
  it('makes an instance with a UUID key, removed again when the request is cancelled or denied, kept when approved', async () => {
    const cancelled = (await alice.call('POST', '', request())).body;
    const made = cancelled.access_request_details.resource_instance;
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    expect((await instance(made)).status).toBe(200);
    expect((await alice.call('PUT', `/${cancelled.id}/cancel`, { reason: 'oops' })).status).toBe(200);
    expect((await instance(made)).status).toBe(404);
    // The cancelled request still shows what it named.
    expect((await alice.call('GET', `/${cancelled.id}`)).body).toMatchObject({
      status: 'cancel',
      access_request_details: { resource_instance: made },
    });

    const denied = (await alice.call('POST', '', request())).body;
    expect((await bob.call('PUT', `/${denied.id}/deny`, {})).status).toBe(200);
    expect((await instance(denied.access_request_details.resource_instance)).status).toBe(404);

    const approved = (await alice.call('POST', '', request())).body;
    expect((await bob.call('PUT', `/${approved.id}/approve`, {})).status).toBe(200);
    expect((await instance(approved.access_request_details.resource_instance)).status).toBe(200);
  });

  it('keeps the instance when something else has come to use it', async () => {
    const a = (await alice.call('POST', '', request())).body;
    const key = a.access_request_details.resource_instance;
    await ok(w.t, 'POST', `${w.facts}/role_assignments`, {
      user: 'carol',
      role: '_Reviewer_',
      tenant: 'acme',
      resource_instance: `doc:${key}`,
    });
    expect((await bob.call('PUT', `/${a.id}/deny`, {})).status).toBe(200);
    expect((await instance(key)).status).toBe(200);
  });
});

describe('requests per user, config and hour', () => {
  it('refuses the request past the bound with 429 and Retry-After, creating nothing; others and other configs go on', async () => {
    const gina = await login(w, 'gina');
    const lena = await login(w, 'lena');
    for (let i = 0; i < 6; i++) expect((await gina.call('POST', '', request('doc', { resource_instance: 'ours' }))).status).toBe(200);
    const before = (await bob.call('GET', '')).body.total_count;
    const refused = await gina.call('POST', '', request());
    expectError(refused, 429, 'TOO_MANY_REQUESTS');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect((await bob.call('GET', '')).body.total_count).toBe(before);
    // Another user, and the same user on another config, are not held back.
    expect((await lena.call('POST', '', request('doc', { resource_instance: 'ours' }))).status).toBe(200);
    expect(
      (await withAccess(gina).call('POST', '', { access_request_details: { tenant: 'acme', role: 'approver' }, reason: 'x' })).status,
    ).toBe(200);
  });

  it('counts access requests too', async () => {
    const lena = await login(w, 'lena');
    const ask = () => withAccess(lena).call('POST', '', { access_request_details: { tenant: 'acme', role: 'approver' }, reason: 'x' });
    for (let i = 0; i < 6; i++) expect((await ask()).status).toBe(200);
    expectError(await ask(), 429, 'TOO_MANY_REQUESTS');
  });
});
