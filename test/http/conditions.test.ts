import { SetRules } from '../../src/areas/conditions/rules';
import { ConditionsStore } from '../../src/areas/conditions/store';
import { questionOf } from '../../src/areas/decisions/question';
import { startTestService, type TestService } from '../support/testService';

/** Conditions (docs/behaviour.md section 17): attribute schemas, condition sets, set rules, and every decision endpoint with them. */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;
const ok = (method: string, path: string, body?: unknown, status?: number) => t.ok(method, path, body, status);
const check = async (body: unknown) => (await ok('POST', allowed(), body)).allow as boolean;
const doc = (key: string, extra: Record<string, unknown> = {}) => ({ type: 'document', key, tenant: 'acme', ...extra });

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'document', name: 'Document', actions: { read: {}, write: {}, review: {} } });
  await ok('POST', `${schema()}/resources/document/roles`, { key: 'editor', name: 'Editor', permissions: ['read', 'write'] });
  await ok('POST', `${schema()}/roles`, { key: 'member', name: 'Member', permissions: [] });
  await ok('POST', `${facts()}/tenants`, { key: 'acme', name: 'Acme' });
  await ok('POST', `${facts()}/tenants`, { key: 'other', name: 'Other' });
  await ok('POST', `${facts()}/users`, { key: 'ada', attributes: { department: 'engineering', clearance: 3 } });
  await ok('POST', `${facts()}/users`, { key: 'bob', attributes: { department: 'sales', clearance: 5 } });
  await ok('POST', `${facts()}/users`, { key: 'cy', attributes: { department: 'engineering', clearance: 1 } });
  await ok('POST', `${facts()}/users`, { key: 'dee' });
  await ok('POST', `${schema()}/resource_instances`, {
    key: 'spec',
    tenant: 'acme',
    resource: 'document',
    attributes: { classification: 'internal' },
  });
  await ok('POST', `${schema()}/resource_instances`, {
    key: 'plan',
    tenant: 'acme',
    resource: 'document',
    attributes: { classification: 'secret' },
  });
  await ok('POST', `${schema()}/resource_instances`, {
    key: 'memo',
    tenant: 'other',
    resource: 'document',
    attributes: { classification: 'internal' },
  });
  await ok('POST', `${facts()}/role_assignments`, { user: 'dee', role: 'member', tenant: 'acme' });
});
afterAll(async () => t?.close());

describe('attribute schemas', () => {
  it("declares, reads, updates and deletes attributes in Permit's shape; user attributes live on __user", async () => {
    const created = await ok('POST', `${schema()}/resources/document/attributes`, {
      key: 'classification',
      type: 'string',
      description: 'level',
    });
    expect(created).toEqual(
      expect.objectContaining({ key: 'classification', type: 'string', description: 'level', resource_key: 'document', built_in: false }),
    );
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    await ok('POST', `${schema()}/resources/document/attributes`, { key: 'pages', type: 'number' });
    await ok('POST', `${schema()}/resources/__user/attributes`, { key: 'department', type: 'string' });
    await ok('POST', `${schema()}/resources/__user/attributes`, { key: 'clearance', type: 'number' });
    expect((await ok('GET', `${schema()}/resources/document/attributes`)).map((a: { key: string }) => a.key)).toEqual([
      'classification',
      'pages',
    ]);
    expect((await ok('GET', `${schema()}/resources/__user/attributes/department`)).type).toBe('string');
    expect((await ok('PATCH', `${schema()}/resources/document/attributes/pages`, { description: 'count' })).description).toBe('count');
    // The resource's own `attributes` map is the same schema.
    expect((await ok('GET', `${schema()}/resources/document`)).attributes.classification.type).toBe('string');
    expect((await t.call('POST', `${schema()}/resources/document/attributes`, { key: 'pages', type: 'number' })).status).toBe(409);
    expect((await t.call('POST', `${schema()}/resources/document/attributes`, { key: 'x', type: 'float' })).status).toBe(422);
    expect((await t.call('GET', `${schema()}/resources/nope/attributes`)).status).toBe(404);
    await ok('DELETE', `${schema()}/resources/document/attributes/pages`, undefined, 204);
    expect((await t.call('GET', `${schema()}/resources/document/attributes/pages`)).status).toBe(404);
  });
});

describe('an environment without set rules', () => {
  it('reads its rules once per revision and no attributes: a check costs what it cost before', async () => {
    const db = t.service.db;
    const reads = jest.spyOn(db, 'readOnce');
    const rulesAt = jest.spyOn(SetRules.prototype, 'at');
    const named = (name: string) => reads.mock.calls.filter(([stmt]) => (stmt as { name: string }).name === name).length;
    try {
      // Denied by the graph, no rules: the rules are read once at this revision, then kept; the
      // checks after the first know there are none without asking for them (no await more than before rules).
      for (let i = 0; i < 5; i++) expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(false);
      expect(named('conditions/rulesOfEnvironment')).toBeLessThanOrEqual(1);
      expect(named('conditions/questionAttributes')).toBe(0);
      expect(rulesAt.mock.calls.length).toBeLessThanOrEqual(1);
      const bulk = await ok('POST', `${allowed()}/bulk`, [{ user: 'ada', action: 'read', resource: doc('spec') }]);
      expect(bulk.allow).toEqual([{ allow: false }]);
      expect(rulesAt.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      reads.mockRestore();
      rulesAt.mockRestore();
    }
  });
});

describe('the rules at a new revision', () => {
  it('are read once for every question that arrives while they are being read', async () => {
    const db = t.service.db;
    const rules = new SetRules(new ConditionsStore(db), 'default');
    const reads = jest.spyOn(db, 'readOnce');
    const named = () => reads.mock.calls.filter(([stmt]) => (stmt as { name: string }).name === 'conditions/rulesOfEnvironment').length;
    const env = `single-read-${Date.now()}`;
    try {
      // Five questions at revision 7 at once, then five at revision 8 (a write moved it): one read each.
      const at7 = await Promise.all(Array.from({ length: 5 }, () => rules.at(env, 7)));
      expect(named()).toBe(1);
      expect(new Set(at7).size).toBe(1);
      await Promise.all(Array.from({ length: 5 }, () => rules.at(env, 8)));
      expect(named()).toBe(2);
      // Kept at 8: no read; without a revision: always read.
      await rules.at(env, 8);
      expect(named()).toBe(2);
      await Promise.all([rules.at(env, undefined), rules.at(env, undefined)]);
      expect(named()).toBe(4);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('condition sets', () => {
  it('creates user and resource sets, and refuses conditions that do not fit with 422 naming the condition', async () => {
    const eng = await ok('POST', `${schema()}/condition_sets`, {
      key: 'engineering',
      name: 'Engineering',
      type: 'userset',
      conditions: { allOf: [{ allOf: [{ 'user.department': { equals: 'engineering' } }] }] },
    });
    expect(eng).toEqual(
      expect.objectContaining({ key: 'engineering', type: 'userset', resource_id: null, parent_id: null, autogenerated: false }),
    );
    const senior = await ok('POST', `${schema()}/condition_sets`, {
      key: 'senior-engineering',
      name: 'Senior engineers',
      type: 'userset',
      parent_id: 'engineering',
      conditions: { allOf: [{ 'user.clearance': { 'greater-than-equals': 3 } }] },
    });
    expect(senior.parent_id).toBe(eng.id);
    const internal = await ok('POST', `${schema()}/condition_sets`, {
      key: 'internal-docs',
      name: 'Internal docs',
      type: 'resourceset',
      resource_id: 'document',
      conditions: { allOf: [{ 'resource.classification': { equals: 'internal' } }] },
    });
    const resource = await ok('GET', `${schema()}/resources/document`);
    expect(internal.resource_id).toBe(resource.id);
    expect((await ok('GET', `${schema()}/condition_sets/internal-docs`)).conditions).toEqual({
      allOf: [{ 'resource.classification': { equals: 'internal' } }],
    });
    expect((await ok('GET', `${schema()}/condition_sets`)).map((s: { key: string }) => s.key)).toEqual([
      'engineering',
      'senior-engineering',
      'internal-docs',
    ]);

    const bad = await t.call('POST', `${schema()}/condition_sets`, {
      key: 'bad',
      name: 'Bad',
      type: 'resourceset',
      resource_id: 'document',
      conditions: {
        allOf: [
          { 'resource.owner': { equals: 'x' } },
          { 'resource.classification': { 'greater-than': 3 } },
          { 'user.clearance': { equals: 'high' } },
          { 'resource.classification': { resembles: 'x' } },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual([
      '/body/conditions/allOf[3].resource.classification.resembles',
      '/body/conditions/allOf[0].resource.owner',
      '/body/conditions/allOf[1].resource.classification.greater-than',
      '/body/conditions/allOf[2].user.clearance.equals',
    ]);
    expect((await t.call('GET', `${schema()}/condition_sets/bad`)).status).toBe(404);
    // A resource set needs its resource; a parent of another type is refused.
    expect((await t.call('POST', `${schema()}/condition_sets`, { key: 'r', name: 'R', type: 'resourceset' })).status).toBe(422);
    expect((await t.call('POST', `${schema()}/condition_sets`, { key: 'u', name: 'U', parent_id: 'internal-docs' })).status).toBe(422);
    // A set cannot narrow its own descendant.
    expect((await t.call('PATCH', `${schema()}/condition_sets/engineering`, { parent_id: 'senior-engineering' })).status).toBe(422);
    expect((await t.call('POST', `${schema()}/condition_sets`, { key: 'engineering', name: 'again' })).status).toBe(409);
  });

  it('refuses to delete an attribute a set uses (409 naming the sets)', async () => {
    const res = await t.call('DELETE', `${schema()}/resources/__user/attributes/department`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('"engineering"');
    const res2 = await t.call('DELETE', `${schema()}/resources/document/attributes/classification`);
    expect(res2.status).toBe(409);
    expect(res2.body.message).toContain('"internal-docs"');
  });
});

describe('set rules in decisions', () => {
  it('denies before the rule, grants through it, and forgets it when removed', async () => {
    expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(false);
    const [rule] = await ok('POST', `${facts()}/set_rules`, {
      user_set: 'engineering',
      permission: 'document:read',
      resource_set: 'internal-docs',
    });
    expect(rule).toEqual(expect.objectContaining({ user_set: 'engineering', permission: 'document:read', resource_set: 'internal-docs' }));
    expect((await ok('GET', `${facts()}/set_rules?user_set=engineering`)).map((r: { id: string }) => r.id)).toEqual([rule.id]);

    expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(true);
    expect(await check({ user: 'ada', action: 'read', resource: doc('plan') })).toBe(false); // secret
    expect(await check({ user: 'ada', action: 'write', resource: doc('spec') })).toBe(false); // another permission
    expect(await check({ user: 'bob', action: 'read', resource: doc('spec') })).toBe(false); // sales
    expect(await check({ user: 'dee', action: 'read', resource: doc('spec') })).toBe(false); // no department: missing is false
    expect(await check({ user: 'ada', action: 'read', resource: doc('memo') })).toBe(false); // asked in acme, memo is in other
    expect(await check({ user: 'ada', action: 'read', resource: { type: 'document', key: 'memo', tenant: 'other' } })).toBe(true);
    // Sent attributes overlay the stored ones.
    expect(await check({ user: { key: 'bob', attributes: { department: 'engineering' } }, action: 'read', resource: doc('spec') })).toBe(
      true,
    );
    expect(await check({ user: 'ada', action: 'read', resource: doc('plan', { attributes: { classification: 'internal' } }) })).toBe(true);
    expect(await check({ user: 'ada', action: 'read', resource: doc('spec', { attributes: { classification: 'secret' } }) })).toBe(false);
    // On the PDP path and in bulk.
    const pdp = await t.call('POST', '/allowed', { user: 'ada', action: 'read', resource: doc('spec') }, { key: t.envKey });
    expect(pdp.body.allow).toBe(true);
    const bulk = await ok('POST', `${allowed()}/bulk`, [
      { user: 'ada', action: 'read', resource: doc('spec') },
      { user: 'bob', action: 'read', resource: doc('spec') },
      { user: 'cy', action: 'read', resource: doc('spec') },
    ]);
    expect(bulk.allow.map((a: { allow: boolean }) => a.allow)).toEqual([true, false, true]);

    // A narrower set: engineering AND clearance >= 3 (cy has 1).
    await ok('POST', `${facts()}/set_rules`, {
      user_set: 'senior-engineering',
      permission: 'document:write',
      resource_set: 'internal-docs',
    });
    expect(await check({ user: 'ada', action: 'write', resource: doc('spec') })).toBe(true);
    expect(await check({ user: 'cy', action: 'write', resource: doc('spec') })).toBe(false);
    expect(await check({ user: 'bob', action: 'write', resource: doc('spec') })).toBe(false); // clearance 5, not engineering

    // The sets are in use now.
    expect((await t.call('DELETE', `${schema()}/condition_sets/engineering`)).status).toBe(409);

    await ok(
      'DELETE',
      `${facts()}/set_rules`,
      { user_set: 'senior-engineering', permission: 'document:write', resource_set: 'internal-docs' },
      204,
    );
    expect(await check({ user: 'ada', action: 'write', resource: doc('spec') })).toBe(false);
    expect(
      (
        await t.call('DELETE', `${facts()}/set_rules`, {
          user_set: 'senior-engineering',
          permission: 'document:write',
          resource_set: 'internal-docs',
        })
      ).status,
    ).toBe(404);
  });

  it('a check the graph denies reads the revision once, for the graph and the rules alike', async () => {
    // A scope without the revision of a key lookup (a replica answering from its window): the service reads it.
    const env = await ok('GET', `/v2/projects/${t.proj}/envs/${t.env}`);
    const project = await ok('GET', `/v2/projects/${t.proj}`);
    const scope = { orgId: project.organization_id, projectId: project.id, projectKey: t.proj, envId: env.id, envKey: t.env };
    const { decisions, revisions } = t.service.parts;
    const latest = jest.spyOn(revisions, 'latest');
    try {
      for (const [user, allow] of [
        ['bob', false],
        ['ada', true],
      ] as const) {
        latest.mockClear();
        expect((await decisions.allowed(scope, questionOf({ user, action: 'read', resource: doc('spec') }))).allow).toBe(allow);
        expect(latest).toHaveBeenCalledTimes(1);
      }
      latest.mockClear();
      const bulk = await decisions.allowedBulk(
        scope,
        [
          { user: 'bob', action: 'read', resource: doc('spec') },
          { user: 'ada', action: 'read', resource: doc('spec') },
        ].map(questionOf),
      );
      expect(bulk.allow).toEqual([{ allow: false }, { allow: true }]);
      expect(latest).toHaveBeenCalledTimes(1);
    } finally {
      latest.mockRestore();
    }
  });

  it("reads the stored attributes in the walk's own round trip (no query of their own), and sees a write of attributes at once", async () => {
    const reads = jest.spyOn(t.service.db, 'readOnce');
    const attributeReads = () =>
      reads.mock.calls.filter(([stmt]) => (stmt as { name: string }).name === 'conditions/questionAttributes').length;
    try {
      for (let i = 0; i < 4; i++) expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(true);
      await ok('PATCH', `${facts()}/users/ada`, { attributes: { department: 'sales', clearance: 3 } });
      expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(false);
      await ok('PATCH', `${facts()}/users/ada`, { attributes: { department: 'engineering', clearance: 3 } });
      expect(await check({ user: 'ada', action: 'read', resource: doc('spec') })).toBe(true);
      const bulk = await ok('POST', `${allowed()}/bulk`, [
        { user: 'ada', action: 'read', resource: doc('spec'), consistency: 'fully_consistent' },
        { user: 'nobody', action: 'read', resource: doc('spec'), consistency: 'fully_consistent' },
      ]);
      expect(bulk.allow).toEqual([{ allow: true }, { allow: false }]);
      expect(attributeReads()).toBe(0);
    } finally {
      reads.mockRestore();
    }
  });

  it('refuses rules naming what does not exist (422)', async () => {
    const res = await t.call('POST', `${facts()}/set_rules`, { user_set: 'nope', permission: 'document:fly', resource_set: 'engineering' });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['/body/permission', '/body/user_set', '/body/resource_set']);
  });

  it('takes a context attribute, and the is_role / is_resource forms', async () => {
    await ok('POST', `${schema()}/condition_sets`, {
      key: 'office-network',
      name: 'On the office network',
      type: 'userset',
      conditions: { allOf: [{ 'context.ip': { in: ['10.0.0.1', '10.0.0.2'] } }] },
    });
    await ok('POST', `${facts()}/set_rules`, {
      user_set: 'office-network',
      permission: 'document:review',
      resource_set: 'document',
      is_resource: true,
    });
    expect(await check({ user: 'bob', action: 'review', resource: doc('plan'), context: { ip: '10.0.0.1' } })).toBe(true);
    expect(await check({ user: 'bob', action: 'review', resource: doc('plan'), context: { ip: '8.8.8.8' } })).toBe(false);
    expect(await check({ user: 'bob', action: 'review', resource: doc('plan') })).toBe(false);
    // is_role: the users holding tenant role `member` in the resource's tenant.
    await ok('POST', `${facts()}/set_rules`, {
      user_set: 'member',
      permission: 'document:write',
      resource_set: 'internal-docs',
      is_role: true,
    });
    expect(await check({ user: 'dee', action: 'write', resource: doc('spec') })).toBe(true);
    expect(await check({ user: 'dee', action: 'write', resource: doc('plan') })).toBe(false);
    expect(await check({ user: 'dee', action: 'write', resource: { type: 'document', key: 'memo', tenant: 'other' } })).toBe(false);
  });

  it("is_role holds the users of a role that extends the rule's role, as the role graph grants its permissions", async () => {
    await ok('POST', `${schema()}/roles`, { key: 'lead', name: 'Lead', permissions: [], extends: ['member'] });
    await ok('POST', `${facts()}/users`, { key: 'eve' });
    await ok('POST', `${facts()}/role_assignments`, { user: 'eve', role: 'lead', tenant: 'acme' });
    // The rule on `member` (write on internal docs) holds eve through lead -> member.
    expect(await check({ user: 'eve', action: 'write', resource: doc('spec') })).toBe(true);
    expect(await check({ user: 'eve', action: 'write', resource: doc('plan') })).toBe(false);
    expect(await check({ user: 'eve', action: 'write', resource: { type: 'document', key: 'memo', tenant: 'other' } })).toBe(false);
    const who = await ok('POST', `${allowed()}/authorized_users`, { action: 'write', resource: doc('spec') });
    expect(Object.keys(who.users).sort()).toEqual(['dee', 'eve']);
    expect((await ok('POST', `${allowed()}/user-permissions`, { user: 'eve' }))['document:spec'].permissions).toEqual(['document:write']);
    const listed = await ok('POST', `${allowed()}/list-objects`, {
      user: 'eve',
      action: 'write',
      resource_type: 'document',
      page_size: 10,
    });
    expect(listed.objects.map((o: { key: string }) => o.key)).toEqual(['spec']);
    // Not the other way: a member does not hold what a rule gives the role extending member.
    const leads = { user_set: 'lead', permission: 'document:review', resource_set: 'document', is_role: true, is_resource: true };
    await ok('POST', `${facts()}/set_rules`, leads);
    expect(await check({ user: 'eve', action: 'review', resource: doc('plan') })).toBe(true);
    expect(await check({ user: 'dee', action: 'review', resource: doc('plan') })).toBe(false);
    await ok('DELETE', `${facts()}/set_rules`, leads, 204);
    await ok('DELETE', `${facts()}/role_assignments`, { user: 'eve', role: 'lead', tenant: 'acme' }, 204);
  });

  it('explains the rule, its sets and each condition', async () => {
    const yes = await ok('POST', `${allowed()}?explain=true`, { user: 'ada', action: 'read', resource: doc('spec') });
    expect(yes.allow).toBe(true);
    expect(yes.explanation.reason).toContain('set rule');
    expect(yes.explanation.set_rules[0]).toEqual(
      expect.objectContaining({ user_set: 'engineering', resource_set: 'internal-docs', granted: true }),
    );
    const no = await ok('POST', `${allowed()}?explain=true`, { user: 'bob', action: 'read', resource: doc('spec') });
    expect(no.allow).toBe(false);
    expect(no.explanation.set_rules[0].sets[0]).toEqual({
      set: 'engineering',
      kind: 'userset',
      held: false,
      conditions: [
        {
          condition: 'allOf[0].allOf[0].user.department',
          attribute: 'user.department',
          operator: 'equals',
          value: 'engineering',
          found: 'sales',
          held: false,
        },
      ],
    });
  });

  it('user-permissions, authorized users and all-tenants honour rules', async () => {
    const perms = await ok('POST', `${allowed()}/user-permissions`, { user: 'ada' });
    expect(perms['document:spec'].permissions).toEqual(['document:read']);
    expect(perms['document:memo'].permissions).toEqual(['document:read']);
    expect(perms['document:plan']).toBeUndefined();
    const withAttrs = await ok('POST', `${allowed()}/user-permissions`, {
      user: { key: 'bob', attributes: { department: 'engineering' } },
      tenants: ['acme'],
    });
    expect(Object.keys(withAttrs)).toEqual(['document:spec']);
    const who = await ok('POST', `${allowed()}/authorized_users`, { action: 'read', resource: doc('spec') });
    expect(Object.keys(who.users).sort()).toEqual(['ada', 'cy']);
    for (const tenant of ['acme', 'other'])
      await ok('POST', `${facts()}/tenants/${tenant}/users`, { key: 'ada', attributes: { department: 'engineering', clearance: 3 } });
    const tenants = await t.call(
      'POST',
      '/allowed/all-tenants',
      { user: 'ada', action: 'read', resource: { type: 'document', key: 'memo' } },
      { key: t.envKey },
    );
    expect(tenants.body.allowed_tenants.map((a: { tenant: { key: string } }) => a.tenant.key)).toEqual(['other']);
    // list-objects: the rule's instances merged with the graph's, in key order, paged.
    await ok('POST', `${facts()}/role_assignments`, { user: 'bob', role: 'editor', tenant: 'acme', resource_instance: 'document:plan' });
    const list = async (user: unknown, page_size = 100, continuation_token?: string) =>
      ok('POST', `${allowed()}/list-objects`, {
        user,
        action: 'read',
        resource_type: 'document',
        page_size,
        ...(continuation_token ? { continuation_token } : {}),
      });
    expect((await list('ada')).objects.map((o: { key: string }) => o.key)).toEqual(['memo', 'spec']);
    expect((await list({ key: 'bob', attributes: { department: 'engineering' } })).objects.map((o: { key: string }) => o.key)).toEqual([
      'memo',
      'plan',
      'spec',
    ]);
    const first = await list({ key: 'bob', attributes: { department: 'engineering' } }, 2);
    expect(first.objects.map((o: { key: string }) => o.key)).toEqual(['memo', 'plan']);
    const second = await list({ key: 'bob', attributes: { department: 'engineering' } }, 2, first.continuation_token);
    expect(second).toEqual({ objects: [{ type: 'document', key: 'spec', tenant: 'acme' }], continuation_token: null });
  });
});

describe('the policy file carries attributes, condition sets and set rules', () => {
  it('exports them, applies them to an empty environment in one plan, and the copy answers the same', async () => {
    const file = await ok('GET', `${schema()}/policy`);
    expect(file.user_attributes).toEqual({ department: { type: 'string' }, clearance: { type: 'number' } });
    expect(Object.keys(file.condition_sets).sort()).toEqual(['engineering', 'internal-docs', 'office-network', 'senior-engineering']);
    expect(file.condition_sets['senior-engineering'].parent).toBe('engineering');
    expect(file.set_rules).toHaveLength(3);
    // The same file plans nothing here.
    expect((await ok('POST', `${schema()}/policy/plan`, file)).changes).toEqual([]);

    await ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'copy', name: 'copy' });
    const copy = `/v2/schema/${t.proj}/copy`;
    const applied = await ok('PUT', `${copy}/policy`, file);
    expect(applied.changes.filter((c: { kind: string }) => ['user_attributes', 'condition_set', 'set_rule'].includes(c.kind))).toHaveLength(
      1 + 4 + 3,
    );
    expect(await ok('GET', `${copy}/policy`)).toEqual(file);
    expect((await ok('PUT', `${copy}/policy`, file)).changed).toBe(false);

    const copyFacts = `/v2/facts/${t.proj}/copy`;
    await ok('POST', `${copyFacts}/tenants`, { key: 'acme', name: 'Acme' });
    await ok('POST', `${copyFacts}/users`, { key: 'ada', attributes: { department: 'engineering', clearance: 3 } });
    await ok('POST', `${copy}/resource_instances`, {
      key: 'spec',
      tenant: 'acme',
      resource: 'document',
      attributes: { classification: 'internal' },
    });
    for (const env of [t.env, 'copy'])
      expect((await ok('POST', `/v2/allowed/${t.proj}/${env}`, { user: 'ada', action: 'read', resource: doc('spec') })).allow).toBe(true);

    // A condition the file's attributes do not declare: 422 naming it, nothing written.
    const bad = structuredClone(file);
    bad.condition_sets.engineering.conditions = { 'user.team': { equals: 'x' } };
    const res = await t.call('PUT', `${copy}/policy`, bad);
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['/body/condition_sets/engineering/conditions/user.team']);
    // Removing a rule from the file removes it from the environment.
    const fewer = { ...file, set_rules: file.set_rules.filter((r: { user_set: string }) => r.user_set !== 'engineering') };
    await ok('PUT', `${copy}/policy`, fewer);
    expect((await ok('POST', `/v2/allowed/${t.proj}/copy`, { user: 'ada', action: 'read', resource: doc('spec') })).allow).toBe(false);
  });
});
