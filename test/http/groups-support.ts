import { startTestService, type TestService } from '../support/testService';

/** Shared set-up of the groups test files: a service of their own, tenants, resources and roles. */
export let t: TestService;
let envId: string;

export function useGroupsService(): void {
  beforeAll(async () => {
    t = await startTestService();
    const scope = await t.call('GET', '/v2/api-key/scope', undefined, { key: t.envKey });
    envId = scope.body.environment_id;
    await tenant('acme');
    await tenant('other');
    await resource('folder', ['read', 'write'], { viewer: ['read'], editor: ['read', 'write'] });
    await resource('repo', ['pull', 'push'], { maintainer: ['pull', 'push'] });
    await tenantRole('auditor', ['folder:read']);
  });
  afterAll(async () => t?.close());
}

export const schema = () => `/v2/schema/${t.proj}/${t.env}`;
export const facts = () => `/v2/facts/${t.proj}/${t.env}`;
export const enc = encodeURIComponent;
export const grp = (key: string) => `${schema()}/groups/${enc(key)}`;

export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error_code }).toEqual({ status, code });
  expect(res.body).toEqual(expect.objectContaining({ title: expect.any(String), message: expect.any(String) }));
  expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|Neo4jError|MATCH \(/);
}

/** Direct graph access, scoped to this file's environment, for set-up and for checking graph effects. */
export async function cypher(text: string, params: Record<string, unknown> = {}): Promise<Record<string, any>[]> {
  const session = t.service.driver.session();
  try {
    const res = await session.run(text, { env: envId, ...params });
    return res.records.map((r) => r.toObject());
  } finally {
    await session.close();
  }
}

/** Schema set-up through the schema area's API. */
export async function resource(key: string, actions: string[], roles: Record<string, string[]> = {}) {
  const res = await t.call('POST', `${schema()}/resources`, {
    key,
    name: key,
    actions: Object.fromEntries(actions.map((a) => [a, {}])),
    roles: Object.fromEntries(Object.entries(roles).map(([k, permissions]) => [k, { name: k, permissions }])),
  });
  expect(res.status).toBe(200);
}
export async function tenantRole(key: string, permissions: string[]) {
  const res = await t.call('POST', `${schema()}/roles`, { key, name: key, permissions });
  expect(res.status).toBe(200);
}
export async function instance(resourceKey: string, key: string, tenantKey: string) {
  const res = await t.call('POST', `${schema()}/resource_instances`, { key, resource: resourceKey, tenant: tenantKey });
  expect(res.status).toBe(200);
}
export async function tenant(key: string) {
  const res = await t.call('POST', `${facts()}/tenants`, { key, name: key });
  expect(res.status).toBe(200);
}
export async function user(key: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', `${facts()}/users`, { key, ...extra });
  expect(res.status).toBe(200);
}
export async function group(key: string, tenantKey: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', `${schema()}/groups`, { group_instance_key: key, group_tenant: tenantKey, ...extra });
  expect(res.status).toBe(200);
  return res.body;
}
export const assign = (a: string, b: string) => t.call('PUT', `${grp(a)}/assign_group`, { group_instance_key: b });
