import { CypherWalk } from '../../src/areas/decisions/walkStore';
import { startTestService, type TestService } from '../support/testService';
import { type Replica, startReplica } from './replica-support';

/**
 * Read-your-revoke across replicas (docs/behaviour.md section 9): two service instances on one Neo4j.
 * A membership removed through replica A is denied by replica B on its very next request,
 * without a sleep and without a token, although B polls revisions only every 10 minutes and
 * had the allow in its decision cache.
 */
let a: TestService;
let b: Replica;
const schema = () => `/v2/schema/${a.proj}/${a.env}`;
const facts = () => `/v2/facts/${a.proj}/${a.env}`;
const allowed = () => `/v2/allowed/${a.proj}/${a.env}`;
const question = { user: 'ann', action: 'read', resource: { type: 'doc', key: 'd1' } };
const onB = (suffix: string, body: unknown) => b.post(allowed() + suffix, body, a.envKey);

async function ok(method: string, path: string, body?: unknown): Promise<void> {
  const res = await a.call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
}

/** Every decision view of replica B on ann reading d1. */
async function viewsOnB() {
  const check = (await onB('', question)).body.allow;
  const bulk = (await onB('/bulk', [question, { ...question, action: 'read' }])).body.allow;
  const perms = (await onB('/user-permissions', { user: 'ann' })).body['doc:d1']?.permissions ?? [];
  const users = Object.keys((await onB('/authorized_users', { action: 'read', resource: { type: 'doc', key: 'd1' } })).body.users);
  return { check, bulk, perms, users };
}
const granted = { check: true, bulk: [{ allow: true }, { allow: true }], perms: ['doc:read'], users: ['ann'] };
const denied = { check: false, bulk: [{ allow: false }, { allow: false }], perms: [], users: [] };

beforeAll(async () => {
  a = await startTestService();
  b = await startReplica();
  await ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await ok('POST', `${schema()}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await ok('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  await ok('POST', `${facts()}/users`, { key: 'ann' });
  await ok('POST', `${schema()}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
  await ok('POST', `${schema()}/groups/eng/roles`, { resource: 'doc', resource_instance: 'd1', role: 'reader', tenant: 'default' });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

it('denies on replica B, at its next request, a membership revoked through replica A', async () => {
  await ok('PUT', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  expect(await viewsOnB()).toEqual(granted);
  expect(await viewsOnB()).toEqual(granted); // B's decision cache now holds the allows
  await ok('DELETE', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  expect(await viewsOnB()).toEqual(denied);
  await ok('PUT', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  expect(await viewsOnB()).toEqual(granted); // and a grant through A is seen at once too
});

it('holds for questions that arrive together while B reads the revision, and for {at_least}', async () => {
  await ok('PUT', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  expect((await onB('', question)).body.allow).toBe(true);
  await ok('DELETE', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => onB('', i % 2 ? question : { ...question, consistency: { at_least: '1' } })),
  );
  expect(answers.map((r) => r.body.allow)).toEqual(Array(20).fill(false));
});

it('still answers unchanged questions from the cache, and serves bounded staleness only to an explicit minimize_latency', async () => {
  await ok('PUT', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
  expect((await onB('', question)).body.allow).toBe(true);
  const traversals = jest.spyOn(CypherWalk.prototype, 'check');
  try {
    expect((await onB('', question)).body.allow).toBe(true);
    expect(traversals).not.toHaveBeenCalled(); // same revision: the cached answer, no traversal
    await ok('DELETE', `${schema()}/groups/eng/users/ann`, { tenant: 'default' });
    // The opt-in may answer from the revision B knows; but B's last read of the revision was sent
    // before the delete, which was acknowledged a coherence window after its commit: the request's
    // key check reads the key and the new revision again, so even the opt-in is not stale here.
    expect((await onB('', { ...question, consistency: 'minimize_latency' })).body.allow).toBe(false);
    expect((await onB('', question)).body.allow).toBe(false);
    expect(traversals).toHaveBeenCalledTimes(1); // the second answer is the first one's, cached at the new revision
  } finally {
    traversals.mockRestore();
  }
});
