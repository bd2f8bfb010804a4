import { startTestService, type TestService } from '../support/testService';

/** Policy as code (docs/behaviour.md section 16): PUT/GET /v2/schema/{p}/{e}/policy, plan, the file's JSON Schema. */
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
    expect(res.body.properties.elements_configs.additionalProperties.required).toEqual(['elements_type']);
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
    // The export now carries the config itself (its managed schema stays out).
    const { elements_configs: configs, ...exportedAfter } = await t.ok('GET', policyPath());
    expect(exportedAfter).toEqual(exportedBefore);
    expect(configs).toEqual({
      ops: { name: 'Ops', elements_type: 'operation_approval', settings: { resources: ['repo'] }, roles_to_levels: { LEVEL_1: ['admin'] } },
    });
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

/**
 * Elements configs in the policy file (docs/behaviour.md sections 7, 16): made, changed and removed by
 * apply in its one transaction, with their managed approval schema; webhooks left alone.
 */
describe('elements configs in policy files', () => {
  const withConfigs = {
    resources: {
      repo: { actions: ['pull', 'push'], roles: { maintainer: { permissions: ['push'] } } },
      wiki: { actions: ['read'] },
    },
    roles: { admin: { permissions: ['repo:push'] }, dev: { permissions: ['repo:pull'] } },
    elements_configs: {
      deploys: {
        name: 'Deploy approvals',
        elements_type: 'operation_approval',
        settings: { resources: ['repo'] },
        roles_to_levels: { LEVEL_1: ['admin'] },
      },
      access: { name: 'Access', elements_type: 'access_request', settings: { resources: ['wiki'] }, roles_to_levels: { LEVEL_2: ['dev'] } },
    },
  };
  const envOf = async (key: string) => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key, name: key });
    return key;
  };
  const configPath = (env: string, key = '') => `/v2/elements/${t.proj}/${env}/config${key ? `/${key}` : ''}`;
  /** The configs as the elements API answers them, without ids, times and scope. */
  const configsOf = async (env: string) =>
    (await t.ok('GET', configPath(env))).data
      .map((c: Record<string, unknown>) => ({
        key: c.key,
        name: c.name,
        elements_type: c.elements_type,
        settings: c.settings,
        roles_to_levels: c.roles_to_levels,
      }))
      .sort((a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key));
  const schemaOf = async (env: string, resource: string) => {
    const r = await t.ok('GET', `/v2/schema/${t.proj}/${env}/resources/${resource}`);
    return {
      actions: Object.keys(r.actions).sort(),
      roles: Object.fromEntries(Object.entries(r.roles as Record<string, { permissions: string[] }>).map(([k, v]) => [k, v.permissions])),
    };
  };

  it('makes configs with their managed actions and roles; the same file again changes nothing', async () => {
    const env = await envOf('ec-apply');
    const plan = await t.ok('POST', `${policyPath(env)}/plan`, withConfigs);
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'create', kind: 'elements_config', key: 'deploys' }),
        expect.objectContaining({ op: 'create', kind: 'elements_config', key: 'access' }),
      ]),
    );
    expect((await t.ok('PUT', policyPath(env), withConfigs)).applied).toBe(true);
    expect(await configsOf(env)).toEqual([
      {
        key: 'access',
        name: 'Access',
        elements_type: 'access_request',
        settings: { resources: ['wiki'] },
        roles_to_levels: { LEVEL_1: [], LEVEL_2: ['dev'], LEVEL_3: [], LEVEL_4: [] },
      },
      {
        key: 'deploys',
        name: 'Deploy approvals',
        elements_type: 'operation_approval',
        settings: { resources: ['repo'] },
        roles_to_levels: { LEVEL_1: ['admin'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
      },
    ]);
    expect(await schemaOf(env, 'repo')).toEqual({
      actions: ['operate', 'pull', 'push', 'review'],
      roles: { _Approved_: ['operate'], _Reviewer_: ['review'], maintainer: ['push'] },
    });
    // The export carries the configs, not their managed schema.
    const exported = await t.ok('GET', policyPath(env));
    expect(exported.elements_configs).toEqual({
      access: { name: 'Access', elements_type: 'access_request', settings: { resources: ['wiki'] }, roles_to_levels: { LEVEL_2: ['dev'] } },
      deploys: {
        name: 'Deploy approvals',
        elements_type: 'operation_approval',
        settings: { resources: ['repo'] },
        roles_to_levels: { LEVEL_1: ['admin'] },
      },
    });
    expect(exported.resources.repo).toEqual({ actions: ['pull', 'push'], roles: { maintainer: { permissions: ['push'] } } });

    const rev = await revision(env);
    expect(await t.ok('PUT', policyPath(env), withConfigs)).toEqual({ changed: false, applied: false, changes: [] });
    expect(await revision(env)).toBe(rev);

    // A change: name and levels; the webhook set through the elements API stays.
    await t.ok('PATCH', configPath(env, 'deploys'), { webhook: { url: 'https://hooks.example.com/deploys' } });
    const changed = {
      ...withConfigs,
      elements_configs: {
        ...withConfigs.elements_configs,
        deploys: { ...withConfigs.elements_configs.deploys, name: 'Deploys', roles_to_levels: { LEVEL_1: ['admin'], LEVEL_2: ['dev'] } },
      },
    };
    expect((await t.ok('POST', `${policyPath(env)}/plan`, changed)).changes).toEqual([
      { op: 'update', kind: 'elements_config', key: 'deploys', name: 'deploys', fields: ['name', 'roles_to_levels'] },
    ]);
    await t.ok('PUT', policyPath(env), changed);
    const deploys = await t.ok('GET', configPath(env, 'deploys'));
    expect(deploys).toMatchObject({
      name: 'Deploys',
      roles_to_levels: { LEVEL_1: ['admin'], LEVEL_2: ['dev'] },
      webhook: { url: 'https://hooks.example.com/deploys' },
    });
    expect((await t.ok('POST', `${policyPath(env)}/plan`, changed)).changes).toEqual([]);
    // A file without elements_configs leaves the configs as they are.
    const { elements_configs: _configs, ...without } = changed;
    expect((await t.ok('POST', `${policyPath(env)}/plan`, without)).changes).toEqual([]);
  });

  it('answers 422 naming a level role or a governed resource the policy does not define, and changes nothing', async () => {
    const env = await envOf('ec-bad');
    const bad = {
      ...withConfigs,
      elements_configs: {
        deploys: {
          elements_type: 'operation_approval',
          settings: { resources: ['repo', 'nope'] },
          roles_to_levels: { LEVEL_1: ['admin', 'ghost'] },
        },
      },
    };
    const res = await t.call('PUT', policyPath(env), bad);
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('INVALID_INPUT');
    expect(res.body.details).toEqual([
      { path: '/body/elements_configs/deploys/roles_to_levels/LEVEL_1/1', message: '"ghost" is not a tenant role of the policy' },
      { path: '/body/elements_configs/deploys/settings/resources/1', message: '"nope" is not a resource of the policy' },
    ]);
    expect((await t.call('PUT', policyPath(env), { elements_configs: { x: { elements_type: 'other' } } })).status).toBe(422);
    expect(await configsOf(env)).toEqual([]);
    expect((await t.call('GET', `/v2/schema/${t.proj}/${env}/resources/repo`)).status).toBe(404);
  });

  it('runs an operation approval flow in the environment apply made; removing a used config is 409 unless prune', async () => {
    const env = await envOf('ec-flow');
    await t.ok('PUT', policyPath(env), withConfigs);
    const facts = `/v2/facts/${t.proj}/${env}`;
    await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'acme' });
    for (const user of ['rita', 'ada']) await t.ok('POST', `${facts}/tenants/acme/users`, { key: user });
    await t.ok('POST', `${facts}/role_assignments`, { user: 'ada', role: 'admin', tenant: 'acme' });
    await t.ok('POST', `${facts}/resource_instances`, { key: 'api', resource: 'repo', tenant: 'acme' });
    const envKey = (await t.ok('POST', `/v2/api-key/${t.proj}/${env}`, {})).secret as string;
    const cfg = await t.ok('GET', configPath(env, 'deploys'));
    const session = async (user: string) => {
      const res = await t.call('POST', '/v2/auth/elements_login_as', { user_id: user, tenant_id: 'acme' }, { key: envKey });
      expect(res.status).toBe(200);
      const cookie = res.headers.get('set-cookie')!.split(';')[0];
      return (method: string, path: string, body?: unknown) =>
        t.call(method, `${configPath(env, cfg.id)}/operation_approval${path}`, body, {
          key: null,
          headers: { cookie, element_id: cfg.id },
        });
    };
    const operate = async () =>
      (
        await t.ok('POST', `/v2/allowed/${t.proj}/${env}`, {
          user: 'rita',
          action: 'operate',
          resource: { type: 'repo', key: 'api', tenant: 'acme' },
        })
      ).allow;
    const rita = await session('rita');
    const ada = await session('ada');
    expect(await operate()).toBe(false);
    const asked = await rita('POST', '', {
      access_request_details: { tenant: 'acme', resource: 'repo', resource_instance: 'api' },
      reason: 'deploy',
    });
    expect(asked.status).toBe(200);
    expect((await ada('PUT', `/${asked.body.id}/approve`, { reviewer_comment: 'ok' })).status).toBe(200);
    expect(await operate()).toBe(true);

    // Removing the config (and so repo's approval schema, which the approval's grant uses): refused, then pruned.
    const removed = { ...withConfigs, elements_configs: { access: withConfigs.elements_configs.access } };
    const rev = await revision(env);
    const refused = await t.call('PUT', policyPath(env), removed);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe('INVALID_STATE');
    expect(refused.body.details.map((d: { message: string }) => d.message).sort()).toEqual([
      'elements config "deploys" is used by 1 requests (operation approvals and access requests)',
      'role "_Approved_" of resource "repo" is used by 1 role assignments',
    ]);
    expect(await revision(env)).toBe(rev);
    const plan = await t.ok('POST', `${policyPath(env)}/plan`, removed);
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'delete', kind: 'elements_config', key: 'deploys', in_use: expect.objectContaining({ facts: 1 }) }),
        expect.objectContaining({ op: 'delete', kind: 'action', key: 'repo:operate' }),
        expect.objectContaining({ op: 'delete', kind: 'resource_role', key: 'repo#_Reviewer_' }),
      ]),
    );
    expect((await t.ok('PUT', `${policyPath(env)}?prune=true`, removed)).applied).toBe(true);
    expect((await t.call('GET', configPath(env, 'deploys'))).status).toBe(404);
    expect(await schemaOf(env, 'repo')).toEqual({ actions: ['pull', 'push'], roles: { maintainer: ['push'] } });
    expect((await t.ok('POST', `${policyPath(env)}/plan`, removed)).changes).toEqual([]);
  });

  it('round trip: configs made through the elements API (and group grants) read into a policy that an empty environment takes as is', async () => {
    const src = await envOf('ec-src');
    const dst = await envOf('ec-dst');
    const { elements_configs: _c, ...base } = withConfigs;
    await t.ok('PUT', policyPath(src), base);
    const schema = `/v2/schema/${t.proj}/${src}`;
    // As the previous version made them: through the elements API, one with a webhook.
    await t.ok('POST', configPath(src), {
      key: 'ops',
      name: 'Ops',
      elements_type: 'operation_approval',
      settings: { resources: ['repo', 'wiki'] },
      roles_to_levels: { LEVEL_1: ['admin'], LEVEL_3: ['dev'] },
      webhook: { url: 'https://hooks.example.com/ops', bearer_token: 'not-in-files' },
    });
    await t.ok('POST', configPath(src), {
      key: 'asks',
      name: 'Asks',
      elements_type: 'access_request',
      roles_to_levels: { LEVEL_2: ['dev'] },
    });
    await t.ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
    await t.ok('POST', `${schema}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'maintainer', tenant: 'default' });

    const exported = await t.ok('GET', policyPath(src));
    expect(Object.keys(exported.elements_configs).sort()).toEqual(['asks', 'ops']);
    expect(JSON.stringify(exported)).not.toMatch(/hooks\.example|not-in-files|webhook/);
    expect((await t.ok('POST', `${policyPath(src)}/plan`, exported)).changes).toEqual([]);
    const rev = await revision(src);
    expect((await t.ok('PUT', policyPath(src), exported)).changed).toBe(false);
    expect(await revision(src)).toBe(rev);

    await t.ok('PUT', policyPath(dst), exported);
    expect(await t.ok('GET', policyPath(dst))).toEqual(exported);
    expect((await t.ok('POST', `${policyPath(dst)}/plan`, exported)).changes).toEqual([]);
    expect(await configsOf(dst)).toEqual(await configsOf(src));
    for (const r of ['repo', 'wiki']) expect(await schemaOf(dst, r)).toEqual(await schemaOf(src, r));
  });
});

describe("Permit's environment copy (POST /v2/projects/{p}/envs/{e}/copy), on the policy apply", () => {
  it('copies the schema objects with their derivations; refuses a target named twice, the source itself, and removes a new environment the copy could not fill', async () => {
    const src = `cs${Date.now().toString(36)}`;
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: src, name: src });
    await t.ok('PUT', policyPath(src), policy);
    const copy = (body: unknown) => t.call('POST', `/v2/projects/${t.proj}/envs/${src}/copy`, body);
    const made = await copy({ target_env: { new: { key: `${src}-b`, name: 'B' } } });
    expect([made.status, made.body.key]).toEqual([200, `${src}-b`]);
    const copied = await t.ok('GET', policyPath(`${src}-b`));
    expect(copied.resources.doc.derivations).toEqual(policy.resources.doc.derivations);
    expect(Object.keys(copied.roles).sort()).toEqual(['admin', 'editor']);
    expect((await t.ok('GET', `/v2/projects/${t.proj}/envs/${src}-b/stats`)).stats).toMatchObject({ resources: 3, roles: 5, tenants: 1 });
    const both = await copy({ target_env: { existing: `${src}-b`, new: { key: 'x', name: 'x' } } });
    expect([both.status, both.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect((await copy({ target_env: { existing: src } })).status).toBe(422);
    expect((await copy({ target_env: { existing: 'nope' } })).status).toBe(404);
    // Tenant roles without the resources their permissions name: the apply refuses, and the new environment is not left behind.
    const partial = await copy({ target_env: { new: { key: `${src}-c`, name: 'C' } }, scope: { resources: { include: ['folder'] } } });
    expect([partial.status, partial.body.error_code]).toEqual([422, 'INVALID_INPUT']);
    expect((await t.call('GET', `/v2/projects/${t.proj}/envs/${src}-c`)).status).toBe(404);
    for (const env of [src, `${src}-b`]) await t.ok('DELETE', `/v2/projects/${t.proj}/envs/${env}`, undefined, 204);
  });
});

describe('action groups in policy files (docs/behaviour.md section 23)', () => {
  const groupsPolicy = (actions: string[]) => ({
    resources: {
      sheet: {
        actions: ['comment', 'edit', 'view'],
        action_groups: { contribute: { name: 'Contribute', actions } },
        roles: { commenter: { permissions: ['contribute'] } },
      },
    },
    roles: { contributor: { permissions: ['sheet:contribute'] } },
  });
  const may = async (env: string, action: string) =>
    (await t.ok('POST', `/v2/allowed/${t.proj}/${env}`, { user: 'gia', action, resource: { type: 'sheet', tenant: 'default' } })).allow;

  it('apply makes them and the roles that name them decide by them; export and an empty environment round-trip them', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'groups-a', name: 'groups-a' });
    const plan = await t.ok('POST', `${policyPath('groups-a')}/plan`, groupsPolicy(['comment', 'view']));
    expect(plan.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ op: 'create', kind: 'action_group', key: 'sheet:contribute' })]),
    );
    await t.ok('PUT', policyPath('groups-a'), groupsPolicy(['comment', 'view']));
    expect((await t.ok('GET', `/v2/schema/${t.proj}/groups-a/resources/sheet/action_groups/contribute`)).actions).toEqual([
      'comment',
      'view',
    ]);
    expect((await t.ok('PUT', policyPath('groups-a'), groupsPolicy(['view', 'comment']))).changed).toBe(false);
    await t.ok('POST', `/v2/facts/${t.proj}/groups-a/users`, { key: 'gia' });
    await t.ok('POST', `/v2/facts/${t.proj}/groups-a/role_assignments`, { user: 'gia', role: 'contributor', tenant: 'default' });
    expect([await may('groups-a', 'comment'), await may('groups-a', 'edit')]).toEqual([true, false]);

    const exported = await t.ok('GET', policyPath('groups-a'));
    expect(exported.resources.sheet.action_groups).toEqual({ contribute: { name: 'Contribute', actions: ['comment', 'view'] } });
    expect(exported.roles.contributor.permissions).toEqual(['sheet:contribute']);
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'groups-b', name: 'groups-b' });
    await t.ok('PUT', policyPath('groups-b'), exported);
    expect(await t.ok('GET', policyPath('groups-b'))).toEqual(exported);
  });

  it("a changed group is an update the roles follow; a group left out goes, and with it the roles' permission", async () => {
    const plan = await t.ok('POST', `${policyPath('groups-a')}/plan`, groupsPolicy(['comment', 'edit', 'view']));
    expect(plan.changes).toEqual([
      expect.objectContaining({ op: 'update', kind: 'action_group', key: 'sheet:contribute', fields: ['actions'] }),
    ]);
    await t.ok('PUT', policyPath('groups-a'), groupsPolicy(['comment', 'edit', 'view']));
    expect(await may('groups-a', 'edit')).toBe(true);
    const without = { resources: { sheet: { actions: ['comment', 'edit', 'view'] } }, roles: { contributor: {} } };
    const removal = await t.ok('POST', `${policyPath('groups-a')}/plan`, without);
    expect(removal.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ op: 'delete', kind: 'action_group', key: 'sheet:contribute' })]),
    );
    await t.ok('PUT', `${policyPath('groups-a')}?prune=true`, without);
    expect((await t.call('GET', `/v2/schema/${t.proj}/groups-a/resources/sheet/action_groups/contribute`)).status).toBe(404);
    expect(await may('groups-a', 'view')).toBe(false);
  });

  it('answers 422 for a group naming an action its resource lacks, or a role naming a group that is not there', async () => {
    const badGroup = groupsPolicy(['fly']);
    const res = await t.call('PUT', policyPath('groups-b'), badGroup);
    expect([res.status, res.body.details.map((d: { path: string }) => d.path)]).toEqual([
      422,
      ['/body/resources/sheet/action_groups/contribute/actions/0'],
    ]);
    const badRole = { resources: { sheet: { actions: ['view'] } }, roles: { contributor: { permissions: ['sheet:contribute'] } } };
    expect((await t.call('PUT', policyPath('groups-b'), badRole)).status).toBe(422);
  });
});

describe('proxy configs in policy files (docs/behaviour.md section 24)', () => {
  const withRules = (action: string) => ({
    resources: { sheet: { actions: ['edit', 'view'] } },
    roles: { reader: { permissions: ['sheet:view'] } },
    proxy_configs: {
      sheets: {
        name: 'Sheets API',
        mapping_rules: [
          { url: 'https://sheets.example.com/sheets/{sheet_id}', http_method: 'GET', resource: 'sheet', action },
          {
            url: 'https://sheets\\.example\\.com/v2/(?P<sheet_id>\\d+)$',
            url_type: 'regex',
            http_method: 'get',
            resource: 'sheet',
            action: 'edit',
            priority: 2,
          },
        ],
      },
    },
  });
  let key = '';
  const url = async (u: string) =>
    (await t.call('POST', '/allowed_url', { user: 'pia', http_method: 'get', url: u, tenant: 'default' }, { key })).body.allow;

  it('plan shows them, apply makes them for /allowed_url, a changed rule is an update; export round-trips them; absent leaves them, {} removes them', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'proxy-a', name: 'proxy-a' });
    ({ secret: key } = await t.ok('POST', `/v2/api-key/${t.proj}/proxy-a`, {}));
    const plan = await t.ok('POST', `${policyPath('proxy-a')}/plan`, withRules('view'));
    expect(plan.changes).toContainEqual({ op: 'create', kind: 'proxy_config', key: 'sheets', name: 'sheets' });
    await t.ok('PUT', policyPath('proxy-a'), withRules('view'));
    await t.ok('POST', `/v2/facts/${t.proj}/proxy-a/users`, { key: 'pia' });
    await t.ok('POST', `/v2/facts/${t.proj}/proxy-a/role_assignments`, { user: 'pia', role: 'reader', tenant: 'default' });
    expect([await url('https://sheets.example.com/sheets/7'), await url('https://sheets.example.com/v2/7')]).toEqual([true, false]);
    expect((await t.ok('PUT', policyPath('proxy-a'), withRules('view'))).changed).toBe(false);

    const update = await t.ok('POST', `${policyPath('proxy-a')}/plan`, withRules('edit'));
    expect(update.changes).toEqual([{ op: 'update', kind: 'proxy_config', key: 'sheets', name: 'sheets', fields: ['mapping_rules'] }]);
    await t.ok('PUT', policyPath('proxy-a'), withRules('edit'));
    expect(await url('https://sheets.example.com/sheets/7')).toBe(false);

    const exported = await t.ok('GET', policyPath('proxy-a'));
    expect(exported.proxy_configs).toEqual({
      sheets: {
        name: 'Sheets API',
        mapping_rules: [
          { url: 'https://sheets.example.com/sheets/{sheet_id}', http_method: 'get', resource: 'sheet', action: 'edit' },
          { ...withRules('edit').proxy_configs.sheets.mapping_rules[1] },
        ],
      },
    });
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'proxy-b', name: 'proxy-b' });
    await t.ok('PUT', policyPath('proxy-b'), exported);
    expect(await t.ok('GET', policyPath('proxy-b'))).toEqual(exported);

    const { proxy_configs: _, ...without } = withRules('edit');
    expect((await t.ok('POST', `${policyPath('proxy-a')}/plan`, without)).changed).toBe(false);
    const removal = await t.ok('POST', `${policyPath('proxy-a')}/plan`, { ...without, proxy_configs: {} });
    expect(removal.changes).toEqual([{ op: 'delete', kind: 'proxy_config', key: 'sheets', name: 'sheets' }]);
    await t.ok('PUT', policyPath('proxy-a'), { ...without, proxy_configs: {} });
    expect(await t.ok('GET', `/v2/facts/${t.proj}/proxy-a/proxy_configs`)).toEqual([]);
  });

  it('answers 422 for a rule /allowed_url could not apply, at its place in the file, and changes nothing', async () => {
    const bad = withRules('view');
    bad.proxy_configs.sheets.mapping_rules[1].url = 'https://sheets\\.example\\.com/(?!admin)';
    const res = await t.call('PUT', policyPath('proxy-b'), bad);
    expect([res.status, res.body.details]).toEqual([
      422,
      [{ path: '/body/proxy_configs/sheets/mapping_rules/1/url', message: expect.stringContaining('invalid or unsupported Perl syntax') }],
    ]);
    expect((await t.ok('GET', `/v2/facts/${t.proj}/proxy-b/proxy_configs/sheets`)).mapping_rules[0].action).toBe('edit');
  });
});
