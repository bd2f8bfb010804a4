import { startTestService, type TestService } from '../support/testService';

/**
 * Conditions (docs/behaviour.md section 17) when what they name is deleted: a resource type that resource
 * sets are over, an action that a set rule's permission names, a tenant role that an is_role rule
 * names, a tenant. As Permit deletes a resource, a role or an action "with all its related data",
 * the sets and rules that name it go in the same transaction, each with its change event; nothing
 * is left that a decision, a list, an export or a later resource of the same key would trip on.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

let n = 0;
/** A new environment with document sets and rules (a user set, a resource set and its child, a rule on each action, an is_role rule). */
async function world() {
  const env = `del${n++}`;
  await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
  const schema = `/v2/schema/${t.proj}/${env}`;
  const facts = `/v2/facts/${t.proj}/${env}`;
  const allowed = `/v2/allowed/${t.proj}/${env}`;
  await t.ok('POST', `${schema}/resources`, {
    key: 'document',
    name: 'Document',
    actions: { read: {}, write: {}, share: {} },
    attributes: { classification: { type: 'string' } },
  });
  await t.ok('POST', `${schema}/resources`, { key: 'folder', name: 'Folder', actions: { read: {} } });
  await t.ok('POST', `${schema}/resources/__user/attributes`, { key: 'department', type: 'string' });
  await t.ok('POST', `${schema}/roles`, { key: 'member', name: 'Member', permissions: [] });
  await t.ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  await t.ok('POST', `${facts}/users`, { key: 'ada', attributes: { department: 'engineering' } });
  await t.ok('POST', `${facts}/users`, { key: 'dee' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'dee', role: 'member', tenant: 'acme' });
  await t.ok('POST', `${schema}/resource_instances`, {
    key: 'spec',
    tenant: 'acme',
    resource: 'document',
    attributes: { classification: 'internal' },
  });
  await t.ok('POST', `${schema}/resource_instances`, { key: 'f', tenant: 'acme', resource: 'folder' });
  await t.ok('POST', `${schema}/condition_sets`, {
    key: 'engineering',
    name: 'Engineering',
    type: 'userset',
    conditions: { 'user.department': { equals: 'engineering' } },
  });
  await t.ok('POST', `${schema}/condition_sets`, {
    key: 'internal',
    name: 'Internal',
    type: 'resourceset',
    resource_id: 'document',
    conditions: { 'resource.classification': { equals: 'internal' } },
  });
  await t.ok('POST', `${schema}/condition_sets`, {
    key: 'internal-spec',
    name: 'Internal spec',
    type: 'resourceset',
    resource_id: 'document',
    parent_id: 'internal',
    conditions: { 'resource.key': { equals: 'spec' } },
  });
  const rule = (user_set: string, permission: string, resource_set: string, extra: Record<string, boolean> = {}) =>
    t.ok('POST', `${facts}/set_rules`, { user_set, permission, resource_set, ...extra });
  await rule('engineering', 'document:read', 'internal');
  await rule('engineering', 'document:share', 'internal-spec');
  await rule('member', 'document:write', 'internal', { is_role: true });
  await rule('engineering', 'folder:read', 'folder', { is_resource: true });
  const check = async (user: string, action: string, type = 'document', key = type === 'document' ? 'spec' : 'f') =>
    (await t.ok('POST', allowed, { user, action, resource: { type, key, tenant: 'acme' } })).allow as boolean;
  const sets = async () => (await t.ok('GET', `${schema}/condition_sets`)).map((s: { key: string }) => s.key).sort();
  const rules = async () => (await t.ok('GET', `${facts}/set_rules`)).map((r: { permission: string }) => r.permission).sort();
  const revision = async () => (await t.ok('GET', `${facts}/changes?page_size=1`)).next_revision as number;
  const changesAfter = async (rev: number) =>
    (await t.ok('GET', `${facts}/changes?after_revision=${rev}&page_size=1000`)).changes.map(
      (c: { op: string; kind: string; key: string }) => `${c.op} ${c.kind} ${c.key}`,
    );
  /** The export answers 200 and an empty environment takes it. */
  const roundTrips = async () => {
    const res = await fetch(`${t.url}/v2/export/${t.proj}/${env}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
    expect(res.status).toBe(200);
    const body = await res.text();
    const copy = `${env}copy`;
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: copy, name: copy });
    const imported = await fetch(`${t.url}/v2/import/${t.proj}/${copy}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(imported.status).toBe(200);
    return copy;
  };
  return { env, schema, facts, allowed, check, sets, rules, revision, changesAfter, roundTrips };
}

it('deleting a resource type removes the resource sets over it and the rules on it, with their change events', async () => {
  const w = await world();
  expect(await w.check('ada', 'read')).toBe(true);
  const rev = await w.revision();
  await t.ok('DELETE', `${w.schema}/resources/document`, undefined, 204);
  expect(await w.sets()).toEqual(['engineering']);
  expect(await w.rules()).toEqual(['folder:read']);
  expect(await w.changesAfter(rev)).toEqual(
    expect.arrayContaining([
      'delete resource document',
      'delete set_rule engineering|document:read|internal',
      'delete set_rule engineering|document:share|internal-spec',
      'delete set_rule role:member|document:write|internal',
      'delete condition_set internal',
      'delete condition_set internal-spec',
    ]),
  );
  // The user set and the rule on another type stay and still decide.
  expect(await w.check('ada', 'read', 'folder')).toBe(true);
  expect(await w.check('ada', 'read')).toBe(false);
  // A new resource of the same key starts clean: the old rules do not grant on it.
  await t.ok('POST', `${w.schema}/resources`, { key: 'document', name: 'Document', actions: { read: {}, write: {}, share: {} } });
  await t.ok('POST', `${w.schema}/resource_instances`, { key: 'spec', tenant: 'acme', resource: 'document' });
  for (const [user, action] of [
    ['ada', 'read'],
    ['ada', 'share'],
    ['dee', 'write'],
  ])
    expect(await w.check(user, action)).toBe(false);
  expect((await t.ok('POST', `${w.allowed}/user-permissions`, { user: 'ada' }))['document:spec']).toBeUndefined();
  const copy = await w.roundTrips();
  expect((await t.ok('GET', `/v2/facts/${t.proj}/${copy}/set_rules`)).map((r: { permission: string }) => r.permission)).toEqual([
    'folder:read',
  ]);
});

it('deleting an action (alone, or by a resource PATCH or PUT) removes the set rules on it', async () => {
  const w = await world();
  expect(await w.check('ada', 'share')).toBe(true);
  const rev = await w.revision();
  await t.ok('DELETE', `${w.schema}/resources/document/actions/share`, undefined, 204);
  expect(await w.rules()).toEqual(['document:read', 'document:write', 'folder:read']);
  expect(await w.changesAfter(rev)).toContain('delete set_rule engineering|document:share|internal-spec');
  // The action back: the rule does not come back with it.
  await t.ok('POST', `${w.schema}/resources/document/actions`, { key: 'share', name: 'Share' });
  expect(await w.check('ada', 'share')).toBe(false);
  // A PATCH whose action set leaves out `write`, and a PUT leaving out `read`.
  await t.ok('PATCH', `${w.schema}/resources/document`, { actions: { read: {}, share: {} } });
  expect(await w.rules()).toEqual(['document:read', 'folder:read']);
  await t.ok('PUT', `${w.schema}/resources/document`, { name: 'Document', actions: { share: {} } });
  expect(await w.rules()).toEqual(['folder:read']);
  // The sets stay (their resource does).
  expect(await w.sets()).toEqual(['engineering', 'internal', 'internal-spec']);
  await w.roundTrips();
});

it('deleting a tenant role removes the is_role rules naming it', async () => {
  const w = await world();
  expect(await w.check('dee', 'write')).toBe(true);
  const rev = await w.revision();
  await t.ok('DELETE', `${w.schema}/roles/member`, undefined, 204);
  expect(await w.rules()).toEqual(['document:read', 'document:share', 'folder:read']);
  expect(await w.changesAfter(rev)).toEqual(
    expect.arrayContaining(['delete role member', 'delete set_rule role:member|document:write|internal']),
  );
  // A new role of the same key, held again, does not inherit the old rule.
  await t.ok('POST', `${w.schema}/roles`, { key: 'member', name: 'Member', permissions: [] });
  await t.ok('POST', `${w.facts}/role_assignments`, { user: 'dee', role: 'member', tenant: 'acme' });
  expect(await w.check('dee', 'write')).toBe(false);
  expect(await w.check('ada', 'read')).toBe(true);
  await w.roundTrips();
});

it('deleting a tenant leaves the sets and rules whole, and they still decide in the other tenants', async () => {
  const w = await world();
  await t.ok('POST', `${w.facts}/tenants`, { key: 'beta', name: 'Beta' });
  await t.ok('POST', `${w.schema}/resource_instances`, {
    key: 'memo',
    tenant: 'beta',
    resource: 'document',
    attributes: { classification: 'internal' },
  });
  await t.ok('DELETE', `${w.facts}/tenants/acme`, undefined, 204);
  expect(await w.sets()).toEqual(['engineering', 'internal', 'internal-spec']);
  expect(await w.rules()).toEqual(['document:read', 'document:share', 'document:write', 'folder:read']);
  expect(
    (await t.ok('POST', w.allowed, { user: 'ada', action: 'read', resource: { type: 'document', key: 'memo', tenant: 'beta' } })).allow,
  ).toBe(true);
  expect(await w.check('ada', 'read')).toBe(false);
  const listed = await t.ok('POST', `${w.allowed}/list-objects`, { user: 'ada', action: 'read', resource_type: 'document', page_size: 10 });
  expect(listed.objects.map((o: { key: string }) => o.key)).toEqual(['memo']);
  await w.roundTrips();
});

describe('an attribute map written whole (resource PATCH or PUT, the policy file)', () => {
  it('answers 409 naming the sets when it removes or retypes attributes they use, and writes nothing', async () => {
    const w = await world();
    const refused = async (method: string, path: string, body: unknown, set: string) => {
      const res = await t.call(method, path, body);
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(`"${set}"`);
    };
    await refused('PATCH', `${w.schema}/resources/document`, { attributes: {} }, 'internal');
    await refused('PATCH', `${w.schema}/resources/document`, { attributes: { classification: { type: 'number' } } }, 'internal');
    await refused(
      'PUT',
      `${w.schema}/resources/document`,
      { name: 'Document', actions: { read: {}, write: {}, share: {} }, attributes: {} },
      'internal',
    );
    await refused('PATCH', `${w.schema}/resources/__user`, { attributes: { department: { type: 'array' } } }, 'engineering');
    // Deleting __user takes every user attribute: the user sets still name them.
    await refused('DELETE', `${w.schema}/resources/__user`, undefined, 'engineering');
    expect((await t.ok('GET', `${w.schema}/resources/document/attributes/classification`)).type).toBe('string');
    expect((await t.ok('GET', `${w.schema}/resources/__user/attributes/department`)).type).toBe('string');
    expect(await w.check('ada', 'read')).toBe(true);
    // What the sets do not use may change.
    const patched = await t.ok('PATCH', `${w.schema}/resources/document`, {
      attributes: { classification: { type: 'string' }, pages: { type: 'number' } },
    });
    expect(Object.keys(patched.attributes).sort()).toEqual(['classification', 'pages']);
  });

  it('the policy apply refuses such a retype (409 naming the sets) unless prune, and a removal the kept sets name (422)', async () => {
    const w = await world();
    const file = await t.ok('GET', `${w.schema}/policy`);
    const retyped = structuredClone(file);
    retyped.resources.document.attributes.classification = { type: 'json' };
    const plan = await t.ok('POST', `${w.schema}/policy/plan`, retyped);
    expect(plan.changes).toEqual([
      expect.objectContaining({ op: 'update', kind: 'resource', key: 'document', in_use: expect.objectContaining({ facts: 1 }) }),
    ]);
    const res = await t.call('PUT', `${w.schema}/policy`, retyped);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('"internal"');
    expect(res.body.message).not.toContain('"internal-spec"'); // it names resource.key only
    expect((await t.ok('GET', `${w.schema}/resources/document/attributes/classification`)).type).toBe('string');
    const userRetyped = structuredClone(file);
    userRetyped.user_attributes.department = { type: 'json' };
    expect((await t.call('PUT', `${w.schema}/policy`, userRetyped)).body.message).toContain('"engineering"');
    // prune=true: applied as the file says (its sets were checked against its types).
    expect((await t.ok('PUT', `${w.schema}/policy?prune=true`, retyped)).applied).toBe(true);
    expect((await t.ok('GET', `${w.schema}/resources/document/attributes/classification`)).type).toBe('json');
    // Removed while a set the file keeps names it: the file does not hold together.
    const removed = structuredClone(file);
    delete removed.resources.document.attributes;
    expect((await t.call('PUT', `${w.schema}/policy?prune=true`, removed)).status).toBe(422);
    // Removed with the sets that name it: nothing is in use.
    delete removed.condition_sets.internal;
    delete removed.condition_sets['internal-spec'];
    removed.set_rules = removed.set_rules.filter((r: { permission: string }) => r.permission === 'folder:read');
    expect((await t.ok('PUT', `${w.schema}/policy`, removed)).applied).toBe(true);
    expect(await w.sets()).toEqual(['engineering']);
  });
});
