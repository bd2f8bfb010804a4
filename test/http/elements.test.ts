import { startTestService, type TestService } from '../support/testService';

let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const config = () => `/v2/elements/${t.proj}/${t.env}/config`;

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
}
const ok = (method: string, path: string, body?: unknown, status = 200) => t.ok(method, path, body, status);
const levels = (l1: string[] = [], l2: string[] = []) => ({ LEVEL_1: l1, LEVEL_2: l2, LEVEL_3: [], LEVEL_4: [] });

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'server', name: 'Server', actions: { reboot: { name: 'Reboot' } } });
  await ok('POST', `${schema()}/resources`, { key: 'db', name: 'DB', actions: {} });
  await ok('POST', `${schema()}/roles`, { key: 'admin', name: 'Admin', permissions: [] });
});
afterAll(async () => t?.close());

describe('elements configs', () => {
  it('creates a config and makes its resources ready: actions operate/review, roles _Reviewer_/_Approved_', async () => {
    const c = await ok('POST', config(), {
      key: 'ops',
      name: 'Ops',
      elements_type: 'operation_approval',
      settings: { resources: ['server'] },
      roles_to_levels: levels(['admin']),
    });
    expect(c).toMatchObject({
      id: expect.any(String),
      key: 'ops',
      name: 'Ops',
      elements_type: 'operation_approval',
      settings: { resources: ['server'] },
      roles_to_levels: levels(['admin']),
      created_at: expect.any(String),
    });
    const server = await ok('GET', `${schema()}/resources/server`);
    expect(Object.keys(server.actions).sort()).toEqual(['operate', 'reboot', 'review']);
    expect(server.actions.reboot.name).toBe('Reboot');
    const roles = await ok('GET', `${schema()}/resources/server/roles`);
    const list = Array.isArray(roles) ? roles : roles.data;
    const byKey = Object.fromEntries(list.map((r: any) => [r.key, r.permissions]));
    expect(byKey).toMatchObject({ _Reviewer_: ['review'], _Approved_: ['operate'] });

    expect((await ok('GET', `${config()}/ops`)).id).toBe(c.id);
    expect((await ok('GET', `${config()}/${c.id}`)).key).toBe('ops');
    expectError(
      await t.call('POST', config(), { key: 'ops', name: 'again', elements_type: 'operation_approval', roles_to_levels: levels() }),
      409,
      'DUPLICATE_ENTITY',
    );
  });

  it('is idempotent for resources governed twice, and PATCH adds resources and replaces levels', async () => {
    const c = await ok('POST', config(), {
      key: 'second',
      name: 'Second',
      elements_type: 'operation_approval',
      settings: { resources: ['server'] },
      roles_to_levels: levels(),
    });
    const patched = await ok('PATCH', `${config()}/${c.id}`, {
      settings: { resources: ['server', 'db'] },
      roles_to_levels: levels([], ['admin']),
    });
    expect(patched).toMatchObject({ settings: { resources: ['server', 'db'] }, roles_to_levels: levels([], ['admin']), name: 'Second' });
    const server = await ok('GET', `${schema()}/resources/server`);
    expect(Object.keys(server.actions).sort()).toEqual(['operate', 'reboot', 'review']);
    const db = await ok('GET', `${schema()}/resources/db`);
    expect(Object.keys(db.actions).sort()).toEqual(['operate', 'review']);
  });

  it('refuses unknown resources (404), unknown roles (422) and bad bodies (422)', async () => {
    const base = { name: 'X', elements_type: 'operation_approval', roles_to_levels: levels() };
    expectError(await t.call('POST', config(), { ...base, key: 'x1', settings: { resources: ['nope'] } }), 404, 'NOT_FOUND');
    const badRole = await t.call('POST', config(), { ...base, key: 'x2', roles_to_levels: levels(['ghost']) });
    expectError(badRole, 422, 'INVALID_INPUT');
    expect(badRole.body.details).toEqual([{ path: '/body/roles_to_levels/LEVEL_1/0', message: 'role "ghost" does not exist' }]);
    expectError(await t.call('POST', config(), { ...base, key: 'x3', elements_type: 'user_management' }), 422, 'INVALID_INPUT');
    expectError(await t.call('POST', config(), { ...base, key: 'x4', roles_to_levels: { LEVEL_9: [] } }), 422, 'INVALID_INPUT');
    expectError(await t.call('POST', config(), { ...base, key: 'bad key!' }), 422, 'INVALID_INPUT');
    expectError(await t.call('GET', `${config()}/x1`), 404, 'NOT_FOUND');
  });

  it('lists with paging and deletes (404 afterwards)', async () => {
    const page = await ok('GET', `${config()}?per_page=1`);
    expect(page).toMatchObject({ total_count: 2, page_count: 2 });
    expect(page.data).toHaveLength(1);
    expectError(await t.call('GET', `${config()}?per_page=101`), 422, 'PAGINATION_SIZE_OVERREACHED');
    await ok('DELETE', `${config()}/second`, undefined, 204);
    expectError(await t.call('GET', `${config()}/second`), 404, 'NOT_FOUND');
    expectError(await t.call('DELETE', `${config()}/second`), 404, 'NOT_FOUND');
  });

  it('needs a key of this environment', async () => {
    expectError(await t.call('GET', config(), undefined, { key: null }), 401, 'UNAUTHORIZED');
    expect((await t.call('GET', config(), undefined, { key: t.envKey })).status).toBe(200);
  });
});
