import { Permit } from 'permitio';
import { startTestService, type TestService } from '../support/testService';

/** Permit's official Node SDK, pointed at our PDP paths, gets our answers. */
let t: TestService;
let permit: Permit;

const ok = (method: string, path: string, body?: unknown, status?: number) => t.ok(method, path, body, status);

beforeAll(async () => {
  t = await startTestService();
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  await ok('POST', `${schema}/resources`, { key: 'repo', name: 'Repo', actions: { push: {}, pull: {} } });
  await ok('POST', `${schema}/roles`, { key: 'editor', name: 'Editor', permissions: ['repo:push', 'repo:pull'] });
  await ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['repo:pull'] });
  await ok('POST', `${schema}/resource_instances`, { key: 'api', tenant: 'default', resource: 'repo' });
  await ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
  await ok('POST', `${schema}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
  for (const key of ['alice', 'bob', 'rita']) await ok('POST', `${facts}/users`, { key });
  await ok('PUT', `${schema}/groups/eng/users/alice`, { tenant: 'default' });
  await ok('POST', `${facts}/role_assignments`, { user: 'rita', role: 'reader', tenant: 'default' });
  permit = new Permit({ token: t.envKey, pdp: t.url, apiUrl: t.url, throwOnError: true, log: { level: 'error' } } as never);
});
afterAll(async () => t?.close());

describe('Permit Node SDK against our PDP paths', () => {
  it('check() answers through a group role and denies elsewhere', async () => {
    expect(await permit.check('alice', 'push', { type: 'repo', key: 'api', tenant: 'default' })).toBe(true);
    expect(await permit.check({ key: 'alice', email: 'alice@example.com' }, 'pull', 'repo:api')).toBe(true);
    expect(await permit.check('bob', 'push', { type: 'repo', key: 'api', tenant: 'default' })).toBe(false);
  });

  it('check() answers tenant roles at type level, and bulkCheck keeps order', async () => {
    expect(await permit.check('rita', 'pull', 'repo')).toBe(true);
    expect(await permit.check('rita', 'push', 'repo')).toBe(false);
    const answers = await permit.bulkCheck([
      { user: 'alice', action: 'push', resource: 'repo:api' },
      { user: 'bob', action: 'push', resource: 'repo:api' },
      { user: 'rita', action: 'pull', resource: 'repo:api' },
    ]);
    expect(answers).toEqual([true, false, true]);
  });

  it('getUserPermissions() lists the derived role on the instance', async () => {
    const perms = await permit.getUserPermissions('alice');
    expect(perms['repo:api']).toEqual(expect.objectContaining({ roles: ['editor'] }));
    expect(perms['repo:api'].permissions).toEqual(expect.arrayContaining(['repo:push', 'repo:pull']));
  });
});
