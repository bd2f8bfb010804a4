import { ProvisioningStore } from '../../src/areas/provisioning/store';
import { hashSecret } from '../../src/auth/secrets';
import { startTestService, type TestService } from '../support/testService';
import { type Replica, startReplica } from './replica-support';

/**
 * Two service instances on one Neo4j (docs/behaviour.md section 8): a key revoked or rotated through one
 * is refused by the other on its next request (no cache grace), and a bulk question carrying
 * several `at_least` tokens is answered from a state that includes the largest.
 */
let a: TestService;
let b: Replica;
const question = { user: 'ann', action: 'read', resource: { type: 'doc', key: 'd1' } };
const assignment = { user: 'ann', role: 'reader', tenant: 'default', resource_instance: 'doc:d1' };
const keys = () => `/v2/api-key/${a.proj}/${a.env}`;
const facts = () => `/v2/facts/${a.proj}/${a.env}`;
const allowedPath = () => `/v2/allowed/${a.proj}/${a.env}`;

async function onB(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(b.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  // A coherence window of 100 ms on both replicas (they must agree on it): with the default 20 ms,
  // a loaded box took longer than the window for one revision read, and the busy replica below
  // looked its key up on most requests (37 lookups for 50 answers), which is what the test
  // measures, not what it is about.
  const window = { COHERENCE_WINDOW_MS: '100' };
  a = await startTestService({ env: window });
  // Replica B polls revisions rarely, so that only what a request itself reads can help it; it
  // starts answering from its coherence window before the tests (startReplica).
  b = await startReplica(window);
  await a.ok('POST', `/v2/schema/${a.proj}/${a.env}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await a.ok('POST', `/v2/schema/${a.proj}/${a.env}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await a.ok('POST', `${facts()}/resource_instances`, { key: 'd1', tenant: 'default', resource: 'doc' });
  await a.ok('POST', `${facts()}/users`, { key: 'ann' });
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

it('a key revoked through one replica is refused by the other on its next request', async () => {
  const k = await a.ok('POST', keys(), { name: 'leaked' });
  // B has just used the key (a cache, if any, holds it now).
  expect((await onB('POST', '/allowed', k.secret, question)).status).toBe(200);
  expect((await onB('POST', '/allowed', k.secret, question)).status).toBe(200);
  expect((await a.call('DELETE', `${keys()}/${k.id}`)).status).toBe(204);
  const refused = await onB('POST', '/allowed', k.secret, question);
  expect({ status: refused.status, code: refused.body.error_code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  expect((await onB('POST', allowedPath(), k.secret, question)).status).toBe(401);
});

it('a secret rotated through one replica is refused by the other on its next request; the new one works there', async () => {
  const k = await a.ok('POST', keys(), { name: 'rotated', access_level: 'read' });
  expect((await onB('POST', allowedPath(), k.secret, question)).status).toBe(200);
  const rotated = await a.ok('POST', `/v2/api-key/${k.id}/rotate-secret`);
  const refused = await onB('POST', allowedPath(), k.secret, question);
  expect({ status: refused.status, code: refused.body.error_code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  expect((await onB('POST', allowedPath(), rotated.secret, question)).status).toBe(200);
});

it('a replica kept busy answers without a key lookup, yet denies a role and refuses a key revoked through the other at the next request', async () => {
  const k = await a.ok('POST', keys(), { name: 'busy' });
  await a.ok('POST', `${facts()}/role_assignments`, assignment);
  expect(b.service.parts.revisions.windowOpen()).toBe(true); // B answers from its window (startReplica)
  expect(a.service.replicas.alone()).toBe(false); // and A, which knows of B, waits after its writes
  const lookups = jest.spyOn(ProvisioningStore.prototype, 'resolveScope');
  const lookupsOfK = () => lookups.mock.calls.filter(([hash]) => hash === hashSecret(k.secret)).length;
  let stop = false;
  let served = 0;
  // A client that keeps B busy with key k: B answers it from the key row and revision it keeps
  // while its reads of the revision are younger than the coherence window.
  const busy = (async () => {
    while (!stop) if ((await onB('POST', allowedPath(), k.secret, question)).status === 200) served++;
  })();
  try {
    for (let waited = 0; served < 50 && waited < 20_000; waited += 50) await new Promise((ok) => setTimeout(ok, 50));
    expect(served).toBeGreaterThanOrEqual(50);
    expect(lookupsOfK()).toBeLessThan(served / 2);
    for (let i = 0; i < 5; i++) {
      await a.ok('DELETE', `${facts()}/role_assignments`, assignment);
      expect((await onB('POST', allowedPath(), k.secret, question)).body.allow).toBe(false);
      await a.ok('POST', `${facts()}/role_assignments`, assignment);
      expect((await onB('POST', allowedPath(), k.secret, question)).body.allow).toBe(true);
    }
    expect((await a.call('DELETE', `${keys()}/${k.id}`)).status).toBe(204);
    expect((await onB('POST', allowedPath(), k.secret, question)).status).toBe(401);
    expect((await onB('POST', '/allowed', k.secret, question)).status).toBe(401);
  } finally {
    stop = true;
    await busy;
    lookups.mockRestore();
    await a.call('DELETE', `${facts()}/role_assignments`, assignment);
  }
});

it('a bulk question is answered at its largest at_least token, wherever that token is in the list', async () => {
  const granted = await a.call('POST', `${facts()}/role_assignments`, assignment);
  const grantToken = granted.headers.get('x-authz-revision')!;
  // B learns the grant and caches "allowed" at that revision.
  expect((await onB('POST', allowedPath(), a.envKey, { ...question, consistency: { at_least: grantToken } })).body.allow).toBe(true);
  const revoked = await a.call('DELETE', `${facts()}/role_assignments`, assignment);
  const revokeToken = revoked.headers.get('x-authz-revision')!;
  expect(Number(revokeToken)).toBeGreaterThan(Number(grantToken));
  const bulk = await onB('POST', `${allowedPath()}/bulk`, a.envKey, [
    { ...question, consistency: { at_least: grantToken } },
    { ...question, consistency: { at_least: revokeToken } },
  ]);
  expect(bulk.body).toEqual({ allow: [{ allow: false }, { allow: false }] });
});
