import { CypherWalk } from '../../src/areas/decisions/walkStore';
import { startTestService, type TestService } from '../support/testService';
import { type Replica, startReplica } from './replica-support';

/**
 * The decision cache never answers a stale "allow" after a revoke the caller has seen: on the
 * replica that took the write at once, on another replica with the write's revision token or
 * fully_consistent.
 */
let a: TestService;
let b: Replica;
const facts = () => `/v2/facts/${a.proj}/${a.env}`;
const assignment = { user: 'ann', role: 'owner', tenant: 'default', resource_instance: 'doc:d1' };
const question = { user: 'ann', action: 'read', resource: { type: 'doc', key: 'd1' } };

const onB = async (path: string, body: unknown): Promise<any> => (await b.post(path, body, a.envKey)).body;

beforeAll(async () => {
  a = await startTestService();
  b = await startReplica();
  await a.call('POST', `/v2/schema/${a.proj}/${a.env}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await a.call('POST', `/v2/schema/${a.proj}/${a.env}/resources/doc/roles`, { key: 'owner', name: 'Owner', permissions: ['read'] });
  await a.call('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  await a.call('POST', `${facts()}/users`, { key: 'ann' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const allowedPath = () => `/v2/allowed/${a.proj}/${a.env}`;

it('answers a revoke at once on the replica that took it, and writes return a revision token', async () => {
  const granted = await a.call('POST', `${facts()}/role_assignments`, assignment);
  expect(Number(granted.headers.get('x-authz-revision'))).toBeGreaterThan(0);
  expect((await a.call('POST', allowedPath(), question)).body.allow).toBe(true);
  expect((await a.call('POST', allowedPath(), question)).body.allow).toBe(true); // from the cache
  const revoked = await a.call('DELETE', `${facts()}/role_assignments`, assignment);
  expect(revoked.status).toBe(204);
  expect((await a.call('POST', allowedPath(), question)).body.allow).toBe(false);
});

it('honours the token and fully_consistent on another replica', async () => {
  const granted = await a.call('POST', `${facts()}/role_assignments`, assignment);
  const grantToken = granted.headers.get('x-authz-revision')!;
  expect((await onB(allowedPath(), { ...question, consistency: { at_least: grantToken } })).allow).toBe(true);
  expect((await onB(allowedPath(), question)).allow).toBe(true); // cached on B
  const revoked = await a.call('DELETE', `${facts()}/role_assignments`, assignment);
  const token = revoked.headers.get('x-authz-revision')!;
  expect(Number(token)).toBeGreaterThan(Number(grantToken));
  expect((await onB(allowedPath(), { ...question, consistency: 'fully_consistent' })).allow).toBe(false);
  expect((await onB(allowedPath(), { ...question, consistency: { at_least: token } })).allow).toBe(false);
  expect((await onB(`${allowedPath()}/bulk`, [{ ...question, consistency: { at_least: token } }])).allow).toEqual([{ allow: false }]);
});

it('a fully_consistent question always traverses, and its answer serves the next default questions until a write', async () => {
  await a.call('POST', `${facts()}/role_assignments`, assignment);
  const traversals = jest.spyOn(CypherWalk.prototype, 'check');
  try {
    const strict = { ...question, consistency: 'fully_consistent' };
    expect((await a.call('POST', allowedPath(), strict)).body.allow).toBe(true);
    expect((await a.call('POST', allowedPath(), strict)).body.allow).toBe(true);
    expect(traversals).toHaveBeenCalledTimes(2); // never from the cache
    expect((await a.call('POST', allowedPath(), question)).body.allow).toBe(true);
    expect(traversals).toHaveBeenCalledTimes(2); // the default question used the strict answer
    await a.call('DELETE', `${facts()}/role_assignments`, assignment);
    expect((await a.call('POST', allowedPath(), question)).body.allow).toBe(false);
    expect(traversals).toHaveBeenCalledTimes(3); // a write moved the revision: traversed again
  } finally {
    traversals.mockRestore();
  }
});

it('rejects a malformed consistency option', async () => {
  const res = await a.call('POST', allowedPath(), { ...question, consistency: { at_least: 'yesterday' } });
  expect(res.status).toBe(422);
});
