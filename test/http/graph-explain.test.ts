import { startTestService, type TestService } from '../support/testService';

/** Explain, effective roles and the graph view on a 10-deep nested grant. */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const graph = () => `/v2/graph/${t.proj}/${t.env}`;

const ok = (method: string, path: string, body?: unknown, status?: number) => t.ok(method, path, body, status);

const chain = Array.from({ length: 10 }, (_, i) => `g${i + 1}`);
const nestedPath =
  'user:alice -member-> ' +
  [...chain]
    .reverse()
    .map((g) => `group:${g}`)
    .join(' -group-> ') +
  ' -group_editor_group-> repo:api#editor';

beforeAll(async () => {
  t = await startTestService();
  await ok('POST', `${schema()}/resources`, { key: 'repo', name: 'Repo', actions: { push: {}, pull: {} } });
  await ok('POST', `${schema()}/roles`, { key: 'editor', name: 'Editor', permissions: ['repo:push', 'repo:pull'] });
  await ok('POST', `${schema()}/resource_instances`, { key: 'api', tenant: 'default', resource: 'repo' });
  for (const g of chain) await ok('POST', `${schema()}/groups`, { group_instance_key: g, group_tenant: 'default' });
  for (let i = 1; i < chain.length; i++)
    await ok('PUT', `${schema()}/groups/${chain[i]}/assign_group`, { group_instance_key: chain[i - 1] });
  await ok('POST', `${schema()}/group/g1/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
  await ok('POST', `${facts()}/users`, { key: 'alice' });
  await ok('POST', `${facts()}/users`, { key: 'bob' });
  await ok('PUT', `${schema()}/groups/g10/users/alice`, { tenant: 'default' });
});
afterAll(async () => t?.close());

describe('explain', () => {
  it('shows the real path of a 10-deep nested grant', async () => {
    const res = await ok('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, {
      user: 'alice',
      action: 'push',
      resource: { type: 'repo', key: 'api' },
    });
    expect(res.allow).toBe(true);
    expect(res.explanation.paths).toEqual([nestedPath]);
  });

  it('says why not', async () => {
    const body = { user: 'bob', action: 'push', resource: { type: 'repo', key: 'api' }, explain: true };
    const res = await ok('POST', `/v2/allowed/${t.proj}/${t.env}`, body);
    expect(res.allow).toBe(false);
    expect(res.explanation.paths).toEqual([]);
    expect(res.explanation.reason).toMatch(/no path of at most 25 hops/i);
    const ghost = await ok('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, { ...body, user: 'ghost' });
    expect(ghost.explanation.reason).toMatch(/unknown/);
    const noRole = await ok('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, { ...body, action: 'merge' });
    expect(noRole.explanation.reason).toMatch(/No role grants "merge"/);
  });
});

describe('graph inspection', () => {
  it('lists effective roles with the granting path', async () => {
    const res = await ok('GET', `${graph()}/users/alice/effective_roles`);
    expect(res.roles).toContainEqual({
      resource: 'repo:api',
      tenant: 'default',
      role: 'editor',
      path: nestedPath.replace('repo:api#editor', 'repo:api#editor'),
    });
    expect(res.roles.filter((r: { role: string }) => r.role === 'member')).toHaveLength(10);
    expect((await t.call('GET', `${graph()}/users/nobody-here/effective_roles`)).status).toBe(404);
  });

  it('answers the neighbourhood of a focus node with edges and roles', async () => {
    const res = await ok('GET', `${graph()}?focus=${encodeURIComponent('user:alice')}&depth=2`);
    expect(res.truncated).toBe(false);
    const keys = res.nodes.map((n: { key: string }) => n.key).sort();
    expect(keys).toEqual(['alice', 'g10', 'g9']);
    const member = res.edges.find((e: { type: string }) => e.type === 'HAS_ROLE');
    expect(member).toEqual(expect.objectContaining({ role: 'member' }));
    const tuple = res.edges.find((e: { type: string }) => e.type === 'RELATED');
    expect(tuple).toEqual(expect.objectContaining({ relation: 'group' }));
  });

  it('bounds the answer and says so', async () => {
    const res = await ok('GET', `${graph()}?focus=${encodeURIComponent('repo:api')}&depth=6&limit=4`);
    expect(res.nodes).toHaveLength(4);
    expect(res.truncated).toBe(true);
    expect((await t.call('GET', `${graph()}?focus=nocolon`)).status).toBe(422);
    expect((await t.call('GET', `${graph()}?focus=repo:missing`)).status).toBe(404);
    expect((await t.call('GET', `${graph()}?depth=7`)).status).toBe(422);
  });
});
