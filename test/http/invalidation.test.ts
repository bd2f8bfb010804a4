import { startTestService, type TestService } from '../support/testService';

/**
 * A write moves the revision of the environments its Cypher declares (`// @invalidates $env`),
 * and only those: logins and logouts change no decision, so they leave the environment's
 * revision (and with it every cached decision) alone. The process learns each committed
 * revision through the revision listener injected into its Db.
 */
let t: TestService;
let envId: string;

beforeAll(async () => {
  t = await startTestService();
  envId = (await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey })).body.environment_id;
});
afterAll(async () => t?.close());

/** The revision stored in the graph, read on the leader. */
async function graphRevision(): Promise<number> {
  const db = t.service.db;
  const [row] = await db.readLatestRows(db.statement('revisions/readRevisions'), { envId });
  return row.revision as number;
}

it('moves the revision on a decision write, not on a login or a logout', async () => {
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  const created = await t.call('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme' });
  expect(created.status).toBe(200);
  const afterWrite = await graphRevision();
  expect(Number(created.headers.get('x-authz-revision'))).toBe(afterWrite);
  expect(t.service.parts.revisions.known(envId)).toBe(afterWrite);

  await t.ok('POST', `${facts}/tenants/acme/users`, { key: 'alice' });
  const beforeLogin = await graphRevision();
  expect(beforeLogin).toBe(afterWrite + 1);

  const login = await t.call('POST', '/v2/auth/elements_login_as', { user_id: 'alice', tenant_id: 'acme' }, { key: t.envKey });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const logout = await t.call('POST', '/v2/auth/logout', undefined, { key: null, headers: { cookie } });
  expect(logout.status).toBeLessThan(300);
  expect(await graphRevision()).toBe(beforeLogin);
  expect(t.service.parts.revisions.known(envId)).toBe(beforeLogin);

  await t.ok('DELETE', `${facts}/users/alice`);
  expect(await graphRevision()).toBe(beforeLogin + 1);
  expect(t.service.parts.revisions.known(envId)).toBe(beforeLogin + 1);
});
