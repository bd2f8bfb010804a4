import { Permit } from 'permitio';
import { startTestService, type TestService } from '../support/testService';

/**
 * The official `permitio` SDK (2.7.6, pinned), unmodified, driven through its `api.*` classes
 * against the real service with an environment key (and the admin key for projects and
 * environments, which Permit's SDK calls with an organization-level key).
 */
let t: TestService;
let permit: Permit;
let org: Permit;

const sdk = (token: string) => new Permit({ token, pdp: t.url, apiUrl: t.url, throwOnError: true, log: { level: 'error' } } as never);
/** Our lists answer the envelope of docs/behaviour.md section 14; the SDK hands it through as it came. */
// Permit's lists: a plain array, or a PaginatedResult envelope where Permit answers one (users).
const keys = (list: any) => (Array.isArray(list) ? list : list.data).map((x: any) => x.key).sort();

beforeAll(async () => {
  t = await startTestService();
  permit = sdk(t.envKey);
  org = sdk(t.adminKey);
});
afterAll(async () => t?.close());

describe('users and tenants', () => {
  it('users: create, get, getById, update, list, sync (created / replaced), delete', async () => {
    const u = await permit.api.users.create({ key: 'ana', email: 'ana@x.io', attributes: { dept: 'ops' } });
    expect(u).toMatchObject({ key: 'ana', email: 'ana@x.io', attributes: { dept: 'ops' } });
    expect((await permit.api.users.get('ana')).id).toBe(u.id);
    expect((await permit.api.users.getById(u.id)).key).toBe('ana');
    expect((await permit.api.users.update('ana', { first_name: 'Ana' })).first_name).toBe('Ana');
    expect(keys(await permit.api.users.list())).toContain('ana');

    const first = await permit.api.users.sync({ key: 'sam', email: 'sam@x.io' });
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({ key: 'sam', email: 'sam@x.io' });
    const again = await permit.api.users.sync({ key: 'sam', first_name: 'Sam' });
    expect(again.created).toBe(false);
    expect(again.user).toMatchObject({ key: 'sam', email: null, first_name: 'Sam' });
    const legacy = await permit.api.syncUser({ key: 'lee', email: 'lee@x.io' });
    expect(legacy.key).toBe('lee');

    await permit.api.users.delete('lee');
    await expect(permit.api.users.get('lee')).rejects.toThrow();
  });

  it('bulk users: create, replace, delete', async () => {
    await permit.api.users.bulkUserCreate([{ key: 'bulk-1' }, { key: 'bulk-2', email: 'b2@x.io' }]);
    expect((await permit.api.users.get('bulk-2')).email).toBe('b2@x.io');
    await permit.api.users.bulkUserReplace([{ key: 'bulk-2', first_name: 'Two' }, { key: 'bulk-3' }]);
    expect(await permit.api.users.get('bulk-2')).toMatchObject({ email: null, first_name: 'Two' });
    await permit.api.users.bulkUserDelete(['bulk-1', 'bulk-2', 'bulk-3']);
    await expect(permit.api.users.get('bulk-3')).rejects.toThrow();
  });

  it('tenants: create, get, getById, update, list, listTenantUsers, deleteTenantUser, delete', async () => {
    const tn = await permit.api.tenants.create({ key: 'acme', name: 'Acme', attributes: { plan: 'gold' } });
    expect(tn).toMatchObject({ key: 'acme', name: 'Acme', attributes: { plan: 'gold' } });
    expect((await permit.api.tenants.getById(tn.id)).key).toBe('acme');
    expect((await permit.api.tenants.update('acme', { description: 'the company' })).description).toBe('the company');
    await permit.api.tenants.create({ key: 'globex', name: 'Globex' });
    expect(keys(await permit.api.tenants.list())).toEqual(expect.arrayContaining(['acme', 'globex']));
    await permit.api.users.create({ key: 'tia' });
    await t.ok('POST', `/v2/facts/${t.proj}/${t.env}/tenants/globex/users`, { key: 'tia' });
    expect(keys(await permit.api.tenants.listTenantUsers({ tenantKey: 'globex' }))).toEqual(['tia']);
    await permit.api.tenants.deleteTenantUser('globex', 'tia');
    expect(keys(await permit.api.tenants.listTenantUsers({ tenantKey: 'globex' }))).toEqual([]);
    await permit.api.tenants.create({ key: 'temp', name: 'Temp' });
    await permit.api.tenants.delete('temp');
    await expect(permit.api.tenants.get('temp')).rejects.toThrow();
  });
});

describe('schema', () => {
  it('resources: create, get, getById, update, replace, list; attributes kept', async () => {
    const r = await permit.api.resources.create({
      key: 'doc',
      name: 'Doc',
      actions: { read: {}, write: {} },
      attributes: { kind: 'file' },
    } as never);
    expect(Object.keys(r.actions!).sort()).toEqual(['read', 'write']);
    expect((r as any).attributes).toEqual({ kind: 'file' });
    expect((await permit.api.resources.getById(r.id)).key).toBe('doc');
    expect((await permit.api.resources.update('doc', { description: 'documents' })).description).toBe('documents');
    await permit.api.resources.create({ key: 'folder', name: 'Folder', actions: { read: {} } });
    const replaced = await permit.api.resources.replace('folder', { name: 'Folders', actions: { read: {}, list: {} } });
    expect(replaced.name).toBe('Folders');
    expect(keys(await permit.api.resources.list())).toEqual(expect.arrayContaining(['doc', 'folder']));
  });

  it('resource actions: create, get, getById, update, list, delete', async () => {
    const a = await permit.api.resourceActions.create('doc', { key: 'share', name: 'Share' });
    expect(a).toMatchObject({ key: 'share', name: 'Share', permission_name: 'doc:share' });
    expect((await permit.api.resourceActions.get('doc', 'share')).id).toBe(a.id);
    expect((await permit.api.resourceActions.getById((await permit.api.resources.get('doc')).id, a.id)).key).toBe('share');
    expect((await permit.api.resourceActions.update('doc', 'share', { description: 'with others' })).description).toBe('with others');
    expect(keys(await permit.api.resourceActions.list({ resourceKey: 'doc' }))).toEqual(['read', 'share', 'write']);
    await permit.api.resourceActions.delete('doc', 'share');
    await expect(permit.api.resourceActions.get('doc', 'share')).rejects.toThrow();
  });

  it('roles: create with extends, get, update, assign / remove permissions, list, delete', async () => {
    await permit.api.roles.create({ key: 'reader', name: 'Reader', permissions: ['doc:read'] });
    // RoleCreate of 2.7.6 does not type `extends`; the SDK sends it as given.
    const writer: any = await permit.api.roles.create({
      key: 'writer',
      name: 'Writer',
      permissions: ['doc:write'],
      extends: ['reader'],
    } as never);
    expect(writer.extends).toEqual(['reader']);
    expect((await permit.api.roles.getById(writer.id)).key).toBe('writer');
    expect((await permit.api.roles.update('writer', { description: 'writes' })).description).toBe('writes');
    expect((await permit.api.roles.assignPermissions('reader', ['folder:read'])).permissions).toEqual(['doc:read', 'folder:read']);
    expect((await permit.api.roles.removePermissions('reader', ['folder:read'])).permissions).toEqual(['doc:read']);
    expect(keys(await permit.api.roles.list())).toEqual(expect.arrayContaining(['reader', 'writer']));
    await permit.api.roles.create({ key: 'gone', name: 'Gone' });
    await permit.api.roles.delete('gone');
    await expect(permit.api.roles.get('gone')).rejects.toThrow();
  });

  it('resource roles and relations: create, get, update, permissions, derivations with when', async () => {
    const viewer = await permit.api.resourceRoles.create('folder', { key: 'viewer', name: 'Viewer', permissions: ['read'] });
    expect(viewer.permissions).toEqual(['read']);
    await permit.api.resourceRoles.create('doc', { key: 'viewer', name: 'Viewer', permissions: ['read'] });
    const editor = await permit.api.resourceRoles.create('doc', {
      key: 'editor',
      name: 'Editor',
      permissions: ['write'],
      extends: ['viewer'],
    } as never);
    expect((editor as any).extends).toEqual(['viewer']);
    expect((await permit.api.resourceRoles.get('doc', 'editor')).id).toBe(editor.id);
    expect((await permit.api.resourceRoles.update('doc', 'editor', { description: 'edits' })).description).toBe('edits');
    expect((await permit.api.resourceRoles.assignPermissions('folder', 'viewer', ['list'])).permissions).toEqual(['read', 'list']);
    expect((await permit.api.resourceRoles.removePermissions('folder', 'viewer', ['list'])).permissions).toEqual(['read']);
    expect(keys(await permit.api.resourceRoles.list({ resourceKey: 'doc' }))).toEqual(['editor', 'viewer']);

    const rel = await permit.api.resourceRelations.create('doc', { key: 'parent', name: 'Parent', subject_resource: 'folder' });
    expect(rel).toMatchObject({ key: 'parent', subject_resource: 'folder', object_resource: 'doc' });
    expect((await permit.api.resourceRelations.get('doc', 'parent')).id).toBe(rel.id);
    expect(keys(await permit.api.resourceRelations.list({ resourceKey: 'doc' }))).toEqual(['parent']);

    const d = await permit.api.resourceRoles.createRoleDerivation('doc', 'viewer', {
      role: 'viewer',
      on_resource: 'folder',
      linked_by_relation: 'parent',
      when: { no_direct_roles_on_object: true },
    });
    expect(d).toMatchObject({ role: 'viewer', on_resource: 'folder', linked_by_relation: 'parent' });
    expect(await permit.api.resourceRoles.updateRoleDerivationConditions('doc', 'viewer', { no_direct_roles_on_object: false })).toEqual({
      no_direct_roles_on_object: false,
    });
    await permit.api.resourceRoles.deleteRoleDerivation('doc', 'viewer', {
      role: 'viewer',
      on_resource: 'folder',
      linked_by_relation: 'parent',
    });
    expect((await permit.api.resourceRoles.get('doc', 'viewer')).granted_to?.users_with_role).toEqual([]);

    await permit.api.resourceRelations.create('doc', { key: 'tmp', name: 'Tmp', subject_resource: 'folder' });
    await permit.api.resourceRelations.delete('doc', 'tmp');
    await expect(permit.api.resourceRelations.get('doc', 'tmp')).rejects.toThrow();
  });
});

describe('facts and decisions', () => {
  it('instances, role assignments, tuples; then check, bulkCheck, checkAllTenants, getUserPermissions', async () => {
    const inst = await permit.api.resourceInstances.create({ key: 'readme', tenant: 'acme', resource: 'doc', attributes: { lang: 'en' } });
    expect(inst).toMatchObject({ key: 'readme', tenant: 'acme', resource: 'doc', attributes: { lang: 'en' } });
    expect((await permit.api.resourceInstances.get('doc:readme')).id).toBe(inst.id);
    expect((await permit.api.resourceInstances.getById(inst.id)).key).toBe('readme');
    expect((await permit.api.resourceInstances.update('doc:readme', { attributes: { lang: 'fr' } })).attributes).toEqual({ lang: 'fr' });
    await permit.api.resourceInstances.create({ key: 'root', tenant: 'acme', resource: 'folder' });
    expect(keys(await permit.api.resourceInstances.list({ resource: 'doc' }))).toEqual(['readme']);

    await permit.api.users.assignRole({ user: 'ana', role: 'writer', tenant: 'acme' });
    await permit.api.roleAssignments.assign({ user: 'sam', role: 'reader', tenant: 'globex' });
    await permit.api.roleAssignments.bulkAssign([{ user: 'ana', role: 'reader', tenant: 'globex' }]);
    const assigned: any = await permit.api.users.getAssignedRoles({ user: 'ana', tenant: 'acme' });
    // permitio sends include_total_count=false: the plain array, as Permit answers it.
    expect(assigned.map((a: any) => a.role)).toEqual(['writer']);
    // detailed: Permit's RoleAssignmentDetailedRead, the records and not only their keys.
    const detailed: any = await permit.api.roleAssignments.list({ user: 'ana', detailed: true });
    expect(
      detailed
        .map((a: any) => [a.user.key, a.user.email, a.user.first_name, a.role.key, a.tenant.key, a.tenant.name, a.tenant.attributes])
        .sort((a: any, b: any) => a[4].localeCompare(b[4])),
    ).toEqual([
      ['ana', 'ana@x.io', 'Ana', 'writer', 'acme', 'Acme', { plan: 'gold' }],
      ['ana', 'ana@x.io', 'Ana', 'reader', 'globex', expect.any(String), {}],
    ]);
    const mine: any = await permit.api.users.getAssignedRoles({ user: 'ana', tenant: 'acme', detailed: true });
    expect(mine.map((a: any) => [a.role.key, a.role.permissions.length > 0, a.user.id, a.resource_instance])).toEqual([
      ['writer', true, (await permit.api.users.get('ana')).id, undefined],
    ]);
    await permit.api.relationshipTuples.create({ subject: 'folder:root', relation: 'parent', object: 'doc:readme', tenant: 'acme' });
    expect((await permit.api.relationshipTuples.list({ tenant: 'acme' } as never)) as any).toBeTruthy();

    // writer extends reader in the schema; the hierarchy's effect on decisions is the rule's part.
    expect(await permit.check('ana', 'write', { type: 'doc', key: 'readme', tenant: 'acme' })).toBe(true);
    expect(await permit.check('sam', 'write', { type: 'doc', key: 'readme', tenant: 'acme' })).toBe(false);
    expect(
      await permit.bulkCheck([
        { user: 'ana', action: 'write', resource: { type: 'doc', key: 'readme', tenant: 'acme' } },
        { user: 'sam', action: 'read', resource: { type: 'doc', tenant: 'globex' } },
        { user: 'sam', action: 'write', resource: { type: 'doc', tenant: 'globex' } },
      ]),
    ).toEqual([true, true, false]);

    const tenants = await permit.checkAllTenants('sam', 'read', { type: 'doc' }, undefined, undefined);
    expect(tenants.map((x: any) => x.key)).toEqual(['globex']);
    const writeTenants = await permit.checkAllTenants('ana', 'write', { type: 'doc' }, undefined, undefined);
    expect(writeTenants.map((x: any) => x.key)).toEqual(['acme']);
    expect(writeTenants[0]).toEqual({ key: 'acme', attributes: { plan: 'gold' } });

    const perms = await permit.getUserPermissions('ana', ['acme']);
    expect(perms['__tenant:acme'] ?? perms.acme).toEqual(expect.objectContaining({ roles: ['writer'] }));

    await permit.api.roleAssignments.bulkUnassign([{ user: 'ana', role: 'reader', tenant: 'globex' }]);
    await permit.api.users.unassignRole({ user: 'ana', role: 'writer', tenant: 'acme' });
    expect(await permit.check('ana', 'write', { type: 'doc', key: 'readme', tenant: 'acme' })).toBe(false);
    await permit.api.roleAssignments.unassign({ user: 'sam', role: 'reader', tenant: 'globex' });
    expect(await permit.checkAllTenants('sam', 'read', { type: 'doc' }, undefined, undefined)).toEqual([]);

    await permit.api.relationshipTuples.delete({ subject: 'folder:root', relation: 'parent', object: 'doc:readme' } as never);
    await permit.api.resourceInstances.delete('doc:readme');
    await expect(permit.api.resourceInstances.get('doc:readme')).rejects.toThrow();
  });

  it('syncUser with role_assignments: the user and its roles in one call, then check allows; a bad item writes nothing', async () => {
    const synced: any = await permit.api.syncUser({
      key: 'zoe',
      email: 'zoe@x.io',
      role_assignments: [{ role: 'writer', tenant: 'acme' }],
    });
    expect(synced).toMatchObject({
      key: 'zoe',
      email: 'zoe@x.io',
      roles: [{ role: 'writer', tenant: 'acme' }],
      associated_tenants: [{ tenant: 'acme', roles: ['writer'], status: 'active' }],
    });
    expect(await permit.check('zoe', 'write', { type: 'doc', tenant: 'acme' })).toBe(true);
    expect(await permit.check('zoe', 'write', { type: 'doc', tenant: 'globex' })).toBe(false);

    const again = await permit.api.users.sync({ key: 'zoe', role_assignments: [{ role: 'reader', tenant: 'globex' }] });
    expect(again.created).toBe(false);
    expect(await permit.check('zoe', 'read', { type: 'doc', tenant: 'globex' })).toBe(true);

    await expect(
      permit.api.syncUser({
        key: 'zed',
        role_assignments: [
          { role: 'writer', tenant: 'acme' },
          { role: 'no-such-role', tenant: 'acme' },
        ],
      }),
    ).rejects.toThrow();
    await expect(permit.api.users.get('zed')).rejects.toThrow();
    expect(await permit.check('zed', 'write', { type: 'doc', tenant: 'acme' })).toBe(false);
  });

  it('elements.loginAs answers a token and redirect for a user of the tenant', async () => {
    await permit.api.tenants.create({ key: 'portal', name: 'Portal' });
    await permit.api.users.create({ key: 'pat' });
    await permit.api.users.assignRole({ user: 'pat', role: 'reader', tenant: 'portal' });
    const login = await permit.elements.loginAs({ userId: 'pat', tenantId: 'portal' });
    expect(login.token).toEqual(expect.any(String));
    expect(login.redirect_url).toEqual(expect.any(String));
    await expect(permit.elements.loginAs({ userId: 'nobody', tenantId: 'portal' })).rejects.toThrow();
  });
});

describe('projects and environments (organization-level key)', () => {
  it('create, get, update, list, delete', async () => {
    const key = `sdk_${t.proj}`;
    const p = await org.api.projects.create({ key, name: 'SDK project' });
    expect((await org.api.projects.getById(p.id)).key).toBe(key);
    expect(await org.api.projects.update(key, { name: 'Renamed', description: 'by the SDK' })).toMatchObject({
      name: 'Renamed',
      description: 'by the SDK',
    });
    const e = await org.api.environments.create(key, { key: 'stage', name: 'Stage' });
    expect((await org.api.environments.get(key, 'stage')).id).toBe(e.id);
    expect((await org.api.environments.update(key, 'stage', { name: 'Staging' })).name).toBe('Staging');
    expect(keys(await org.api.environments.list({ projectKey: key }))).toEqual(['stage']);
    // The environment's own key, made with it, answered without a secret.
    const own = await org.api.environments.getApiKey(key, 'stage');
    expect([own.environment_id, own.name, own.secret]).toEqual([e.id, 'Environment key', undefined]);
    // Statistics, and Permit's copy of schema objects into a new environment.
    const schema = `/v2/schema/${key}/stage`;
    await t.ok('POST', `${schema}/resources`, {
      key: 'doc',
      name: 'Doc',
      actions: { read: {} },
      roles: { reader: { name: 'R', permissions: ['read'] } },
    });
    expect((await org.api.environments.getStats(key, 'stage')).stats).toMatchObject({
      resources: 1,
      roles: 1,
      policies: 1,
      tenants: 1,
      users: 0,
    });
    const copied = await org.api.environments.copy(key, 'stage', { target_env: { new: { key: 'prod', name: 'Prod' } } });
    expect(copied.key).toBe('prod');
    expect((await org.api.environments.getStats(key, 'prod')).stats).toMatchObject({ resources: 1, roles: 1, policies: 1 });
    await org.api.environments.delete(key, 'prod');
    await org.api.environments.delete(key, 'stage');
    await org.api.projects.delete(key);
    await expect(org.api.projects.get(key)).rejects.toThrow();
  });
});

describe('action groups (docs/behaviour.md section 23)', () => {
  it('actionGroups: create, get, getByKey, getById, update, list, delete; a role given a group decides by its actions', async () => {
    const sheet = await permit.api.resources.create({ key: 'sheet', name: 'Sheet', actions: { view: {}, comment: {}, edit: {} } });
    const g = await permit.api.actionGroups.create('sheet', { key: 'contribute', name: 'Contribute', actions: ['view', 'comment'] });
    expect(g).toMatchObject({ key: 'contribute', name: 'Contribute', actions: ['view', 'comment'], resource_id: sheet.id });
    expect((await permit.api.actionGroups.get('sheet', 'contribute')).id).toBe(g.id);
    expect((await permit.api.actionGroups.getByKey('sheet', 'contribute')).actions).toEqual(['view', 'comment']);
    expect((await permit.api.actionGroups.getById(sheet.id, g.id)).key).toBe('contribute');
    expect((await permit.api.actionGroups.list({ resourceKey: 'sheet' })).map((x) => x.key)).toEqual(['contribute']);

    await permit.api.tenants.create({ key: 'ag-tenant', name: 'AG' });
    await permit.api.users.create({ key: 'gia' });
    await permit.api.roles.create({ key: 'contributor', name: 'Contributor', permissions: ['sheet:contribute'] });
    await permit.api.users.assignRole({ user: 'gia', role: 'contributor', tenant: 'ag-tenant' });
    const sheetIn = { type: 'sheet', tenant: 'ag-tenant' };
    expect(await permit.check('gia', 'comment', sheetIn)).toBe(true);
    expect(await permit.check('gia', 'edit', sheetIn)).toBe(false);

    const updated = await permit.api.actionGroups.update('sheet', 'contribute', { actions: ['view', 'comment', 'edit'] });
    expect(updated.actions).toEqual(['view', 'comment', 'edit']);
    expect(await permit.check('gia', 'edit', sheetIn)).toBe(true);
    expect((await permit.api.roles.get('contributor')).permissions).toEqual(['sheet:contribute']);

    await permit.api.actionGroups.delete('sheet', 'contribute');
    await expect(permit.api.actionGroups.get('sheet', 'contribute')).rejects.toThrow();
    expect((await permit.api.roles.get('contributor')).permissions).toEqual([]);
    expect(await permit.check('gia', 'view', sheetIn)).toBe(false);
  });
});

describe('the rest of permit.api: by key and id, deletes, bulk tuples, the deprecated helpers', () => {
  it('answers each with its values', async () => {
    const api = permit.api;
    // Schema by key and by id, and the deletes.
    await api.resources.create({ key: 'binder', name: 'Binder', actions: { open: {} } });
    const memo = await api.resources.create({ key: 'memo', name: 'Memo', actions: { read: {}, write: {} } });
    expect((await api.resources.getByKey('memo')).id).toBe(memo.id);
    expect((await api.resourceActions.getByKey('memo', 'write')).key).toBe('write');
    const clerk = await api.resourceRoles.create('memo', { key: 'clerk', name: 'Clerk', permissions: ['read'] });
    expect((await api.resourceRoles.getByKey('memo', 'clerk')).permissions).toEqual(['read']);
    expect((await api.resourceRoles.getById(memo.id, clerk.id)).key).toBe('clerk');
    const rel = await api.resourceRelations.create('memo', { key: 'binder', name: 'Binder', subject_resource: 'binder' });
    expect((await api.resourceRelations.getByKey('memo', 'binder')).subject_resource).toBe('binder');
    expect((await api.resourceRelations.getById(memo.id, rel.id)).key).toBe('binder');
    await api.resourceRoles.create('memo', { key: 'temp', name: 'Temp', permissions: [] });
    await api.resourceRoles.delete('memo', 'temp');
    await expect(api.resourceRoles.get('memo', 'temp')).rejects.toThrow();
    const boss = await api.roles.create({ key: 'boss', name: 'Boss', permissions: ['memo:write'] });
    expect((await api.roles.getByKey('boss')).id).toBe(boss.id);

    // Facts by key; tuples in bulk.
    const tenant = await api.tenants.create({ key: 'memos', name: 'Memos' });
    expect((await api.tenants.getByKey('memos')).id).toBe(tenant.id);
    const user = await api.users.create({ key: 'mo', email: 'mo@x.io' });
    expect((await api.users.getByKey('mo')).id).toBe(user.id);
    await api.resourceInstances.create({ key: 'm1', tenant: 'memos', resource: 'memo' });
    await api.resourceInstances.create({ key: 'b1', tenant: 'memos', resource: 'binder' });
    expect((await api.resourceInstances.getByKey('memo:m1')).key).toBe('m1');
    const tuple = { subject: 'binder:b1', relation: 'binder', object: 'memo:m1', tenant: 'memos' };
    await api.relationshipTuples.bulkRelationshipTuples([tuple]);
    const tuplesOf = async () => ((await api.relationshipTuples.list({ tenant: 'memos' } as never)) as any[]).map((x) => x.subject);
    expect(await tuplesOf()).toEqual(['binder:b1']);
    await api.relationshipTuples.bulkUnRelationshipTuples([{ subject: 'binder:b1', relation: 'binder', object: 'memo:m1' }]);
    expect(await tuplesOf()).toEqual([]);

    // The deprecated helpers of permit.api, each the call it replaced.
    expect((await api.createUser({ key: 'dep', email: 'dep@x.io' })).key).toBe('dep');
    expect((await api.getUser('dep')).email).toBe('dep@x.io');
    expect((await api.updateUser('dep', { first_name: 'Dee' })).first_name).toBe('Dee');
    expect(keys(await api.listUsers())).toEqual(expect.arrayContaining(['dep', 'mo']));
    expect((await api.createTenant({ key: 'dept', name: 'Dept' })).key).toBe('dept');
    expect((await api.getTenant('dept')).name).toBe('Dept');
    expect((await api.updateTenant('dept', { name: 'Department' })).name).toBe('Department');
    expect(keys(await api.listTenants())).toEqual(expect.arrayContaining(['dept', 'memos']));
    expect((await api.createResource({ key: 'note', name: 'Note', actions: { read: {} } })).key).toBe('note');
    expect((await api.updateResource('note', { name: 'Notes' })).name).toBe('Notes');
    expect((await api.createRole({ key: 'noter', name: 'Noter', permissions: ['note:read'] })).permissions).toEqual(['note:read']);
    expect((await api.getRole('noter')).name).toBe('Noter');
    expect((await api.updateRole('noter', { name: 'Note reader' })).name).toBe('Note reader');
    expect(keys(await api.listRoles())).toEqual(expect.arrayContaining(['boss', 'noter']));
    expect((await api.assignRole({ user: 'dep', role: 'noter', tenant: 'dept' })).role).toBe('noter');
    expect((await api.getAssignedRoles('dep', 'dept')).map((a: any) => a.role)).toEqual(['noter']);
    expect(await permit.check('dep', 'read', { type: 'note', tenant: 'dept' })).toBe(true);
    await api.unassignRole({ user: 'dep', role: 'noter', tenant: 'dept' });
    expect(await permit.check('dep', 'read', { type: 'note', tenant: 'dept' })).toBe(false);
    const set = await api.createConditionSet({
      key: 'dees',
      name: 'Dees',
      type: 'userset',
      conditions: { allOf: [{ 'user.email': { equals: 'dep@x.io' } }] },
    } as never);
    expect((await api.updateConditionSet('dees', { name: 'The Dees' })).name).toBe('The Dees');
    expect(keys(await api.listConditionSets('userset' as never, 1, 100))).toEqual(['dees']);
    const rule = { user_set: 'dees', permission: 'note:read', resource_set: 'note', is_resource: true };
    const rules = await api.assignConditionSetRule(rule);
    expect((rules as any[]).map((r) => [r.user_set, r.permission, r.resource_set])).toEqual([['dees', 'note:read', 'note']]);
    expect((await api.listConditionSetsRules(1, 100)).map((r: any) => r.user_set)).toEqual(['dees']);
    expect(await permit.check('dep', 'read', { type: 'note', tenant: 'dept' })).toBe(true);
    await api.unassignConditionSetRule(rule);
    expect(await permit.check('dep', 'read', { type: 'note', tenant: 'dept' })).toBe(false);
    await api.deleteConditionSet(set.key);
    await api.deleteRole('noter');
    await api.deleteResource('note');
    await api.deleteTenant('dept');
    await api.deleteUser('dep');
    await expect(api.getUser('dep')).rejects.toThrow();
    await expect(api.getTenant('dept')).rejects.toThrow();
    await expect(api.getRole('noter')).rejects.toThrow();
    await expect(api.resources.get('note')).rejects.toThrow();
    await api.resources.delete('binder');
    await expect(api.resources.get('binder')).rejects.toThrow();

    // Projects and environments by key and id, and the project list (organization-level key).
    expect((await org.api.projects.getByKey(t.proj)).key).toBe(t.proj);
    expect(keys(await org.api.projects.list())).toContain(t.proj);
    const env = await org.api.environments.getByKey(t.proj, t.env);
    expect((await org.api.environments.getById(env.project_id, env.id)).key).toBe(t.env);
  });
});
