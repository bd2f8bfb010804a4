import { startTestService, TestService } from '../support/testService';

// Read-modify-write of the schema's lists (a role's permissions, a resource's actions) under
// concurrent calls: each acknowledged change must survive the others (no lost update).

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const N = 10;
const keys = [...Array(N).keys()].map((i) => `a${i}`);
const actions = Object.fromEntries(keys.map((k) => [k, {}]));

/** The statuses of calls made at once. */
async function all(calls: Promise<{ status: number }>[]) {
  return (await Promise.all(calls)).map((r) => r.status);
}

describe('concurrent changes of one list', () => {
  it('keeps every permission added to a tenant role by concurrent calls', async () => {
    await t.ok('POST', `${schema()}/resources`, { key: 'cdoc', name: 'Doc', actions });
    await t.ok('POST', `${schema()}/roles`, { key: 'crole', name: 'Role', permissions: [] });
    const statuses = await all(keys.map((k) => t.call('POST', `${schema()}/roles/crole/permissions`, { permissions: [`cdoc:${k}`] })));
    expect(statuses).toEqual(Array(N).fill(200));
    const role = await t.ok('GET', `${schema()}/roles/crole`);
    expect([...role.permissions].sort()).toEqual(keys.map((k) => `cdoc:${k}`).sort());
  });

  it('keeps a removal acknowledged while other permissions are added to a resource role', async () => {
    await t.ok('POST', `${schema()}/resources/cdoc/roles`, { key: 'rrole', name: 'R', permissions: ['a0', 'a1', 'a2', 'a3', 'a4'] });
    // Remove a0..a4 one by one while adding a5..a9, all at once.
    const statuses = await all([
      ...keys.slice(0, 5).map((k) => t.call('DELETE', `${schema()}/resources/cdoc/roles/rrole/permissions`, { permissions: [k] })),
      ...keys.slice(5).map((k) => t.call('POST', `${schema()}/resources/cdoc/roles/rrole/permissions`, { permissions: [k] })),
    ]);
    expect(statuses).toEqual(Array(N).fill(200));
    const role = await t.ok('GET', `${schema()}/resources/cdoc/roles/rrole`);
    expect([...role.permissions].sort()).toEqual(keys.slice(5).sort());
  });

  it('keeps every action added to a resource by concurrent calls', async () => {
    await t.ok('POST', `${schema()}/resources`, { key: 'cacts', name: 'Acts', actions: {} });
    const statuses = await all(keys.map((k) => t.call('POST', `${schema()}/resources/cacts/actions`, { key: k, name: k })));
    expect(statuses).toEqual(Array(N).fill(200));
    const listed = await t.ok('GET', `${schema()}/resources/cacts/actions`);
    expect(listed.data.map((a: any) => a.key).sort()).toEqual([...keys].sort());
    const resource = await t.ok('GET', `${schema()}/resources/cacts`);
    expect(Object.keys(resource.actions).sort()).toEqual([...keys].sort());
  });

  it('answers one 200 and 409s for concurrent creates of the same action', async () => {
    const statuses = await all(keys.map(() => t.call('POST', `${schema()}/resources/cacts/actions`, { key: 'same', name: 'Same' })));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N - 1);
  });

  it('keeps every action removed by concurrent calls removed, and the roles without them', async () => {
    await t.ok('POST', `${schema()}/resources/cacts/roles`, { key: 'all', name: 'All', permissions: keys });
    const statuses = await all(keys.slice(0, 5).map((k) => t.call('DELETE', `${schema()}/resources/cacts/actions/${k}`)));
    expect(statuses).toEqual(Array(5).fill(204));
    const resource = await t.ok('GET', `${schema()}/resources/cacts`);
    expect(Object.keys(resource.actions).sort()).toEqual([...keys.slice(5), 'same'].sort());
    const role = await t.ok('GET', `${schema()}/resources/cacts/roles/all`);
    expect([...role.permissions].sort()).toEqual(keys.slice(5).sort());
  });
});
