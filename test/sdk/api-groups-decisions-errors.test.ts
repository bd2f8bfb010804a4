import { startTestService, type TestService } from '../support/testService';
import {
  AuthzClient,
  AuthzError,
  ConfigurationError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
  UnexpectedError,
  ValidationError,
} from './sdk';

/** Groups, decisions and typed errors through the client library, against the running service. */
let t: TestService;
let authz: AuthzClient;

beforeAll(async () => {
  t = await startTestService();
  authz = new AuthzClient({ baseUrl: t.url, token: t.envKey });
  await authz.api.tenants.create({ key: 'acme', name: 'Acme' });
  for (const key of ['ann', 'ben', 'cid']) await authz.api.tenants.addTenantUser('acme', { key });
  await authz.api.resources.create({ key: 'repo', name: 'Repo', actions: { pull: {}, push: {} } });
  await authz.api.roles.create({ key: 'reader', name: 'Reader', permissions: ['repo:pull'] });
  await authz.api.roles.create({ key: 'writer', name: 'Writer', permissions: ['repo:pull', 'repo:push'] });
});
afterAll(async () => t?.close());

const api = () => authz.api;
const caught = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: unknown) => e as AuthzError,
  );

describe('groups', () => {
  it('get, list, update, listUsers, removeRole, delete', async () => {
    const g = await api().groups.create({ group_instance_key: 'team/α', group_tenant: 'acme', name: 'Team' });
    expect(await api().groups.get('team/α')).toEqual(g);
    expect(await api().groups.update('team/α', { description: 'the team' })).toMatchObject({ name: 'Team', description: 'the team' });
    expect((await api().groups.list({ tenant: 'acme', search: 'team' })).data.map((x) => x.group_instance_key)).toEqual(['team/α']);
    await api().groups.assignRole('team/α', { resource: 'repo', resource_instance: 'r1', role: 'reader', tenant: 'acme' });
    await api().groups.addUser('team/α', 'ann', 'acme');
    expect((await api().groups.listUsers('team/α')).data.map((u) => u.key)).toEqual(['ann']);
    expect(await authz.check('ann', 'pull', 'repo:r1')).toBe(true);

    await api().groups.removeRole('team/α', { resource: 'repo', resource_instance: 'r1', role: 'reader', tenant: 'acme' });
    expect(await authz.check('ann', 'pull', 'repo:r1')).toBe(false);
    expect((await api().groups.listRoles('team/α')).total_count).toBe(0);

    await api().groups.delete('team/α');
    await expect(api().groups.get('team/α')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('children and parents of nested groups', async () => {
    await api().groups.create({ group_instance_key: 'parent', group_tenant: 'acme' });
    await api().groups.create({ group_instance_key: 'child', group_tenant: 'acme' });
    await api().groups.assignGroup('child', 'parent');
    expect((await api().groups.listChildren('parent')).data.map((x) => x.group_instance_key)).toEqual(['child']);
    expect((await api().groups.listParents('child')).data.map((x) => x.group_instance_key)).toEqual(['parent']);
    const again = await caught(api().groups.assignGroup('child', 'parent'));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.errorCode).toBe('DUPLICATE_ENTITY');
  });

  it('resource groups: attach, list and detach instances', async () => {
    await api().groups.create({ group_instance_key: 'bundle', group_tenant: 'acme' });
    await api().resourceInstances.create({ key: 'r2', tenant: 'acme', resource: 'repo' });
    await api().resourceInstances.create({ key: 'r3', tenant: 'acme', resource: 'repo' });
    await api().groups.attachResourceInstance('bundle', { resource: 'repo', resource_instance: 'r2', tenant: 'acme' });
    await api().groups.attachResourceInstance('bundle', { resource: 'repo', resource_instance: 'r3', tenant: 'acme' });
    expect((await api().groups.listResourceInstances('bundle')).data.map((i) => i.key).sort()).toEqual(['r2', 'r3']);
    // a role held on the group applies to every attached instance
    await api().roleAssignments.assign({ user: 'ben', role: 'writer', tenant: 'acme', resource_instance: 'group:bundle' });
    expect(
      await authz.bulkCheck([
        { user: 'ben', action: 'push', resource: 'repo:r2' },
        { user: 'ben', action: 'push', resource: 'repo:r3' },
      ]),
    ).toEqual([true, true]);
    await api().groups.detachResourceInstance('bundle', { resource: 'repo', resource_instance: 'r3', tenant: 'acme' });
    expect(await authz.check('ben', 'push', 'repo:r3')).toBe(false);
    expect((await api().groups.listResourceInstances('bundle')).data.map((i) => i.key)).toEqual(['r2']);
  });
});

describe('decisions', () => {
  beforeAll(async () => {
    await api().resourceInstances.create({ key: 'main', tenant: 'acme', resource: 'repo' });
    await api().roleAssignments.assign({ user: 'cid', role: 'writer', tenant: 'acme', resource_instance: 'repo:main' });
  });

  it('check, explain (allowed and denied), unknown things answer false', async () => {
    expect(await authz.check('cid', 'push', 'repo:main')).toBe(true);
    expect(await authz.check('cid', 'push', { type: 'repo', key: 'main', tenant: 'acme' })).toBe(true);
    expect(await authz.check('nobody', 'push', 'repo:main')).toBe(false);
    expect(await authz.check('cid', 'fly', 'repo:main')).toBe(false);
    const yes = await authz.explain('cid', 'push', 'repo:main');
    expect(yes).toMatchObject({ allow: true, explanation: { paths: [expect.stringContaining('repo:main')] } });
    const no = await authz.explain('ann', 'push', 'repo:main');
    expect(no.allow).toBe(false);
    expect(no.explanation.reason).toEqual(expect.any(String));
  });

  it('getUserPermissions and authorizedUsers', async () => {
    const perms = await authz.getUserPermissions('cid', ['acme']);
    expect(perms['repo:main']).toMatchObject({ permissions: expect.arrayContaining(['repo:pull', 'repo:push']), roles: ['writer'] });
    const users = await authz.authorizedUsers('push', { type: 'repo', key: 'main', tenant: 'acme' });
    expect(users).toMatchObject({ resource: 'repo:main', tenant: 'acme' });
    expect(users.users.cid).toEqual([expect.objectContaining({ user: 'cid', role: 'writer', resource: 'repo:main' })]);
  });
});

describe('typed errors', () => {
  it('404 NotFoundError with errorCode, message and errorId', async () => {
    const err = await caught(api().users.get('ghost'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toBeInstanceOf(AuthzError);
    expect(err).toMatchObject({ name: 'NotFoundError', status: 404, errorCode: 'NOT_FOUND', details: [] });
    expect(err.message).toEqual(expect.any(String));
    expect(err.errorId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('409 ConflictError on a duplicate create', async () => {
    const err = await caught(api().tenants.create({ key: 'acme', name: 'Again' }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, errorCode: 'DUPLICATE_ENTITY' });
  });

  it('422 ValidationError with details; per_page above 100', async () => {
    const err = await caught(api().resources.create({ key: 'bad key!', name: 'x', actions: {} }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 422, errorCode: 'INVALID_INPUT' });
    expect(err.details).toContainEqual(expect.objectContaining({ path: '/body/key' }));
    const unknown = await caught(api().tenants.create({ key: 'x', name: 'x', color: 'red' } as never));
    expect(unknown).toBeInstanceOf(ValidationError);
    const big = await caught(api().users.list({ per_page: 101 }));
    expect(big).toBeInstanceOf(ValidationError);
    expect(big.errorCode).toBe('PAGINATION_SIZE_OVERREACHED');
  });

  it('401 UnauthorizedError for an unknown key; 403 ForbiddenError for another environment', async () => {
    const stranger = new AuthzClient({ baseUrl: t.url, token: 'not-a-key', project: t.proj, env: t.env });
    const err = await caught(stranger.api.users.list());
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED' });
    await expect(new AuthzClient({ baseUrl: t.url, token: 'not-a-key' }).check('a', 'b', 'c')).rejects.toBeInstanceOf(UnauthorizedError);

    const elsewhere = new AuthzClient({ baseUrl: t.url, token: t.envKey, project: 'default', env: 'dev' });
    const forbidden = await caught(elsewhere.api.users.list());
    expect(forbidden).toBeInstanceOf(ForbiddenError);
    expect(forbidden).toMatchObject({ status: 403, errorCode: 'FORBIDDEN_ACCESS' });
  });

  it('ConfigurationError for the admin key without project/env', async () => {
    const admin = new AuthzClient({ baseUrl: t.url, token: t.adminKey });
    await expect(admin.api.users.list()).rejects.toBeInstanceOf(ConfigurationError);
    expect((await admin.api.projects.list()).length).toBeGreaterThan(0);
    expect(() => new AuthzClient({ baseUrl: '', token: 'x' })).toThrow(ConfigurationError);
  });

  it('maps 503, 500 and a network failure (simulated transport)', async () => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      (async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })) as typeof fetch;
    const down = new AuthzClient({
      baseUrl: t.url,
      token: 'k',
      project: 'p',
      env: 'e',
      fetch: answer(
        503,
        { id: 'e1', error_code: 'SERVICE_UNAVAILABLE', title: 'Unavailable', message: 'retry later' },
        { 'retry-after': '5' },
      ),
    });
    const unavailable = await caught(down.check('u', 'a', 'r:k'));
    expect(unavailable).toBeInstanceOf(UnavailableError);
    expect(unavailable).toMatchObject({ status: 503, errorCode: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5, errorId: 'e1' });

    const bug = new AuthzClient({
      baseUrl: t.url,
      token: 'k',
      project: 'p',
      env: 'e',
      fetch: answer(500, { error_code: 'UNEXPECTED_ERROR', message: 'oops' }),
    });
    expect(await caught(bug.api.users.list())).toBeInstanceOf(UnexpectedError);

    const offline = new AuthzClient({ baseUrl: 'http://127.0.0.1:1', token: 'k', project: 'p', env: 'e' });
    const net = await caught(offline.api.users.list());
    expect(net).toBeInstanceOf(UnexpectedError);
    expect(net.status).toBe(0);
  });
});
