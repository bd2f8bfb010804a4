import { startTestService, type TestService, type TestServiceOptions } from '../support/testService';

/**
 * Shared world of the approval tests: a governed resource `doc` (and `file`), tenant `acme`
 * (and `other`), and users
 *   alice (requester), bob (LEVEL_1 role `approver`), lena (LEVEL_3 only: not a reviewer),
 *   carol (plain member), gina (reviewer through a group holding _Reviewer_),
 *   outsider (user of tenant `other` only).
 */
export interface World {
  t: TestService;
  envId: string;
  configId: string;
  base: string;
  schema: string;
  facts: string;
}

export const USERS = {
  alice: { email: 'alice@acme.test', first_name: 'Alice', last_name: 'Liddell' },
  bob: { email: 'bob@acme.test', first_name: 'Bob', last_name: 'Builder' },
  lena: { email: 'lena@acme.test', first_name: 'Lena', last_name: 'Level' },
  carol: { email: 'carol@acme.test', first_name: 'Carol', last_name: 'Member' },
  gina: { email: 'gina@acme.test', first_name: 'Gina', last_name: 'Group' },
};

export async function ok(t: TestService, method: string, path: string, body?: unknown, status = 200) {
  const res = await t.call(method, path, body);
  if (res.status !== status) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body.message).toEqual(expect.any(String));
  expect(JSON.stringify(res.body)).not.toMatch(/Neo4jError|MATCH \(|at .*\.ts:\d+/);
}

/** A tenant role assignment (which also makes the user belong to the tenant). */
export async function assignTenantRole(w: World, user: string, role: string, tenant: string) {
  await ok(w.t, 'POST', `${w.facts}/role_assignments`, { user, role, tenant });
}

export async function buildWorld(opts: TestServiceOptions = {}): Promise<World> {
  const t = await startTestService(opts);
  const schema = `/v2/schema/${t.proj}/${t.env}`;
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  const scope = await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey });
  const w: World = { t, envId: scope.body.environment_id, configId: '', base: '', schema, facts };
  await ok(t, 'POST', `${schema}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await ok(t, 'POST', `${schema}/resources`, { key: 'file', name: 'File', actions: {} });
  await ok(t, 'POST', `${schema}/roles`, { key: 'approver', name: 'Approver', permissions: ['doc:read'] });
  await ok(t, 'POST', `${schema}/roles`, { key: 'auditor', name: 'Auditor', permissions: [] });
  for (const tenant of ['acme', 'other']) await ok(t, 'POST', `${facts}/tenants`, { key: tenant, name: tenant });
  for (const [key, fields] of Object.entries(USERS)) await ok(t, 'POST', `${facts}/tenants/acme/users`, { key, ...fields });
  await ok(t, 'POST', `${facts}/tenants/other/users`, { key: 'outsider' });
  const config = await ok(t, 'POST', `/v2/elements/${t.proj}/${t.env}/config`, {
    key: 'ops',
    name: 'Ops approvals',
    elements_type: 'operation_approval',
    settings: { resources: ['doc', 'file'] },
    roles_to_levels: { LEVEL_1: ['approver'], LEVEL_2: [], LEVEL_3: ['auditor'], LEVEL_4: [] },
  });
  w.configId = config.id;
  w.base = `/v2/elements/${t.proj}/${t.env}/config/${config.id}/operation_approval`;
  await assignTenantRole(w, 'bob', 'approver', 'acme');
  await assignTenantRole(w, 'lena', 'auditor', 'acme');
  return w;
}

export interface Client {
  user: string;
  token: string;
  cookie: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
}

/** Logs a user in (environment key) and returns a client that sends the cookie and element_id. */
export async function login(w: World, user: string, tenant = 'acme'): Promise<Client> {
  const res = await w.t.call('POST', '/v2/auth/elements_login_as', { user_id: user, tenant_id: tenant }, { key: w.t.envKey });
  if (res.status !== 200) throw new Error(`login ${user}: ${res.status} ${JSON.stringify(res.body)}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  return {
    user,
    token: res.body.element_bearer_token,
    cookie,
    call: (method, path, body, headers = {}) =>
      w.t.call(method, path.startsWith('/v2/') ? path : `${w.base}${path}`, body, {
        key: null,
        headers: { cookie, element_id: w.configId, ...headers },
      }),
  };
}

export const request = (resource = 'doc', extra: Record<string, unknown> = {}) => ({
  access_request_details: { tenant: 'acme', resource, ...extra },
  reason: 'I need to operate it',
});

/** Resource instances of tenant `acme` (an approval names only an existing instance of its tenant). */
export async function instances(w: World, resource: string, keys: string[], tenant = 'acme') {
  await ok(w.t, 'POST', `${w.facts}/resource_instances/bulk`, { operations: keys.map((key) => ({ key, resource, tenant })) });
}

/** Runs `fn` over `items`, `size` at a time. */
export async function inBatches<T, R>(items: T[], size: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map((x, j) => fn(x, i + j)))));
  return out;
}
