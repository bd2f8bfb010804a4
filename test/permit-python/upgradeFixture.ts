/**
 * The graph the upgrade test has the previous version (91c0a63) write, through its own HTTP API
 * and shapes; driver.py's `read` mode reads exactly this back through the Python SDK.
 */
export type Caller = (method: string, path: string, body: unknown, key: string) => Promise<{ status: number; body: any }>;

export const FIXTURE_PROJECT = 'upgraded';
export const FIXTURE_ENV = 'prod';

/** Writes the fixture with the admin key; answers the environment key the old version issued. */
export async function writeFixture(call: Caller, adminKey: string): Promise<string> {
  const ok = async (method: string, path: string, body: unknown) => {
    let res = await call(method, path, body, adminKey);
    // A cold Neo4j may time a first statement out (503, nothing written): sent again, as test/support/testService.ts does.
    // A create that did land then answers 409, which is fine.
    for (let attempt = 1; res.status === 503 && attempt < 5; attempt++) {
      res = await call(method, path, body, adminKey);
      if (res.status === 409) return res.body;
    }
    if (res.status < 200 || res.status >= 300)
      throw new Error(`the previous version refused ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const p = FIXTURE_PROJECT;
  const e = FIXTURE_ENV;
  await ok('POST', '/v2/projects', { key: p, name: 'Upgraded' });
  await ok('POST', `/v2/projects/${p}/envs`, { key: e, name: 'Prod' });
  const key = await ok('POST', `/v2/api-key/${p}/${e}`, {});

  const schema = `/v2/schema/${p}/${e}`;
  const facts = `/v2/facts/${p}/${e}`;
  await ok('POST', `${schema}/resources`, {
    key: 'folder',
    name: 'Folder',
    actions: { read: {} },
    roles: { viewer: { permissions: ['read'] } },
  });
  await ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Doc',
    actions: { read: {}, write: {} },
    relations: { parent: 'folder' },
    roles: { viewer: { permissions: ['read'] } },
  });
  await ok('POST', `${schema}/resources/doc/roles/viewer/implicit_grants`, {
    role: 'viewer',
    on_resource: 'folder',
    linked_by_relation: 'parent',
  });
  await ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await ok('POST', `${schema}/roles`, { key: 'writer', name: 'Writer', permissions: ['doc:write'], extends: ['reader'] });

  await ok('POST', `${facts}/tenants`, { key: 'acme', name: 'Acme', attributes: { plan: 'gold' } });
  await ok('POST', `${facts}/tenants`, { key: 'globex', name: 'Globex' });
  for (const user of ['ana', 'sam']) await ok('POST', `${facts}/users`, { key: user });
  await ok('POST', `${facts}/resource_instances`, { key: 'readme', tenant: 'acme', resource: 'doc', attributes: { lang: 'en' } });
  await ok('POST', `${facts}/resource_instances`, { key: 'root', tenant: 'acme', resource: 'folder' });
  await ok('POST', `${facts}/role_assignments`, { user: 'ana', role: 'writer', tenant: 'acme' });
  await ok('POST', `${facts}/role_assignments`, { user: 'sam', role: 'reader', tenant: 'globex' });
  await ok('POST', `${facts}/role_assignments`, { user: 'sam', role: 'viewer', resource_instance: 'folder:root', tenant: 'acme' });
  await ok('POST', `${facts}/relationship_tuples`, { subject: 'folder:root', relation: 'parent', object: 'doc:readme', tenant: 'acme' });
  return key.secret as string;
}
