import { depthLimitedCount } from '../../src/http/depthLimit';
import { startTestService, type TestService } from '../support/testService';

/**
 * A check that reaches MAX_DERIVATION_DEPTH (25) without an answer says so (docs/behaviour.md section 8):
 * allow false, `X-Authz-Depth-Limited: true`, `explanation.reason` naming the limit, and the
 * process counter moves. A chain of 30 teams, each a sub-team of the previous one; team t1 owns
 * the repo. A member of t25 is 25 hops away, of t26 26 hops.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;
const ok = (method: string, path: string, body?: unknown) => t.ok(method, path, body);
const push = (user: string, repo = 'api') => ({ user, action: 'push', resource: { type: 'repo', key: repo } });

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'team', name: 'Team', actions: {} });
  await ok('POST', `${schema()}/resources/team/roles`, { key: 'member', name: 'Member', permissions: [] });
  await ok('POST', `${schema()}/resources/team/relations`, { key: 'parent_team', name: 'Parent team', subject_resource: 'team' });
  await ok('POST', `${schema()}/resources/team/roles/member/implicit_grants`, {
    role: 'member',
    on_resource: 'team',
    linked_by_relation: 'parent_team',
  });
  await ok('POST', `${schema()}/resources`, { key: 'repo', name: 'Repo', actions: { push: {} } });
  await ok('POST', `${schema()}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['push'] });
  await ok('POST', `${schema()}/resources/repo/relations`, { key: 'owners', name: 'Owners', subject_resource: 'team' });
  await ok('POST', `${schema()}/resources/repo/roles/editor/implicit_grants`, {
    role: 'member',
    on_resource: 'team',
    linked_by_relation: 'owners',
  });
  const teams = Array.from({ length: 30 }, (_, i) => `team:t${i + 1}`);
  for (const [resource_instance, key] of [['repo:api', 'api'], ['repo:web', 'web'], ...teams.map((x) => [x, x.slice(5)])]) {
    await ok('POST', `${facts()}/resource_instances`, { key, resource: resource_instance.split(':')[0], tenant: 'default' });
  }
  // repo:web is owned by t29: the walk back from it ends after 2 hops.
  const tuples = [
    { subject: 'team:t1', relation: 'owners', object: 'repo:api', tenant: 'default' },
    { subject: 'team:t29', relation: 'owners', object: 'repo:web', tenant: 'default' },
    ...teams.slice(1).map((x, i) => ({ subject: x, relation: 'parent_team', object: teams[i], tenant: 'default' })),
  ];
  await ok('POST', `${facts()}/relationship_tuples/bulk`, { operations: tuples });
  for (const [user, team] of [
    ['edge', 't25'],
    ['over', 't26'],
    ['far', 't30'],
    ['outside', null],
  ] as const) {
    await ok('POST', `${facts()}/users`, { key: user });
    if (team)
      await ok('POST', `${facts()}/role_assignments`, { user, role: 'member', tenant: 'default', resource_instance: `team:${team}` });
  }
});
afterAll(async () => t?.close());

describe('depth-limited checks', () => {
  it('answers false with the header, a reason naming the limit, and counts it', async () => {
    const before = depthLimitedCount();
    for (const user of ['over', 'far']) {
      const res = await t.call('POST', allowed(), { ...push(user), consistency: 'fully_consistent' });
      expect(res.status).toBe(200);
      expect(res.body.allow).toBe(false);
      expect(res.headers.get('x-authz-depth-limited')).toBe('true');
      expect(res.body.explanation.reason).toMatch(/MAX_DERIVATION_DEPTH \(25 hops\)/);
    }
    expect(depthLimitedCount()).toBe(before + 2);
    // The same answer from the decision cache says so too.
    const cached = await t.call('POST', allowed(), push('over'));
    expect(cached.headers.get('x-authz-depth-limited')).toBe('true');
    expect(depthLimitedCount()).toBe(before + 3);
  });

  it('says so in the explanation and on a bulk answer that holds one', async () => {
    const explained = await t.call('POST', `${allowed()}?explain=true`, push('over'));
    expect(explained.headers.get('x-authz-depth-limited')).toBe('true');
    expect(explained.body.explanation.paths).toEqual([]);
    expect(explained.body.explanation.reason).toMatch(/MAX_DERIVATION_DEPTH \(25 hops\)/);
    const bulk = await t.call('POST', `${allowed()}/bulk`, [push('edge'), push('over')]);
    expect(bulk.body.allow).toEqual([{ allow: true }, { allow: false }]);
    expect(bulk.headers.get('x-authz-depth-limited')).toBe('true');
  });

  it('does not flag an answer found within the limit, nor a search that ended before it', async () => {
    const before = depthLimitedCount();
    const edge = await t.call('POST', allowed(), push('edge'));
    expect(edge.body).toEqual({ allow: true });
    expect(edge.headers.get('x-authz-depth-limited')).toBeNull();
    expect((await t.call('POST', allowed(), push('far', 'web'))).body).toEqual({ allow: true });
    const outside = await t.call('POST', allowed(), push('outside', 'web'));
    expect(outside.body).toEqual({ allow: false });
    expect(outside.headers.get('x-authz-depth-limited')).toBeNull();
    const bulk = await t.call('POST', `${allowed()}/bulk`, [push('edge'), push('outside', 'web')]);
    expect(bulk.headers.get('x-authz-depth-limited')).toBeNull();
    expect(depthLimitedCount()).toBe(before);
  });
});
