import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 8, one reference rule: a path parameter names the record whose key equals
 * it, else the record whose id equals it. Here one record's key is another's id: every get,
 * update and delete through that reference touches only the keyed record.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;

beforeAll(async () => {
  t = await startTestService();
  await t.ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `${schema()}/roles`, { key: 'lead', name: 'Lead', permissions: [] });
}, 180_000);
afterAll(async () => t?.close());

interface Kind {
  /** Creates a record of this key; answers its id. */
  create(key: string, name: string): Promise<string>;
  path(ref: string): string;
  /** The record's display name as the API shows it. */
  nameOf(body: any): string;
  patch?: (name: string) => unknown;
}

const kinds: Record<string, () => Kind> = {
  projects: () => ({
    create: async (key, name) => (await t.ok('POST', '/v2/projects', { key, name })).id,
    path: (ref) => `/v2/projects/${ref}`,
    nameOf: (b) => b.name,
  }),
  environments: () => ({
    create: async (key, name) => (await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key, name })).id,
    path: (ref) => `/v2/projects/${t.proj}/envs/${ref}`,
    nameOf: (b) => b.name,
  }),
  resources: () => ({
    create: async (key, name) => (await t.ok('POST', `${schema()}/resources`, { key, name, actions: {} })).id,
    path: (ref) => `${schema()}/resources/${ref}`,
    nameOf: (b) => b.name,
    patch: (name) => ({ name }),
  }),
  roles: () => ({
    create: async (key, name) => (await t.ok('POST', `${schema()}/roles`, { key, name, permissions: [] })).id,
    path: (ref) => `${schema()}/roles/${ref}`,
    nameOf: (b) => b.name,
    patch: (name) => ({ name }),
  }),
  'resource roles': () => ({
    create: async (key, name) => (await t.ok('POST', `${schema()}/resources/doc/roles`, { key, name, permissions: [] })).id,
    path: (ref) => `${schema()}/resources/doc/roles/${ref}`,
    nameOf: (b) => b.name,
    patch: (name) => ({ name }),
  }),
  groups: () => ({
    create: async (key, name) => (await t.ok('POST', `${schema()}/groups`, { group_instance_key: key, group_tenant: 'default', name })).id,
    path: (ref) => `${schema()}/groups/${ref}`,
    nameOf: (b) => b.name,
    patch: (name) => ({ name }),
  }),
  'elements configs': () => ({
    create: async (key, name) =>
      (
        await t.ok('POST', `/v2/elements/${t.proj}/${t.env}/config`, {
          key,
          name,
          elements_type: 'operation_approval',
          roles_to_levels: { LEVEL_1: ['lead'] },
        })
      ).id,
    path: (ref) => `/v2/elements/${t.proj}/${t.env}/config/${ref}`,
    nameOf: (b) => b.name,
    patch: (name) => ({ name }),
  }),
};

describe.each(Object.keys(kinds))('%s', (kind) => {
  it("get, update and delete by a reference that is one record's key and another's id touch only the keyed record", async () => {
    const k = kinds[kind]();
    const suffix = Math.random().toString(36).slice(2, 8);
    const firstId = await k.create(`first_${suffix}`, 'First');
    // The second record's key is the first record's id.
    const secondId = await k.create(firstId, 'Second');
    expect(secondId).not.toBe(firstId);

    const got = await t.call('GET', k.path(firstId));
    expect({ status: got.status, name: k.nameOf(got.body) }).toEqual({ status: 200, name: 'Second' });
    // The first record is still reachable by its key, and by its id only when no key shadows it.
    expect(k.nameOf((await t.call('GET', k.path(`first_${suffix}`))).body)).toBe('First');

    if (k.patch) {
      expect((await t.call('PATCH', k.path(firstId), k.patch('Renamed'))).status).toBe(200);
      expect(k.nameOf((await t.call('GET', k.path(firstId))).body)).toBe('Renamed');
      expect(k.nameOf((await t.call('GET', k.path(`first_${suffix}`))).body)).toBe('First');
    }

    expect((await t.call('DELETE', k.path(firstId))).status).toBe(204);
    const first = await t.call('GET', k.path(`first_${suffix}`));
    expect({ status: first.status, id: first.body.id, name: k.nameOf(first.body) }).toEqual({ status: 200, id: firstId, name: 'First' });
    // With the keyed record gone, the reference names the record of that id.
    expect((await t.call('GET', k.path(firstId))).body.id).toBe(firstId);
    expect((await t.call('GET', k.path(secondId))).status).toBe(404);
  });
});

describe('resource instances', () => {
  it('"type:key" names the instance of that key; a bare id names the instance of that id', async () => {
    const first = await t.ok('POST', `${facts()}/resource_instances`, {
      key: 'i1',
      tenant: 'default',
      resource: 'doc',
      attributes: { n: 1 },
    });
    const second = await t.ok('POST', `${facts()}/resource_instances`, {
      key: first.id,
      tenant: 'default',
      resource: 'doc',
      attributes: { n: 2 },
    });
    const path = (ref: string) => `${facts()}/resource_instances/${encodeURIComponent(ref)}`;
    expect((await t.call('GET', path(first.id))).body.id).toBe(first.id);
    expect((await t.call('GET', path(`doc:${first.id}`))).body.id).toBe(second.id);
    expect((await t.call('PATCH', path(`doc:${first.id}`), { attributes: { n: 3 } })).status).toBe(200);
    expect((await t.call('GET', path(first.id))).body.attributes).toEqual({ n: 1 });
    expect((await t.call('DELETE', path(`doc:${first.id}`))).status).toBe(204);
    expect((await t.call('GET', path('doc:i1'))).status).toBe(200);
    expect((await t.call('GET', path(second.id))).status).toBe(404);
  });
});
