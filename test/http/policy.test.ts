import { startTestService, type TestService } from '../support/testService';

/** Policy as code (CONTRACT section 16): PUT/GET /v2/schema/{p}/{e}/policy, plan, the file's JSON Schema. */
let t: TestService;
const policyPath = (env = t.env) => `/v2/schema/${t.proj}/${env}/policy`;
const revision = async (env = t.env) =>
  (await t.ok('GET', `/v2/facts/${t.proj}/${env}/changes?after_revision=0&page_size=1000`)).next_revision as number;

const policy = {
  resources: {
    folder: {
      actions: ['read', 'write'],
      roles: { viewer: { permissions: ['read'] }, editor: { permissions: ['write'], extends: ['viewer'] } },
    },
    doc: {
      name: 'Document',
      description: 'A document in a folder',
      actions: { read: {}, write: { name: 'Write', description: 'Change it' } },
      relations: { parent: 'folder' },
      roles: { viewer: { permissions: ['read'] } },
      derivations: [
        {
          role: 'viewer',
          on_resource: 'folder',
          from_role: 'viewer',
          linked_by_relation: 'parent',
          when: { no_direct_roles_on_object: true },
        },
      ],
    },
    repo: { actions: ['pull', 'push'], attributes: { public: true } },
  },
  roles: {
    editor: { permissions: ['repo:pull', 'repo:push'] },
    admin: { name: 'Administrator', permissions: ['repo:push'], extends: ['editor'] },
  },
};

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

describe('policy files', () => {
  it('serves the JSON Schema of policy files without a key', async () => {
    const res = await t.call('GET', '/v2/policy.schema.json', undefined, { key: null });
    expect(res.status).toBe(200);
    expect(res.body.properties.resources).toBeDefined();
    expect(res.body.properties.roles).toBeDefined();
  });

  it('applies a policy in one go, then the same file again changes nothing (no revision)', async () => {
    const plan = await t.ok('POST', `${policyPath()}/plan`, policy);
    expect(plan.changed).toBe(true);
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'create', kind: 'resource', key: 'doc' }),
        expect.objectContaining({ op: 'create', kind: 'derivation', resource: 'doc' }),
        expect.objectContaining({ op: 'create', kind: 'role', key: 'admin' }),
      ]),
    );
    const before = await revision();
    const applied = await t.ok('PUT', policyPath(), policy);
    expect(applied).toMatchObject({ changed: true, applied: true });
    const after = await revision();
    expect(after).toBeGreaterThan(before);

    const admin = await t.ok('GET', `/v2/schema/${t.proj}/${t.env}/roles/admin`);
    expect(admin).toMatchObject({ name: 'Administrator', permissions: ['repo:push'], extends: ['editor'] });
    const doc = await t.ok('GET', `/v2/schema/${t.proj}/${t.env}/resources/doc`);
    expect(doc.actions.write).toMatchObject({ name: 'Write', description: 'Change it' });
    expect(doc.roles.viewer.granted_to.users_with_role).toEqual([
      expect.objectContaining({
        role: 'viewer',
        on_resource: 'folder',
        linked_by_relation: 'parent',
        when: { no_direct_roles_on_object: true },
      }),
    ]);

    const again = await t.ok('PUT', policyPath(), policy);
    expect(again).toEqual({ changed: false, applied: false, changes: [] });
    expect(await revision()).toBe(after);
    expect(await t.ok('POST', `${policyPath()}/plan`, policy)).toEqual({ changed: false, applied: false, changes: [] });
  });

  it('exports the own schema; applied to an empty environment it gives the same schema', async () => {
    const exported = await t.ok('GET', policyPath());
    expect(exported.resources.doc.derivations).toHaveLength(1);
    expect(exported.roles.admin).toEqual({ name: 'Administrator', permissions: ['repo:push'], extends: ['editor'] });
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'roundtrip', name: 'roundtrip' });
    await t.ok('PUT', policyPath('roundtrip'), exported);
    expect(await t.ok('GET', policyPath('roundtrip'))).toEqual(exported);
    expect((await t.ok('POST', `${policyPath('roundtrip')}/plan`, policy)).changes).toEqual([]);
  });

  it('leaves managed schema (group grants, elements configs) out of plans and exports, and never removes it', async () => {
    const exportedBefore = await t.ok('GET', policyPath());
    const facts = `/v2/facts/${t.proj}/${t.env}`;
    const schema = `/v2/schema/${t.proj}/${t.env}`;
    await t.ok('POST', `${facts}/users`, { key: 'ann' });
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'all', group_tenant: 'default' });
    await t.ok('PUT', `${schema}/groups/eng/assign_group`, { group_instance_key: 'all' });
    await t.ok('POST', `${schema}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
    await t.ok('POST', `${schema}/group/all/roles`, { resource: 'folder', resource_instance: 'f1', role: 'viewer', tenant: 'default' });
    await t.ok('PUT', `${schema}/groups/eng/users/ann`, { tenant: 'default' });
    await t.ok('POST', `/v2/elements/${t.proj}/${t.env}/config`, {
      key: 'ops',
      name: 'Ops',
      elements_type: 'operation_approval',
      settings: { resources: ['repo'] },
      roles_to_levels: { LEVEL_1: ['admin'] },
    });
    expect(await t.ok('POST', `${policyPath()}/plan`, policy)).toEqual({ changed: false, applied: false, changes: [] });
    expect(await t.ok('GET', policyPath())).toEqual(exportedBefore);
    const rev = await revision();
    expect((await t.ok('PUT', `${policyPath()}?prune=true`, policy)).changed).toBe(false);
    expect(await revision()).toBe(rev);
    // A file that changes repo's actions keeps the managed operate/review and the approval roles.
    const more = { ...policy, resources: { ...policy.resources, repo: { actions: ['pull', 'push', 'fork'] } } };
    const applied = await t.ok('PUT', policyPath(), more);
    expect(applied.changes).toEqual([
      expect.objectContaining({ op: 'update', kind: 'resource', key: 'repo', fields: ['attributes'] }),
      expect.objectContaining({ op: 'create', kind: 'action', key: 'repo:fork' }),
    ]);
    const repo = await t.ok('GET', `${schema}/resources/repo`);
    expect(Object.keys(repo.actions).sort()).toEqual(['fork', 'operate', 'pull', 'push', 'review']);
    expect(Object.keys(repo.roles).sort()).toEqual(['_Approved_', '_Reviewer_']);
    const allowed = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}`, {
      user: 'ann',
      action: 'read',
      resource: { type: 'folder', key: 'f1' },
    });
    expect(allowed.allow).toBe(true);
    await t.ok('PUT', policyPath(), policy);
  });

  it('keeps what group grants made managed after the groups are deleted', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'leftover', name: 'leftover' });
    const schema = `/v2/schema/${t.proj}/leftover`;
    await t.ok('PUT', policyPath('leftover'), policy);
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'all', group_tenant: 'default' });
    await t.ok('PUT', `${schema}/groups/eng/assign_group`, { group_instance_key: 'all' });
    await t.ok('POST', `${schema}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
    await t.ok('DELETE', `${schema}/groups/eng`, undefined);
    await t.ok('DELETE', `${schema}/groups/all`, undefined);
    expect(await t.ok('POST', `${policyPath('leftover')}/plan`, policy)).toEqual({ changed: false, applied: false, changes: [] });
  });

  it('refuses to remove schema that facts use (409 naming each) unless prune=true', async () => {
    const facts = `/v2/facts/${t.proj}/${t.env}`;
    await t.ok('POST', `${facts}/users`, { key: 'bo' });
    await t.ok('POST', `${facts}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
    await t.ok('POST', `${facts}/role_assignments`, { user: 'bo', role: 'admin', tenant: 'default' });
    const { doc: _doc, ...resources } = policy.resources;
    const { admin: _admin, ...roles } = policy.roles;
    const smaller = { resources, roles };
    const rev = await revision();
    const refused = await t.call('PUT', policyPath(), smaller);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('INVALID_STATE');
    expect(refused.body.details.map((d: { message: string }) => d.message).sort()).toEqual([
      'resource "doc" is used by 1 resource instances',
      'tenant role "admin" is used by 1 role assignments',
    ]);
    expect(await revision()).toBe(rev);
    const plan = await t.ok('POST', `${policyPath()}/plan`, smaller);
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'delete', kind: 'resource', key: 'doc', in_use: { facts: 1, what: 'resource instances' } }),
      ]),
    );

    const pruned = await t.ok('PUT', `${policyPath()}?prune=true`, smaller);
    expect(pruned.applied).toBe(true);
    expect((await t.call('GET', `${facts}/resource_instances/doc:d1`)).status).toBe(404);
    expect((await t.call('GET', `/v2/schema/${t.proj}/${t.env}/roles/admin`)).status).toBe(404);
    expect((await t.ok('POST', `${policyPath()}/plan`, smaller)).changes).toEqual([]);
  });

  it('answers 422 naming what a file names but does not define, and changes nothing', async () => {
    const rev = await revision();
    const bad = {
      resources: { repo: { actions: ['pull'], roles: { dev: { permissions: ['push'] } } } },
      roles: { editor: { permissions: ['repo:fly'] } },
    };
    const res = await t.call('PUT', policyPath(), bad);
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: '/body/resources/repo/roles/dev/permissions/0', message: '"push" is not an action of resource "repo"' },
        { path: '/body/roles/editor/permissions/0', message: '"repo:fly" names no action of a resource in the policy' },
      ]),
    );
    expect((await t.call('PUT', policyPath(), { resources: { x: { actions: 'no' } } })).status).toBe(422);
    const cycle = { roles: { a: { permissions: [], extends: ['b'] }, b: { permissions: [], extends: ['a'] } } };
    expect((await t.call('PUT', `${policyPath()}?prune=true`, cycle)).status).toBe(422);
    expect(await revision()).toBe(rev);
  });
});
