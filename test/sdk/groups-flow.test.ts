import { startTestService, type TestService } from '../support/testService';
import { AuthzClient, ValidationError } from './sdk';

/** The seed's groups worked example (section 4.1 order), written against the client library. */
let t: TestService;
let authz: AuthzClient;

beforeAll(async () => {
  t = await startTestService();
  // An environment key alone: the client finds its project and environment through /v2/api-key/scope.
  authz = new AuthzClient({ baseUrl: t.url, token: t.envKey });
  await authz.api.tenants.create({ key: 'acme', name: 'Acme' });
  for (const key of ['alice', 'bob', 'carol', 'dave']) await authz.api.tenants.addTenantUser('acme', { key });
});
afterAll(async () => t?.close());

const api = () => authz.api;

describe('the groups worked example', () => {
  it('grants a group role to every member, including one added later, and revokes it on removal', async () => {
    // 1. create the group
    const group = await api().groups.create({ group_instance_key: 'eng', group_tenant: 'acme' });
    expect(group).toMatchObject({ group_instance_key: 'eng', group_resource_type_key: 'group', group_tenant: 'acme', users: [] });

    // 2. create the target resource, instance and role
    await api().resources.create({ key: 'repo', name: 'Repository', actions: { push: {}, pull: {} } });
    await api().resourceInstances.create({ key: 'api', tenant: 'acme', resource: 'repo' });
    await api().resourceInstances.create({ key: 'web', tenant: 'acme', resource: 'repo' });
    await api().roles.create({ key: 'editor', name: 'Editor', permissions: ['repo:push', 'repo:pull'] });

    // 3. assign the role to the group
    const withRole = await api().groups.assignRole('eng', { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'acme' });
    expect(withRole.assigned_roles).toEqual(['repo:api#editor']);

    // 4. add users
    await api().groups.addUser('eng', 'alice', 'acme');
    await api().groups.addUser('eng', 'bob', 'acme');

    expect(await authz.check('alice', 'push', 'repo:api')).toBe(true);
    expect(await authz.check({ key: 'bob' }, 'pull', { type: 'repo', key: 'api', tenant: 'acme' })).toBe(true);
    expect(await authz.check('alice', 'push', 'repo:web')).toBe(false);
    expect(await authz.check('carol', 'push', 'repo:api')).toBe(false);

    // a user added later is allowed too
    const later = await api().groups.addUser('eng', 'carol', 'acme');
    expect(later.users.sort()).toEqual(['alice', 'bob', 'carol']);
    expect(await authz.check('carol', 'push', 'repo:api')).toBe(true);

    // the automatic relation, derivation and relationship are visible through the schema and facts APIs
    const relations = await api().resourceRelations.list('repo');
    expect(relations.data.map((r) => r.subject_resource)).toContain('group');
    const tuples = await api().relationshipTuples.list({ subject: 'group:eng', object: 'repo:api' });
    expect(tuples).toHaveLength(1);
    expect((await api().groups.listRoles('eng')).data).toEqual([
      { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'acme' },
    ]);

    // removing the membership revokes the derived role at once
    await api().groups.removeUser('eng', 'alice', 'acme');
    expect(await authz.check('alice', 'push', 'repo:api')).toBe(false);
    expect(await authz.check('bob', 'push', 'repo:api')).toBe(true);
    const explained = await authz.explain('bob', 'push', 'repo:api');
    expect(explained.allow).toBe(true);
    expect(explained.explanation.paths.join('\n')).toContain('group:eng');
  });

  it('passes a group role down nested groups, refuses a cycle, and keeps exactness', async () => {
    await api().resources.create({ key: 'folder', name: 'Folder', actions: { read: {}, write: {} } });
    await api().roles.create({ key: 'viewer', name: 'Viewer', permissions: ['folder:read'] });
    await api().roles.create({ key: 'writer', name: 'Writer', permissions: ['folder:read', 'folder:write'] });
    await api().groups.create({ group_instance_key: 'all', group_tenant: 'acme' });
    await api().groups.create({ group_instance_key: 'devs', group_tenant: 'acme' });
    await api().groups.assignRole('all', { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'acme' });
    await api().groups.assignRole('devs', { resource: 'folder', resource_instance: 'f2', role: 'writer', tenant: 'acme' });
    await api().groups.assignGroup('devs', 'all');
    await api().groups.addUser('devs', 'dave', 'acme');

    expect(
      await authz.bulkCheck([
        { user: 'dave', action: 'read', resource: 'folder:f1' },
        { user: 'dave', action: 'write', resource: 'folder:f1' },
        { user: 'dave', action: 'write', resource: 'folder:f2' },
      ]),
    ).toEqual([true, false, true]);

    const cycle = await api()
      .groups.assignGroup('all', 'devs')
      .catch((e: unknown) => e);
    expect(cycle).toBeInstanceOf(ValidationError);
    expect(cycle).toMatchObject({ status: 422, errorCode: 'GROUP_CYCLE' });

    await api().groups.removeGroup('devs', 'all');
    expect(await authz.check('dave', 'read', 'folder:f1')).toBe(false);
    expect(await authz.check('dave', 'write', 'folder:f2')).toBe(true);
  });
});
