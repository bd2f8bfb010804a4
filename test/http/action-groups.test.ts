import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 23: action groups reach every decision, through both walks. One service
 * answers with the extension (the test run's Neo4j has it), another with WALK=cypher, on the same
 * environment; each question is asked of both.
 */
let t: TestService;
let cypher: TestService;
let schema: string;
let facts: string;

beforeAll(async () => {
  t = await startTestService();
  cypher = await startTestService({ env: { WALK: 'cypher' } });
  schema = `/v2/schema/${t.proj}/${t.env}`;
  facts = `/v2/facts/${t.proj}/${t.env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'sheet', name: 'Sheet', actions: { view: {}, comment: {}, edit: {}, purge: {} } });
  await t.ok('POST', `${schema}/resources/sheet/action_groups`, { key: 'contribute', name: 'Contribute', actions: ['view', 'comment'] });
  await t.ok('POST', `${schema}/roles`, { key: 'contributor', name: 'Contributor', permissions: ['sheet:contribute'] });
  await t.ok('POST', `${schema}/resources/sheet/roles`, { key: 'commenter', name: 'Commenter', permissions: ['contribute'] });
  await t.ok('POST', `${facts}/users`, { key: 'gia' });
  await t.ok('POST', `${facts}/users`, { key: 'hal' });
  await t.ok('POST', `${facts}/resource_instances`, { key: 'plan', tenant: 'default', resource: 'sheet' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'gia', role: 'contributor', tenant: 'default' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'hal', role: 'commenter', tenant: 'default', resource_instance: 'sheet:plan' });
}, 120_000);
afterAll(async () => {
  await cypher?.close();
  await t?.close();
});

/** The answers of both walks to `user` doing each action on sheet:plan: [extension, cypher] per action. */
async function answers(user: string, actions: string[]) {
  const ask = async (s: TestService) => {
    const walk = (await s.call('GET', '/readyz', undefined, { key: null })).body.walk;
    const allow: boolean[] = [];
    for (const action of actions) {
      const res = await s.call('POST', `/v2/allowed/${t.proj}/${t.env}`, { user, action, resource: { type: 'sheet', key: 'plan' } });
      expect(res.status).toBe(200);
      allow.push(res.body.allow);
    }
    const perms = await s.call('POST', `/v2/allowed/${t.proj}/${t.env}/user-permissions`, { user });
    const listed = perms.body['sheet:plan']?.permissions ?? perms.body['__tenant:default']?.permissions ?? [];
    return { walk, allow, listed: actions.filter((a) => listed.includes(`sheet:${a}`)).map((a) => listed.includes(`sheet:${a}`)) };
  };
  return [await ask(t), await ask(cypher)];
}

it('a role given a group may do its actions, and no other, through both walks', async () => {
  const [ext, cyp] = await answers('gia', ['view', 'comment', 'edit']);
  expect(ext.walk).toBe('extension');
  expect(cyp.walk).toBe('cypher');
  expect(ext.allow).toEqual([true, true, false]);
  expect(cyp.allow).toEqual([true, true, false]);
  const [extHal, cypHal] = await answers('hal', ['view', 'comment', 'edit']);
  expect(extHal.allow).toEqual([true, true, false]);
  expect(cypHal.allow).toEqual([true, true, false]);
  // A role answers its permissions as written, the group unexpanded.
  expect((await t.ok('GET', `${schema}/roles/contributor`)).permissions).toEqual(['sheet:contribute']);
  expect((await t.ok('GET', `${schema}/resources/sheet/roles/commenter`)).permissions).toEqual(['contribute']);
});

it("the roles follow a change of the group's actions in the same write", async () => {
  const g = await t.ok('PATCH', `${schema}/resources/sheet/action_groups/contribute`, { actions: ['view', 'comment', 'edit'] });
  expect(g.actions).toEqual(['view', 'comment', 'edit']);
  for (const user of ['gia', 'hal']) {
    const [ext, cyp] = await answers(user, ['edit', 'purge']);
    expect([ext.allow, cyp.allow]).toEqual([
      [true, false],
      [true, false],
    ]);
  }
  // An action removed from the resource leaves the group, and the roles with it.
  await t.ok('DELETE', `${schema}/resources/sheet/actions/edit`, undefined, 204);
  expect((await t.ok('GET', `${schema}/resources/sheet/action_groups/contribute`)).actions).toEqual(['view', 'comment']);
  const [ext, cyp] = await answers('gia', ['comment', 'edit']);
  expect([ext.allow, cyp.allow]).toEqual([
    [true, false],
    [true, false],
  ]);
});

it('bad input answers the error body, never a 500', async () => {
  const post = (body: unknown) => t.call('POST', `${schema}/resources/sheet/action_groups`, body);
  const unknownAction = await post({ key: 'bad', name: 'Bad', actions: ['fly'] });
  expect([unknownAction.status, unknownAction.body.error_code, unknownAction.body.details?.[0]?.path]).toEqual([
    422,
    'INVALID_INPUT',
    '/body/actions/0',
  ]);
  expect((await post({ key: 'contribute', name: 'Again' })).status).toBe(409);
  // A group and an action never share a key: a permission names either by the same text.
  expect((await post({ key: 'view', name: 'View' })).status).toBe(409);
  expect((await t.call('POST', `${schema}/resources/sheet/actions`, { key: 'contribute', name: 'C' })).status).toBe(409);
  expect((await post({ name: 'No key' })).status).toBe(422);
  expect((await t.call('POST', `${schema}/resources/nope/action_groups`, { key: 'g', name: 'G' })).status).toBe(404);
  expect((await t.call('GET', `${schema}/resources/sheet/action_groups/nope`)).status).toBe(404);
  expect((await t.call('PATCH', `${schema}/resources/sheet/action_groups/contribute`, { actions: ['fly'] })).status).toBe(422);
  expect((await t.call('POST', `${schema}/roles`, { key: 'r2', name: 'R2', permissions: ['sheet:nogroup'] })).status).toBe(422);
});

it('environments are apart: another environment sees none of these groups', async () => {
  const other = `/v2/schema/${cypher.proj}/${cypher.env}`;
  await cypher.ok('POST', `${other}/resources`, { key: 'sheet', name: 'Sheet', actions: { view: {} } });
  expect(await cypher.ok('GET', `${other}/resources/sheet/action_groups`)).toEqual([]);
  const id = (await t.ok('GET', `${schema}/resources/sheet/action_groups/contribute`)).id;
  expect((await cypher.call('GET', `${other}/resources/sheet/action_groups/${id}`)).status).toBe(404);
});

it('deleting a group in use takes it off the roles that hold it, with the actions it gave', async () => {
  await t.ok('DELETE', `${schema}/resources/sheet/action_groups/contribute`, undefined, 204);
  expect((await t.ok('GET', `${schema}/roles/contributor`)).permissions).toEqual([]);
  expect((await t.ok('GET', `${schema}/resources/sheet/roles/commenter`)).permissions).toEqual([]);
  for (const user of ['gia', 'hal']) {
    const [ext, cyp] = await answers(user, ['view']);
    expect([ext.allow, cyp.allow]).toEqual([[false], [false]]);
  }
  expect(await t.ok('GET', `${schema}/resources/sheet/action_groups`)).toEqual([]);
});
