import { buildWorld, login, ok, request, type World } from './approvals-support';

/**
 * Every write records its change events in its own transaction (docs/behaviour.md section 12), with the
 * actor that made it; GET .../changes answers them in revision order and resumes exactly after
 * a given revision, with no gap and no duplicate across pages.
 */
let w: World;
let keyId: string;
const feed = () => `/v2/facts/${w.t.proj}/${w.t.env}/changes`;

beforeAll(async () => {
  w = await buildWorld();
  // The test's key (the environment's own key, made with it, is listed first).
  const listed = (await ok(w.t, 'GET', `/v2/api-key/${w.t.proj}/${w.t.env}/keys`)).data;
  keyId = listed.find((k: { prefix: string | null }) => k.prefix === w.t.envKey.slice(0, 10)).id;
});
afterAll(async () => w?.t.close());

interface Change {
  revision: number;
  at: string;
  actor: { kind: string; id: string };
  op: string;
  kind: string;
  key: string;
  before?: any;
  after?: any;
}

/** Every change after `after`, read page by page. */
async function allChanges(after = 0, pageSize = 1000): Promise<Change[]> {
  const out: Change[] = [];
  for (let rev = after; ; ) {
    const page = await ok(w.t, 'GET', `${feed()}?after_revision=${rev}&page_size=${pageSize}`);
    if (!page.changes.length) {
      expect(page.next_revision).toBe(rev);
      return out;
    }
    out.push(...page.changes);
    rev = page.next_revision;
  }
}

const lastRevision = async () => (await allChanges()).at(-1)?.revision ?? 0;

/** Runs one write and answers the change events it recorded. */
async function changesOf(write: () => Promise<{ status: number; body: any }>): Promise<Change[]> {
  const before = await lastRevision();
  const res = await write();
  if (res.status >= 300) throw new Error(`write failed: ${res.status} ${JSON.stringify(res.body)}`);
  return allChanges(before);
}

const admin = { kind: 'admin', id: 'admin' };
const asAdmin = (method: string, path: string, body?: unknown) => () => w.t.call(method, path, body);
const asKey = (method: string, path: string, body?: unknown) => () => w.t.call(method, path, body, { key: w.t.envKey });

it('records one event per change through every family of endpoints, with its actor', async () => {
  const envKey = { kind: 'env_key', id: keyId };
  const cases: [string, () => Promise<{ status: number; body: any }>, Partial<Change> | Partial<Change>[]][] = [
    [
      'schema create',
      asAdmin('POST', `${w.schema}/resources`, { key: 'folder', name: 'Folder', actions: { read: {} } }),
      { op: 'create', kind: 'resource', key: 'folder', actor: admin },
    ],
    [
      'schema update',
      asKey('PATCH', `${w.schema}/roles/auditor`, { description: 'reads' }),
      { op: 'update', kind: 'role', key: 'auditor', actor: envKey },
    ],
    [
      'schema create role',
      asAdmin('POST', `${w.schema}/roles`, { key: 'temp', name: 'Temp' }),
      { op: 'create', kind: 'role', key: 'temp', actor: admin },
    ],
    ['schema delete', asAdmin('DELETE', `${w.schema}/roles/temp`), { op: 'delete', kind: 'role', key: 'temp', actor: admin }],
    [
      'facts create',
      asKey('POST', `${w.facts}/users`, { key: 'zoe', email: 'zoe@acme.test' }),
      { op: 'create', kind: 'user', key: 'zoe', actor: envKey },
    ],
    [
      'facts update',
      asAdmin('PATCH', `${w.facts}/users/zoe`, { first_name: 'Zoe' }),
      { op: 'update', kind: 'user', key: 'zoe', actor: admin },
    ],
    [
      'facts tenant',
      asKey('POST', `${w.facts}/tenants`, { key: 'initech', name: 'Initech' }),
      { op: 'create', kind: 'tenant', key: 'initech', actor: envKey },
    ],
    [
      'assignment',
      asKey('POST', `${w.facts}/role_assignments`, { user: 'zoe', role: 'auditor', tenant: 'acme' }),
      { op: 'create', kind: 'role_assignment', actor: envKey },
    ],
    [
      'unassignment',
      asAdmin('DELETE', `${w.facts}/role_assignments`, { user: 'zoe', role: 'auditor', tenant: 'acme' }),
      { op: 'delete', kind: 'role_assignment', key: 'zoe/auditor/acme', actor: admin },
    ],
    [
      'resource instance',
      asAdmin('POST', `${w.facts}/resource_instances`, { key: 'f1', tenant: 'acme', resource: 'folder' }),
      { op: 'create', kind: 'resource_instance', key: 'f1', actor: admin },
    ],
    [
      'relation',
      asAdmin('POST', `${w.schema}/resources`, { key: 'page', name: 'Page', actions: { read: {} }, relations: { parent: 'folder' } }),
      [
        { op: 'create', kind: 'resource', key: 'page', actor: admin },
        { op: 'create', kind: 'relation', key: 'parent', actor: admin },
      ],
    ],
    [
      'tuple',
      asKey('POST', `${w.facts}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'page:p1', tenant: 'acme' }),
      { op: 'create', kind: 'relationship_tuple', actor: envKey },
    ],
    [
      'tuple delete',
      asAdmin('DELETE', `${w.facts}/relationship_tuples`, { subject: 'folder:f1', relation: 'parent', object: 'page:p1' }),
      { op: 'delete', kind: 'relationship_tuple', key: 'folder/f1/parent/page/p1', actor: admin },
    ],
    [
      'group',
      asKey('POST', `${w.schema}/groups`, { group_instance_key: 'eng', group_tenant: 'acme' }),
      { op: 'create', kind: 'group', actor: envKey },
    ],
    [
      'group member',
      asAdmin('PUT', `${w.schema}/groups/eng/users/carol`, { tenant: 'acme' }),
      { op: 'create', kind: 'group_member', actor: admin },
    ],
    [
      'elements',
      asAdmin('PATCH', `/v2/elements/${w.t.proj}/${w.t.env}/config/ops`, { name: 'Ops' }),
      { op: 'update', kind: 'elements_config', actor: admin },
    ],
    ['facts delete', asAdmin('DELETE', `${w.facts}/users/zoe`), { op: 'delete', kind: 'user', key: 'zoe', actor: admin }],
  ];
  for (const [what, write, expected] of cases) {
    const changes = await changesOf(write);
    const each = Array.isArray(expected) ? expected : [expected];
    expect({ what, changes }).toEqual({ what, changes: each.map((e) => expect.objectContaining(e)) });
  }
});

it('shows an updated record before and after the change, and a deleted one before it', async () => {
  const one = async (write: () => Promise<{ status: number; body: any }>) => {
    const changes = await changesOf(write);
    expect(changes).toHaveLength(1);
    return changes[0];
  };
  await ok(w.t, 'POST', `${w.facts}/tenants`, { key: 'hooli', name: 'Hooli' });
  const tenant = await one(asAdmin('PATCH', `${w.facts}/tenants/hooli`, { name: 'Hooli XYZ' }));
  expect(tenant).toMatchObject({
    op: 'update',
    kind: 'tenant',
    key: 'hooli',
    before: { key: 'hooli', name: 'Hooli' },
    after: { key: 'hooli', name: 'Hooli XYZ' },
  });

  await ok(w.t, 'POST', `${w.facts}/users`, { key: 'gavin', email: 'gavin@hooli.test', first_name: 'Gav' });
  const user = await one(asKey('PATCH', `${w.facts}/users/gavin`, { first_name: 'Gavin' }));
  expect(user).toMatchObject({
    op: 'update',
    kind: 'user',
    key: 'gavin',
    before: { first_name: 'Gav', email: 'gavin@hooli.test' },
    after: { first_name: 'Gavin', email: 'gavin@hooli.test' },
  });

  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'viewer', name: 'Viewer', description: 'sees' });
  const role = await one(asAdmin('PATCH', `${w.schema}/roles/viewer`, { description: 'sees all' }));
  expect(role).toMatchObject({
    op: 'update',
    kind: 'role',
    key: 'viewer',
    before: { description: 'sees' },
    after: { description: 'sees all' },
  });

  await ok(w.t, 'POST', `${w.schema}/groups`, { group_instance_key: 'sales', group_tenant: 'acme', name: 'Sales' });
  const group = await one(asAdmin('PATCH', `${w.schema}/groups/sales`, { name: 'Sales EMEA' }));
  expect(group).toMatchObject({ op: 'update', kind: 'group', before: { name: 'Sales' }, after: { name: 'Sales EMEA' } });

  // PUT users/{key}: created (no before), then replaced (fields not given are cleared).
  const synced = await one(asKey('PUT', `${w.facts}/users/pete`, { email: 'pete@hooli.test', first_name: 'Pete' }));
  expect(synced).toMatchObject({ op: 'update', kind: 'user', key: 'pete', after: { key: 'pete', email: 'pete@hooli.test' } });
  expect(synced.before).toBeUndefined();
  const resynced = await one(asKey('PUT', `${w.facts}/users/pete`, { last_name: 'P' }));
  expect(resynced).toMatchObject({
    op: 'update',
    kind: 'user',
    key: 'pete',
    before: { email: 'pete@hooli.test', first_name: 'Pete' },
    after: { key: 'pete', last_name: 'P' },
  });
  expect(resynced.after.email).toBeUndefined();

  const deleted = await one(asAdmin('DELETE', `${w.facts}/users/gavin`));
  expect(deleted).toMatchObject({
    op: 'delete',
    kind: 'user',
    key: 'gavin',
    before: { key: 'gavin', first_name: 'Gavin', email: 'gavin@hooli.test' },
  });
  expect(deleted.after).toBeUndefined();
  const deletedTenant = await one(asAdmin('DELETE', `${w.facts}/tenants/hooli`));
  expect(deletedTenant).toMatchObject({ op: 'delete', kind: 'tenant', key: 'hooli', before: { key: 'hooli', name: 'Hooli XYZ' } });

  await ok(w.t, 'POST', `${w.schema}/resources`, {
    key: 'sheet',
    name: 'Sheet',
    actions: { read: {} },
    roles: { editor: { name: 'Editor' } },
  });
  const resourceRole = await one(asAdmin('PATCH', `${w.schema}/resources/sheet/roles/editor`, { name: 'Sheet editor' }));
  expect(resourceRole).toMatchObject({ op: 'update', key: 'editor', before: { name: 'Editor' }, after: { name: 'Sheet editor' } });
  const deletedResource = await one(asAdmin('DELETE', `${w.schema}/resources/sheet`));
  expect(deletedResource).toMatchObject({ op: 'delete', kind: 'resource', key: 'sheet', before: { key: 'sheet', name: 'Sheet' } });
});

it('records each record a bulk delete or replace changed, with its stored state before (and after)', async () => {
  const byKey = (list: Change[]) => [...list].sort((a, b) => (a.key < b.key ? -1 : 1));
  const users = { rita: 'rita@x.test', sam: 'sam@x.test', tom: 'tom@x.test' };
  const ids: Record<string, string> = {};
  for (const [key, email] of Object.entries(users)) {
    ids[key] = (await ok(w.t, 'POST', `${w.facts}/users`, { key, email, first_name: key.toUpperCase(), attributes: { plan: key } })).id;
  }

  // A bulk replace of existing users only (it creates none) and one that also creates a user.
  const replaced = byKey(
    await changesOf(
      asKey('PUT', `${w.facts}/bulk/users`, {
        operations: [
          { key: 'rita', first_name: 'Rita' },
          { key: 'sam', email: 'sam@new.test' },
        ],
      }),
    ),
  );
  expect(replaced).toEqual([
    expect.objectContaining({
      op: 'update',
      kind: 'user',
      key: 'rita',
      actor: { kind: 'env_key', id: keyId },
      before: expect.objectContaining({
        key: 'rita',
        id: ids.rita,
        email: 'rita@x.test',
        first_name: 'RITA',
        attributes_json: '{"plan":"rita"}',
      }),
      after: expect.objectContaining({ key: 'rita', id: ids.rita, first_name: 'Rita', attributes_json: '{}' }),
    }),
    expect.objectContaining({
      op: 'update',
      kind: 'user',
      key: 'sam',
      before: expect.objectContaining({ email: 'sam@x.test', first_name: 'SAM' }),
      after: expect.objectContaining({ email: 'sam@new.test' }),
    }),
  ]);
  expect([replaced[0].after.email, replaced[1].after.first_name]).toEqual([undefined, undefined]);
  const made = byKey(
    await changesOf(
      asKey('PUT', `${w.facts}/bulk/users`, {
        operations: [
          { key: 'tom', last_name: 'T' },
          { key: 'uma', email: 'uma@x.test' },
        ],
      }),
    ),
  );
  expect(made).toEqual([
    expect.objectContaining({
      op: 'update',
      kind: 'user',
      key: 'tom',
      before: expect.objectContaining({ email: 'tom@x.test' }),
      after: expect.objectContaining({ last_name: 'T' }),
    }),
    expect.objectContaining({
      op: 'update',
      kind: 'user',
      key: 'uma',
      after: expect.objectContaining({ key: 'uma', email: 'uma@x.test' }),
    }),
  ]);
  expect(made[1].before).toBeUndefined();

  // Role assignments: tenant roles and a role on an instance (its tenant left to the instance's).
  await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key: 'd9', tenant: 'acme', resource: 'doc' });
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  await ok(w.t, 'POST', `${w.facts}/role_assignments/bulk`, [
    { user: 'rita', role: 'auditor', tenant: 'acme' },
    { user: 'rita', role: 'approver', tenant: 'acme' },
    { user: 'rita', role: 'approver', resource_instance: 'doc:d9', expires_at: expires },
  ]);
  const listed = (await ok(w.t, 'GET', `${w.facts}/role_assignments?user=rita`)) as {
    id: string;
    role: string;
    resource_instance?: string;
    created_at: string;
  }[];
  const unassigned = byKey(
    await changesOf(
      asAdmin('DELETE', `${w.facts}/role_assignments/bulk`, [
        { user: 'rita', role: 'auditor', tenant: 'acme' },
        { user: 'rita', role: 'approver', resource_instance: 'doc:d9' },
        { user: 'rita', role: 'auditor', tenant: 'other' },
      ]),
    ),
  );
  const listedOf = (role: string, inst?: string) => listed.find((a) => a.role === role && a.resource_instance === inst)!;
  expect(unassigned).toEqual([
    expect.objectContaining({
      op: 'delete',
      kind: 'role_assignment',
      key: 'rita/approver/acme/doc/d9',
      before: {
        id: listedOf('approver', 'doc:d9').id,
        user: 'rita',
        role: 'approver',
        tenant: 'acme',
        resource_instance: 'doc:d9',
        created_at: listedOf('approver', 'doc:d9').created_at,
        expires_at: expires,
      },
    }),
    expect.objectContaining({
      op: 'delete',
      kind: 'role_assignment',
      key: 'rita/auditor/acme',
      before: {
        id: listedOf('auditor').id,
        user: 'rita',
        role: 'auditor',
        tenant: 'acme',
        resource_instance: null,
        created_at: listedOf('auditor').created_at,
        expires_at: null,
      },
    }),
  ]);

  // Relationship tuples, one named with its tenant (the key says so, as it always did).
  await ok(w.t, 'POST', `${w.schema}/resources`, { key: 'box', name: 'Box', actions: { read: {} }, relations: { inside: 'box' } });
  for (const key of ['b1', 'b2', 'b3']) await ok(w.t, 'POST', `${w.facts}/resource_instances`, { key, tenant: 'acme', resource: 'box' });
  const t1 = await ok(w.t, 'POST', `${w.facts}/relationship_tuples`, { subject: 'box:b1', relation: 'inside', object: 'box:b2' });
  const t2 = await ok(w.t, 'POST', `${w.facts}/relationship_tuples`, {
    subject: 'box:b2',
    relation: 'inside',
    object: 'box:b3',
    expires_at: expires,
  });
  const untupled = byKey(
    await changesOf(
      asKey('DELETE', `${w.facts}/relationship_tuples/bulk`, {
        idents: [
          { subject: 'box:b1', relation: 'inside', object: 'box:b2', tenant: 'acme' },
          { subject: 'box:b2', relation: 'inside', object: 'box:b3' },
          { subject: 'box:b3', relation: 'inside', object: 'box:b1' },
        ],
      }),
    ),
  );
  expect(untupled).toEqual([
    expect.objectContaining({
      op: 'delete',
      kind: 'relationship_tuple',
      key: 'box/b1/inside/box/b2/acme',
      before: {
        id: t1.id,
        subject: 'box:b1',
        relation: 'inside',
        object: 'box:b2',
        tenant: 'acme',
        created_at: t1.created_at,
        expires_at: null,
      },
    }),
    expect.objectContaining({
      op: 'delete',
      kind: 'relationship_tuple',
      key: 'box/b2/inside/box/b3',
      before: {
        id: t2.id,
        subject: 'box:b2',
        relation: 'inside',
        object: 'box:b3',
        tenant: 'acme',
        created_at: t2.created_at,
        expires_at: expires,
      },
    }),
  ]);

  // Users by key and by id: keyed by the user's key either way, with what the request did not say.
  const deleted = byKey(await changesOf(asAdmin('DELETE', `${w.facts}/bulk/users`, { idents: ['rita', ids.sam] })));
  expect(deleted).toEqual([
    expect.objectContaining({
      op: 'delete',
      kind: 'user',
      key: 'rita',
      before: expect.objectContaining({ key: 'rita', id: ids.rita, first_name: 'Rita', attributes_json: '{}' }),
    }),
    expect.objectContaining({
      op: 'delete',
      kind: 'user',
      key: 'sam',
      before: expect.objectContaining({ key: 'sam', id: ids.sam, email: 'sam@new.test' }),
    }),
  ]);
  expect(deleted.every((c) => c.after === undefined)).toBe(true);

  // Resource instances (replaced, then deleted) and tenants.
  const boxes = byKey(
    await changesOf(
      asKey('PUT', `${w.facts}/bulk/resource_instances`, {
        operations: [{ key: 'b1', tenant: 'acme', resource: 'box', attributes: { size: 2 } }],
      }),
    ),
  );
  expect(boxes).toEqual([
    expect.objectContaining({
      op: 'update',
      kind: 'resource_instance',
      key: 'b1',
      before: expect.objectContaining({ key: 'b1', resource: 'box', tenant: 'acme', attributes_json: '{}' }),
      after: expect.objectContaining({ key: 'b1', attributes_json: '{"size":2}' }),
    }),
  ]);
  const gone = byKey(await changesOf(asKey('DELETE', `${w.facts}/bulk/resource_instances`, { idents: ['box:b1', 'box:b2'] })));
  expect(gone).toEqual(
    ['b1', 'b2'].map((key) =>
      expect.objectContaining({
        op: 'delete',
        kind: 'resource_instance',
        key,
        before: expect.objectContaining({ key, resource: 'box', tenant: 'acme' }),
      }),
    ),
  );
  await ok(w.t, 'POST', `${w.facts}/tenants`, { key: 'gone', name: 'Gone', attributes: { region: 'eu' } });
  const tenants = await changesOf(asKey('DELETE', `${w.facts}/bulk/tenants`, { idents: ['gone'] }));
  expect(tenants).toEqual([
    expect.objectContaining({
      op: 'delete',
      kind: 'tenant',
      key: 'gone',
      before: expect.objectContaining({ key: 'gone', name: 'Gone', attributes_json: '{"region":"eu"}' }),
    }),
  ]);
});

it("keeps secrets out of the states it records (a config's webhook secret and bearer token)", async () => {
  const elements = `/v2/elements/${w.t.proj}/${w.t.env}/config/ops`;
  const [change] = await changesOf(
    asAdmin('PATCH', elements, { name: 'Ops 2', webhook: { url: 'https://hooks.example.test/x', bearer_token: 'tok-123' } }),
  );
  expect(change).toMatchObject({ op: 'update', kind: 'elements_config', before: expect.any(Object), after: { name: 'Ops 2' } });
  const text = JSON.stringify(change);
  expect(text).not.toMatch(/secret|bearer_token|tok-123/);
});

it('records approval transitions with the session user as actor', async () => {
  const alice = await login(w, 'alice');
  const bob = await login(w, 'bob');
  let id = '';
  const created = await changesOf(async () => {
    const res = await alice.call('POST', '', request());
    id = res.body.id;
    return res;
  });
  expect(created).toEqual([
    expect.objectContaining({ op: 'create', kind: 'operation_approval', key: id, actor: { kind: 'session', id: 'alice' } }),
  ]);
  expect(created[0].after).toMatchObject({ id, requesting_user_id: 'alice' });
  const approved = await changesOf(() => bob.call('PUT', `/${id}/approve`, { reviewer_comment: 'fine' }));
  expect(approved).toContainEqual(
    expect.objectContaining({ op: 'update', kind: 'operation_approval', key: id, actor: { kind: 'session', id: 'bob' } }),
  );
  expect(approved.every((c) => c.actor.kind === 'session' && c.actor.id === 'bob')).toBe(true);
});

it('records nothing for a failed write (rolled back with it)', async () => {
  const before = await lastRevision();
  expect((await w.t.call('POST', `${w.facts}/tenants`, { key: 'acme', name: 'again' })).status).toBe(409);
  expect((await w.t.call('POST', `${w.facts}/role_assignments`, { user: 'ghost', role: 'auditor', tenant: 'acme' })).status).toBe(404);
  expect(await allChanges(before)).toEqual([]);
});

it('resumes exactly after a revision: no gap, no duplicate, whole transactions per page', async () => {
  // One transaction with many changes (a bulk create) among single ones.
  await ok(w.t, 'PUT', `${w.facts}/bulk/users`, { operations: Array.from({ length: 7 }, (_, i) => ({ key: `bulk-${i}` })) });
  for (const k of ['t1', 't2', 't3']) await ok(w.t, 'POST', `${w.facts}/tenants`, { key: k, name: k });
  const all = await allChanges(0, 1000);
  const ids = all.map((c) => `${c.revision}/${c.op}/${c.kind}/${c.key}`);
  expect(new Set(ids).size).toBe(ids.length);
  expect(all.map((c) => c.revision)).toEqual([...all.map((c) => c.revision)].sort((a, b) => a - b));
  expect(all.filter((c) => c.key.startsWith('bulk-'))).toHaveLength(7);
  for (const size of [1, 2, 3, 5]) {
    const paged = await allChanges(0, size);
    expect(paged.map((c) => `${c.revision}/${c.op}/${c.kind}/${c.key}`)).toEqual(ids);
  }
  // From the middle: exactly what follows that revision.
  const mid = all[Math.floor(all.length / 2)].revision;
  expect((await allChanges(mid, 4)).map((c) => c.revision)).toEqual(all.filter((c) => c.revision > mid).map((c) => c.revision));
});

it('long-polls until a change after the revision exists', async () => {
  const rev = await lastRevision();
  const empty = Date.now();
  const none = await ok(w.t, 'GET', `${feed()}?after_revision=${rev}&wait_ms=300`);
  expect(none).toEqual({ changes: [], next_revision: rev });
  expect(Date.now() - empty).toBeGreaterThanOrEqual(250);
  const waiting = ok(w.t, 'GET', `${feed()}?after_revision=${rev}&wait_ms=10000`);
  await new Promise((r) => setTimeout(r, 300));
  await ok(w.t, 'POST', `${w.facts}/tenants`, { key: 'late', name: 'Late' });
  const got = await waiting;
  expect(got.changes).toEqual([expect.objectContaining({ op: 'create', kind: 'tenant', key: 'late', revision: rev + 1 })]);
  expect(got.next_revision).toBe(rev + 1);
  expect((await w.t.call('GET', `${feed()}?wait_ms=30001`)).status).toBe(422);
  expect((await w.t.call('GET', `${feed()}?page_size=1001`)).status).toBe(422);
  // A revision past what an integer can hold (1e400 parses as Infinity) is refused, not read as "after everything".
  for (const bad of ['1e400', '9007199254740993']) expect((await w.t.call('GET', `${feed()}?after_revision=${bad}`)).status).toBe(422);
});
