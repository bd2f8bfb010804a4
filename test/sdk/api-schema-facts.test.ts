import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../support/testService';
import { AuthzClient, ForbiddenError, NotFoundError, UnauthorizedError } from './sdk';

/** Provisioning (admin key), schema and facts collections, role assignments and tuples, through `client.api`. */
let t: TestService;
let admin: AuthzClient;
let authz: AuthzClient;

beforeAll(async () => {
  t = await startTestService();
  admin = new AuthzClient({ baseUrl: t.url, token: t.adminKey, project: t.proj, env: t.env });
  authz = new AuthzClient({ baseUrl: t.url, token: t.envKey });
});
afterAll(async () => t?.close());

const api = () => authz.api;

describe('provisioning with the admin key', () => {
  it('creates, lists, reads and deletes projects, environments and keys', async () => {
    const P = `sdk_${randomUUID().slice(0, 8)}`;
    const p = await admin.api.projects.create({ key: P, name: 'SDK project' });
    expect(p).toMatchObject({ key: P, name: 'SDK project', id: expect.any(String) });
    expect(await admin.api.projects.get(P)).toEqual(p);
    expect(await admin.api.projects.get(p.id)).toEqual(p);
    // The run's Neo4j holds the projects of every test file: check the paging, not the whole list.
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    const projects = await admin.api.projects.list({ per_page: 2 });
    expect(projects).toHaveLength(2);
    const next = await admin.api.projects.list({ per_page: 2, page: 2 });
    expect(next.map((x) => x.id)).not.toContain(projects[0].id);

    const e = await admin.api.environments.create(P, { key: 'staging', name: 'Staging' });
    expect(e).toMatchObject({ key: 'staging', project_id: p.id });
    expect(await admin.api.environments.get(P, 'staging')).toEqual(e);
    expect((await admin.api.environments.list(P)).map((x) => x.key)).toEqual(['staging']);

    // The environment has a key from its creation, without a secret until a rotation gives it one
    // (docs/permit-sdks.md); a key created next is listed beside it, its secret shown once.
    const own = await admin.api.apiKeys.environmentKey({ project: P, env: 'staging' });
    expect(own).toMatchObject({ environment_id: e.id, object_type: 'env', prefix: null });
    const key = await admin.api.apiKeys.create({ name: 'ci' }, { project: P, env: 'staging' });
    expect(key.secret).toEqual(expect.any(String));
    expect(await admin.api.apiKeys.environmentKey({ project: P, env: 'staging' })).toEqual(own);
    const listed = await admin.api.apiKeys.list({}, { project: P, env: 'staging' });
    expect(listed.data.map((k) => k.id).sort()).toEqual([own.id, key.id].sort());
    expect(JSON.stringify(listed)).not.toContain(key.secret);

    // A client with only the new key works in its environment, found through the key's scope.
    const scoped = new AuthzClient({ baseUrl: t.url, token: key.secret });
    expect(await scoped.api.apiKeys.scope()).toEqual({ organization_id: expect.any(String), project_id: p.id, environment_id: e.id });
    expect(await scoped.scope()).toEqual({ project: p.id, env: e.id });
    await scoped.api.tenants.create({ key: 'staging-tenant', name: 'T' });
    expect((await scoped.api.tenants.list()).map((x) => x.key)).toContain('staging-tenant');

    await admin.api.apiKeys.delete(key.id, { project: P, env: 'staging' });
    await expect(scoped.api.tenants.list()).rejects.toBeInstanceOf(UnauthorizedError);

    await admin.api.environments.delete(P, 'staging');
    await expect(admin.api.environments.get(P, 'staging')).rejects.toBeInstanceOf(NotFoundError);
    await admin.api.projects.delete(P);
    await expect(admin.api.projects.get(P)).rejects.toMatchObject({ status: 404, errorCode: 'NOT_FOUND' });
  });

  it("creates read keys, rotates and revokes keys of the client's environment; an environment key may not", async () => {
    const k = await admin.api.apiKeys.create({ access_level: 'read', name: 'checker' });
    expect(k).toMatchObject({ access_level: 'read', name: 'checker', secret: expect.any(String) });
    expect((await admin.api.apiKeys.list({ per_page: 100 })).data.find((x) => x.id === k.id)).toMatchObject({ access_level: 'read' });
    const reader = new AuthzClient({ baseUrl: t.url, token: k.secret });
    expect(await reader.check('nobody', 'read', 'doc:x')).toBe(false);
    await expect(reader.api.tenants.create({ key: 'nope', name: 'Nope' })).rejects.toMatchObject({
      status: 403,
      errorCode: 'FORBIDDEN_ACCESS',
    });

    const rotated = await admin.api.apiKeys.rotate(k.id);
    expect(rotated).toEqual({ id: k.id, secret: expect.any(String) });
    await expect(reader.check('nobody', 'read', 'doc:x')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await new AuthzClient({ baseUrl: t.url, token: rotated.secret }).check('nobody', 'read', 'doc:x')).toBe(false);

    await expect(authz.api.apiKeys.create()).rejects.toBeInstanceOf(ForbiddenError);
    await expect(authz.api.apiKeys.rotate(k.id)).rejects.toBeInstanceOf(ForbiddenError);
    await admin.api.apiKeys.delete(k.id);
    expect((await admin.api.apiKeys.list({ per_page: 100 })).data.map((x) => x.id)).not.toContain(k.id);
    expect(await admin.scope()).toEqual({ project: t.proj, env: t.env });
  });
});

describe('schema', () => {
  it('resources: create, list, get, update, replace, listActions, delete', async () => {
    const r = await api().resources.create({ key: 'ship', name: 'Ship', actions: { sail: {}, dock: { name: 'Dock' } } });
    expect(Object.keys(r.actions).sort()).toEqual(['dock', 'sail']);
    expect(await api().resources.get('ship')).toEqual(r);
    expect((await api().resources.list({ search: 'shi' })).map((x) => x.key)).toEqual(['ship']);
    const updated = await api().resources.update('ship', { description: 'boats' });
    expect(updated).toMatchObject({ key: 'ship', description: 'boats' });
    const replaced = await api().resources.replace('ship', { name: 'Vessel', actions: { sail: {} } });
    expect(replaced).toMatchObject({ name: 'Vessel' });
    expect((await api().resources.listActions('ship')).map((a) => a.key)).toEqual(['sail']);
    await api().resources.delete('ship');
    await expect(api().resources.get('ship')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('tenant roles: create, list, get, update, delete', async () => {
    await api().resources.create({ key: 'note', name: 'Note', actions: { read: {}, edit: {} } });
    const role = await api().roles.create({ key: 'reader', name: 'Reader', permissions: ['note:read'] });
    expect(role).toMatchObject({ key: 'reader', permissions: ['note:read'] });
    expect(await api().roles.get('reader')).toEqual(role);
    expect((await api().roles.list()).map((x) => x.key)).toContain('reader');
    expect(await api().roles.update('reader', { permissions: ['note:read', 'note:edit'] })).toMatchObject({
      permissions: ['note:read', 'note:edit'],
    });
    await api().roles.delete('reader');
    await expect(api().roles.get('reader')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('resource roles, relations and role derivations, with tuples driving a check', async () => {
    await api().resources.create({ key: 'folder', name: 'Folder', actions: { read: {} } });
    await api().resources.create({ key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
    const fv = await api().resourceRoles.create('folder', { key: 'viewer', name: 'Viewer', permissions: ['read'] });
    expect(fv).toMatchObject({ key: 'viewer', resource: 'folder', permissions: ['read'] });
    await api().resourceRoles.create('doc', { key: 'viewer', name: 'Viewer', permissions: ['read'] });
    await api().resourceRoles.create('doc', { key: 'editor', name: 'Editor', permissions: ['read'] });
    expect((await api().resourceRoles.list('doc')).map((x) => x.key).sort()).toEqual(['editor', 'viewer']);
    expect(await api().resourceRoles.update('doc', 'editor', { permissions: ['read', 'write'] })).toMatchObject({
      permissions: ['read', 'write'],
    });
    expect(await api().resourceRoles.get('doc', 'editor')).toMatchObject({ key: 'editor', permissions: ['read', 'write'] });

    const rel = await api().resourceRelations.create('doc', { key: 'parent', name: 'Parent', subject_resource: 'folder' });
    expect(rel).toMatchObject({ key: 'parent', subject_resource: 'folder', object_resource: 'doc' });
    expect(await api().relations.get('doc', 'parent')).toEqual(rel);
    expect(await api().resourceRelations.update('doc', 'parent', { name: 'Parent folder' })).toMatchObject({ name: 'Parent folder' });

    const rule = { role: 'viewer', on_resource: 'folder', linked_by_relation: 'parent' };
    const d = await api().roleDerivations.create('doc', 'viewer', rule);
    expect(d).toMatchObject({ ...rule, resource: 'doc', resource_role: 'viewer' });

    await api().tenants.create({ key: 't1', name: 'T1' });
    await api().users.create({ key: 'uma' });
    await api().resourceInstances.create({ key: 'f1', tenant: 't1', resource: 'folder' });
    await api().resourceInstances.create({ key: 'd1', tenant: 't1', resource: 'doc' });
    await api().roleAssignments.assign({ user: 'uma', role: 'viewer', tenant: 't1', resource_instance: 'folder:f1' });
    const tuple = await api().relationshipTuples.create({ subject: 'folder:f1', relation: 'parent', object: 'doc:d1', tenant: 't1' });
    expect(tuple).toMatchObject({ subject: 'folder:f1', relation: 'parent', object: 'doc:d1' });
    expect(await authz.check('uma', 'read', 'doc:d1')).toBe(true);

    await api().implicitGrants.delete('doc', 'viewer', rule);
    expect(await authz.check('uma', 'read', 'doc:d1')).toBe(false);
    await api().resourceRoles.createRoleDerivation('doc', 'editor', rule);
    expect(await authz.check('uma', 'write', 'doc:d1')).toBe(true);
    await api().resourceRoles.deleteRoleDerivation('doc', 'editor', rule);
    expect(await authz.check('uma', 'write', 'doc:d1')).toBe(false);

    await api().relationshipTuples.delete({ subject: 'folder:f1', relation: 'parent', object: 'doc:d1' });
    expect(await api().relationshipTuples.list({ object: 'doc:d1' })).toEqual([]);
    await api().resourceRelations.delete('doc', 'parent');
    expect((await api().resourceRelations.list('doc')).data).toEqual([]);
    await api().resourceRoles.delete('doc', 'editor');
    await expect(api().resourceRoles.get('doc', 'editor')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('facts', () => {
  const odd = 'auth0|42/"quoted" `tick` é ✓';

  it('tenants and tenant users', async () => {
    const tn = await api().tenants.create({ key: 'co/1', name: 'Co 1', attributes: { tier: 'gold' } });
    expect(await api().tenants.get('co/1')).toEqual(tn);
    expect(await api().tenants.update('co/1', { name: 'Company 1' })).toMatchObject({
      key: 'co/1',
      name: 'Company 1',
      attributes: { tier: 'gold' },
    });
    expect((await api().tenants.list({ search: 'co/' })).map((x) => x.key)).toEqual(['co/1']);
    const u = await api().tenants.addTenantUser('co/1', { key: odd, email: 'odd@x.test' });
    expect(u).toMatchObject({ key: odd, email: 'odd@x.test' });
    expect((await api().tenants.listTenantUsers('co/1')).data.map((x) => x.key)).toEqual([odd]);
    await api().tenants.deleteTenantUser('co/1', odd);
    expect((await api().tenants.listTenantUsers('co/1')).total_count).toBe(0);
    await api().tenants.delete('co/1');
    await expect(api().tenants.get('co/1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('users, with keys that need encoding', async () => {
    const u = await api().users.create({ key: `${odd}-2`, first_name: 'Odd' });
    expect(await api().users.get(`${odd}-2`)).toEqual(u);
    expect(await api().users.update(`${odd}-2`, { last_name: 'Key' })).toMatchObject({ first_name: 'Odd', last_name: 'Key' });
    expect((await api().users.list({ search: 'auth0|42' })).data.map((x) => x.key)).toContain(`${odd}-2`);
    await api().tenants.create({ key: 't2', name: 'T2' });
    await api().roles.create({ key: 'member', name: 'Member', permissions: [] });
    const a = await api().users.assignRole({ user: `${odd}-2`, role: 'member', tenant: 't2' });
    expect(a).toMatchObject({ user: `${odd}-2`, role: 'member', tenant: 't2' });
    expect((await api().users.list({ tenant: 't2' })).data.map((x) => x.key)).toEqual([`${odd}-2`]);
    await api().users.unassignRole({ user: `${odd}-2`, role: 'member', tenant: 't2' });
    expect(await api().roleAssignments.list({ user: `${odd}-2` })).toEqual([]);
    await api().users.delete(`${odd}-2`);
    await expect(api().users.get(`${odd}-2`)).rejects.toMatchObject({ status: 404, errorCode: 'NOT_FOUND' });
  });

  it('resource instances by "type:key" and id', async () => {
    await api().resources.create({ key: 'box', name: 'Box', actions: { open: {} } });
    await api().tenants.create({ key: 't3', name: 'T3' });
    const i = await api().resourceInstances.create({ key: 'a/b:c', tenant: 't3', resource: 'box', attributes: { size: 1 } });
    expect(await api().resourceInstances.get('box:a/b:c')).toEqual(i);
    expect(await api().resourceInstances.get(i.id)).toEqual(i);
    expect(await api().resourceInstances.update('box:a/b:c', { attributes: { size: 2 } })).toMatchObject({ attributes: { size: 2 } });
    expect((await api().resourceInstances.list({ resource: 'box', tenant: 't3' })).map((x) => x.key)).toEqual(['a/b:c']);
    await api().resourceInstances.delete('box:a/b:c');
    await expect(api().resourceInstances.get('box:a/b:c')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('role assignments and relationship tuples, one by one and in bulk', async () => {
    await api().resources.create({
      key: 'crate',
      name: 'Crate',
      actions: { lift: {} },
      roles: { porter: { name: 'Porter', permissions: ['lift'] } },
    });
    await api().roles.create({ key: 'staff', name: 'Staff', permissions: ['crate:lift'] });
    await api().tenants.create({ key: 't4', name: 'T4' });
    for (const key of ['p1', 'p2', 'p3']) await api().users.create({ key });
    await api().resourceInstances.create({ key: 'c1', tenant: 't4', resource: 'crate' });

    const bulk = [
      { user: 'p1', role: 'staff', tenant: 't4' },
      { user: 'p2', role: 'porter', tenant: 't4', resource_instance: 'crate:c1' },
    ];
    expect(await api().roleAssignments.bulkAssign(bulk)).toEqual({ assignments_created: 2 });
    expect(await api().roleAssignments.list({ tenant: 't4' })).toHaveLength(2);
    expect(await api().roleAssignments.list({ resource_instance: 'crate:c1' })).toEqual([
      expect.objectContaining({ user: 'p2', role: 'porter', resource_instance: 'crate:c1' }),
    ]);
    expect(await authz.check('p1', 'lift', { type: 'crate', key: 'c1', tenant: 't4' })).toBe(true);
    expect(await authz.check('p2', 'lift', 'crate:c1')).toBe(true);
    await api().roleAssignments.assign({ user: 'p3', role: 'staff', tenant: 't4' });
    await api().roleAssignments.unassign({ user: 'p3', role: 'staff', tenant: 't4' });
    expect(await api().roleAssignments.bulkUnassign(bulk)).toEqual({ assignments_removed: 2 });
    expect(await api().roleAssignments.list({ tenant: 't4' })).toEqual([]);

    await api().resourceRelations.create('crate', { key: 'inside', name: 'Inside', subject_resource: 'crate' });
    const tuples = [1, 2, 3].map((n) => ({ subject: `crate:s${n}`, relation: 'inside', object: 'crate:c1', tenant: 't4' }));
    expect(await api().relationshipTuples.bulkCreate(tuples.slice(0, 2))).toEqual({ tuples_created: 2 });
    expect(await api().relationshipTuples.bulkRelationshipTuples(tuples)).toEqual({ tuples_created: 1 });
    expect(await api().relationshipTuples.list({ relation: 'inside', per_page: 2 })).toHaveLength(2);
    expect(await api().relationshipTuples.list({ relation: 'inside', per_page: 2, page: 2 })).toHaveLength(1);
    expect(await api().relationshipTuples.bulkDelete(tuples.slice(0, 1))).toEqual({ tuples_removed: 1 });
    expect(await api().relationshipTuples.bulkUnRelationshipTuples(tuples)).toEqual({ tuples_removed: 2 });
    expect(await api().relationshipTuples.list({ object: 'crate:c1' })).toEqual([]);
  });
});
