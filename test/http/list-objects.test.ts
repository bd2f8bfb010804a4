import { startTestService, type TestService } from '../support/testService';

/**
 * List-objects (docs/behaviour.md section 13): the instances of a type on which a user may do an action,
 * each once, in key order, paged with a continuation token; same answers as `allowed`.
 * alice: viewer of r01 and r04 directly, member of team t1 that edits r04..r06, auditor
 * (tenant role, repo:pull) in tenant acme, which holds a01..a03.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const list = () => `/v2/allowed/${t.proj}/${t.env}/list-objects`;
const ok = (method: string, path: string, body?: unknown) => t.ok(method, path, body);

const repos = ['r01', 'r02', 'r03', 'r04', 'r05', 'r06', 'r07'];
const acme = ['a01', 'a02', 'a03'];

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'team', name: 'Team', actions: {} });
  await ok('POST', `${schema()}/resources/team/roles`, { key: 'member', name: 'Member', permissions: [] });
  await ok('POST', `${schema()}/resources`, { key: 'repo', name: 'Repo', actions: { pull: {}, push: {} } });
  await ok('POST', `${schema()}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['pull'] });
  await ok('POST', `${schema()}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['pull', 'push'] });
  await ok('POST', `${schema()}/resources/repo/relations`, { key: 'editors', name: 'Editor teams', subject_resource: 'team' });
  await ok('POST', `${schema()}/resources/repo/roles/editor/implicit_grants`, {
    role: 'member',
    on_resource: 'team',
    linked_by_relation: 'editors',
  });
  await ok('POST', `${schema()}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['repo:pull'] });
  await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
  await ok('POST', `${facts()}/resource_instances`, { key: 't1', resource: 'team', tenant: 'default' });
  for (const key of repos) await ok('POST', `${facts()}/resource_instances`, { key, resource: 'repo', tenant: 'default' });
  for (const key of acme) await ok('POST', `${facts()}/resource_instances`, { key, resource: 'repo', tenant: 'acme' });
  for (const key of ['alice', 'bob']) await ok('POST', `${facts()}/users`, { key });
  await ok('POST', `${facts()}/relationship_tuples/bulk`, {
    operations: ['r04', 'r05', 'r06'].map((r) => ({ subject: 'team:t1', relation: 'editors', object: `repo:${r}`, tenant: 'default' })),
  });
  await ok('POST', `${facts()}/role_assignments/bulk`, [
    { user: 'alice', role: 'viewer', tenant: 'default', resource_instance: 'repo:r01' },
    { user: 'alice', role: 'viewer', tenant: 'default', resource_instance: 'repo:r04' },
    { user: 'alice', role: 'member', tenant: 'default', resource_instance: 'team:t1' },
    { user: 'alice', role: 'auditor', tenant: 'acme' },
  ]);
});
afterAll(async () => t?.close());

async function allPages(body: Record<string, unknown>, pageSize: number) {
  const keys: string[] = [];
  let token: string | null = null;
  let pages = 0;
  do {
    const res: { status: number; body: { objects: { key: string }[]; continuation_token: string | null } } = await t.call('POST', list(), {
      ...body,
      page_size: pageSize,
      ...(token ? { continuation_token: token } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body.objects.length).toBeLessThanOrEqual(pageSize);
    keys.push(...res.body.objects.map((o: { key: string }) => o.key));
    token = res.body.continuation_token;
    pages++;
  } while (token !== null && pages < 20);
  return { keys, pages };
}

describe('list-objects', () => {
  it('lists every allowed instance once, in key order, with type and tenant', async () => {
    const res = await ok('POST', list(), { user: 'alice', action: 'pull', resource_type: 'repo' });
    expect(res).toEqual({
      objects: [
        ...acme.map((key) => ({ type: 'repo', key, tenant: 'acme' })),
        ...['r01', 'r04', 'r05', 'r06'].map((key) => ({ type: 'repo', key, tenant: 'default' })),
      ],
      continuation_token: null,
    });
    expect(
      (await ok('POST', list(), { user: 'alice', action: 'push', resource_type: 'repo' })).objects.map((o: { key: string }) => o.key),
    ).toEqual(['r04', 'r05', 'r06']);
    expect(await ok('POST', list(), { user: { key: 'alice' }, action: 'pull', resource_type: 'repo', tenant: 'acme' })).toEqual({
      objects: acme.map((key) => ({ type: 'repo', key, tenant: 'acme' })),
      continuation_token: null,
    });
  });

  it('pages with a continuation token that resumes after the last object', async () => {
    for (const size of [1, 2, 3]) {
      const { keys, pages } = await allPages({ user: 'alice', action: 'pull', resource_type: 'repo' }, size);
      expect(keys).toEqual([...acme, 'r01', 'r04', 'r05', 'r06']);
      expect(pages).toBe(Math.ceil(7 / size));
    }
  });

  it('orders keys by Unicode code point, whole and page by page', async () => {
    // By code point: U+FF5A (ｚ) before U+1F600 (😀); UTF-16 units (JavaScript's `<`) put 😀 first.
    const keys = ['u-b', 'u-😀ｚ', 'u-ｚ', 'u-😁', 'u-a', 'u-😀', 'u-😀a'];
    const ordered = ['u-a', 'u-b', 'u-ｚ', 'u-😀', 'u-😀a', 'u-😀ｚ', 'u-😁'];
    await ok('POST', `${facts()}/users`, { key: 'carol' });
    for (const key of keys) await ok('POST', `${facts()}/resource_instances`, { key, resource: 'repo', tenant: 'default' });
    await ok(
      'POST',
      `${facts()}/role_assignments/bulk`,
      keys.map((key) => ({ user: 'carol', role: 'viewer', tenant: 'default', resource_instance: `repo:${key}` })),
    );
    for (const consistency of [undefined, 'fully_consistent']) {
      for (const size of [1, 2, 3, 100]) {
        const { keys: listed } = await allPages({ user: 'carol', action: 'pull', resource_type: 'repo', consistency }, size);
        expect({ size, consistency, listed }).toEqual({ size, consistency, listed: ordered });
      }
    }
  });

  it('agrees with allowed on every instance', async () => {
    const listed = new Set(
      (await ok('POST', list(), { user: 'alice', action: 'push', resource_type: 'repo' })).objects.map((o: { key: string }) => o.key),
    );
    for (const key of [...repos, ...acme]) {
      const { allow } = await ok('POST', `/v2/allowed/${t.proj}/${t.env}`, {
        user: 'alice',
        action: 'push',
        resource: { type: 'repo', key },
      });
      expect({ key, allow }).toEqual({ key, allow: listed.has(key) });
    }
  });

  it('answers an empty list for a user, action or type that grants nothing', async () => {
    for (const body of [
      { user: 'bob', action: 'pull', resource_type: 'repo' },
      { user: 'ghost', action: 'pull', resource_type: 'repo' },
      { user: 'alice', action: 'delete', resource_type: 'repo' },
      { user: 'alice', action: 'pull', resource_type: 'nothing' },
    ])
      expect(await ok('POST', list(), body)).toEqual({ objects: [], continuation_token: null });
  });

  it('answers at the PDP path for an environment key', async () => {
    const res = await t.call('POST', '/list-objects', { user: 'alice', action: 'push', resource_type: 'repo' }, { key: t.envKey });
    expect(res.status).toBe(200);
    expect(res.body.objects.map((o: { key: string }) => o.key)).toEqual(['r04', 'r05', 'r06']);
    expect((await t.call('POST', list(), { user: 'alice', action: 'push', resource_type: 'repo' }, { key: null })).status).toBe(401);
  });

  it('sees a revoke in the next request', async () => {
    const body = { user: 'alice', action: 'pull', resource_type: 'repo', tenant: 'default', consistency: 'minimize_latency' };
    const grant = { user: 'alice', role: 'viewer', tenant: 'default', resource_instance: 'repo:r01' };
    expect((await ok('POST', list(), body)).objects.map((o: { key: string }) => o.key)).toEqual(['r01', 'r04', 'r05', 'r06']);
    expect((await t.call('DELETE', `${facts()}/role_assignments`, grant)).status).toBe(204);
    expect((await ok('POST', list(), body)).objects.map((o: { key: string }) => o.key)).toEqual(['r04', 'r05', 'r06']);
    await ok('POST', `${facts()}/role_assignments`, grant);
  });

  /** `authz_list_pages_total` by source: pages read from a kept list, and pages walked. */
  async function pagesBySource(): Promise<{ kept: number; walk: number }> {
    const text = String((await t.call('GET', '/metrics')).body);
    const count = (source: string) =>
      Number(text.match(new RegExp(`^authz_list_pages_total\\{source="${source}"\\} (\\d+)$`, 'm'))?.[1] ?? 0);
    return { kept: count('kept'), walk: count('walk') };
  }

  it('walks once for a list and reads the pages after the first from it; fully_consistent walks every page', async () => {
    const body = { user: 'alice', action: 'pull', resource_type: 'repo' };
    const before = await pagesBySource();
    const { keys, pages } = await allPages(body, 2);
    expect(keys).toEqual([...acme, 'r01', 'r04', 'r05', 'r06']);
    const after = await pagesBySource();
    // One walk at most (none when an earlier test left this list kept at the same revision).
    expect(after.kept - before.kept + after.walk - before.walk).toBe(pages);
    expect(after.walk - before.walk).toBeLessThanOrEqual(1);
    expect(pages).toBe(4);
    const strict = await allPages({ ...body, consistency: 'fully_consistent' }, 2);
    expect(strict.keys).toEqual(keys);
    // fully_consistent reads no kept list (and counts in neither).
    expect(await pagesBySource()).toEqual(after);
  });

  it('shows a write made between two pages in the next page', async () => {
    const body = { user: 'alice', action: 'pull', resource_type: 'repo', tenant: 'default', page_size: 2 };
    const tuple = { subject: 'team:t1', relation: 'editors', object: 'repo:r05', tenant: 'default' };
    const first = await ok('POST', list(), body);
    expect(first.objects.map((o: { key: string }) => o.key)).toEqual(['r01', 'r04']);
    // The kept list holds r05 and r06; the write moves the revision, so the next page walks again.
    expect((await t.call('DELETE', `${facts()}/relationship_tuples`, tuple)).status).toBe(204);
    try {
      const next = await ok('POST', list(), { ...body, continuation_token: first.continuation_token });
      expect(next).toEqual({ objects: [{ type: 'repo', key: 'r06', tenant: 'default' }], continuation_token: null });
    } finally {
      await ok('POST', `${facts()}/relationship_tuples`, tuple);
    }
  });

  it('drops an object whose grant expired between two pages, though no write was made', async () => {
    // bob: viewer of r02 for good, of r07 until `expiresAt`. The first page is asked well before it
    // (the list kept then holds r07), the next ones after it.
    const expiresAt = Math.ceil((Date.now() + 6000) / 1000) * 1000;
    await ok('POST', `${facts()}/role_assignments/bulk`, [
      { user: 'bob', role: 'viewer', tenant: 'default', resource_instance: 'repo:r02' },
      { user: 'bob', role: 'viewer', tenant: 'default', resource_instance: 'repo:r07', expires_at: new Date(expiresAt).toISOString() },
    ]);
    const body = { user: 'bob', action: 'pull', resource_type: 'repo', page_size: 1 };
    const first = await ok('POST', list(), body);
    const firstInTime = Date.now() < expiresAt;
    expect(first.objects.map((o: { key: string }) => o.key)).toEqual(['r02']);
    // A first page answered after the expiry (a machine that slow) proves nothing and fails nothing.
    if (!firstInTime) return;
    // Answered before the expiry, it saw r07: its token promises a next page.
    expect(first.continuation_token).not.toBeNull();
    await new Promise((ok) => setTimeout(ok, Math.max(0, expiresAt - Date.now() + 50)));
    // Asked after the expiry, the next page no longer has it, though the revision did not move.
    const next = await ok('POST', list(), { ...body, continuation_token: first.continuation_token });
    expect(next).toEqual({ objects: [], continuation_token: null });
  });

  it('refuses a bad page_size or continuation token with 422', async () => {
    const base = { user: 'alice', action: 'pull', resource_type: 'repo' };
    for (const body of [
      { ...base, page_size: 0 },
      { ...base, page_size: 1001 },
      { ...base, page_size: 'ten' },
      { ...base, continuation_token: 'not a token' },
      { ...base, continuation_token: Buffer.from('{"after":1}').toString('base64url') },
      { ...base, resource_type: '' },
      { ...base, surprise: true },
    ]) {
      const res = await t.call('POST', list(), body);
      expect({ body, status: res.status, code: res.body.error_code }).toEqual({ body, status: 422, code: 'INVALID_INPUT' });
    }
    const first = await ok('POST', list(), { ...base, page_size: 2 });
    const reused = await t.call('POST', list(), { ...base, action: 'push', continuation_token: first.continuation_token });
    expect(reused.status).toBe(422);
    expect(reused.body.details[0].path).toBe('/body/continuation_token');
  });
});
