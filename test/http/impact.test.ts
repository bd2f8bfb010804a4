import { startTestService, type TestService } from '../support/testService';

/**
 * The impact preview (docs/console.md#impact-preview): `POST /v2/impact/{p}/{e}` answers every
 * (user, action, object) intended writes would take away, by any path, and keeps nothing. Each
 * case previews a write, checks the answer, then makes the write for real and checks the preview
 * against the engine's own answers (every user x action x instance, asked before and after), then
 * undoes it for the next case.
 */
let t: TestService;
const p = () => `${t.proj}/${t.env}`;
const USERS = ['ann', 'bob', 'cid', 'dee', 'eve', 'fay'];
const INSTANCES: Record<string, string[]> = {
  repo: ['repo:api'],
  folder: ['folder:root', 'folder:sub', 'folder:deep'],
  doc: ['doc:memo'],
};
const ACTIONS: Record<string, string[]> = { repo: ['pull', 'push'], folder: ['read'], doc: ['read'] };

const policy = {
  resources: {
    repo: { name: 'Repo', actions: ['pull', 'push'], roles: { editor: { name: 'Editor', permissions: ['pull', 'push'] } } },
    folder: {
      name: 'Folder',
      actions: ['read'],
      roles: { viewer: { name: 'Viewer', permissions: ['read'] } },
      relations: { parent: 'folder' },
      derivations: [{ role: 'viewer', on_resource: 'folder', from_role: 'viewer', linked_by_relation: 'parent' }],
    },
    doc: { name: 'Doc', actions: ['read'], attributes: { classification: { type: 'string' } } },
  },
  roles: { auditor: { name: 'Auditor', permissions: ['repo:pull'] } },
  user_attributes: { department: { type: 'string' } },
  condition_sets: {
    engineering: { name: 'Engineering', type: 'userset', conditions: { allOf: [{ 'user.department': { equals: 'engineering' } }] } },
    internal_docs: {
      name: 'Internal',
      type: 'resourceset',
      resource: 'doc',
      conditions: { allOf: [{ 'resource.classification': { equals: 'internal' } }] },
    },
  },
  set_rules: [{ user_set: 'engineering', permission: 'doc:read', resource_set: 'internal_docs' }],
};

const tuples = [
  { subject: 'folder:root', relation: 'parent', object: 'folder:sub', tenant: 'default' },
  { subject: 'folder:sub', relation: 'parent', object: 'folder:deep', tenant: 'default' },
];

beforeAll(async () => {
  t = await startTestService();
  await t.ok('PUT', `/v2/schema/${p()}/policy`, policy);
  const facts = `/v2/facts/${p()}`;
  const schema = `/v2/schema/${p()}`;
  for (const key of USERS)
    await t.ok('POST', `${facts}/users`, { key, ...(key === 'eve' ? { attributes: { department: 'engineering' } } : {}) });
  for (const ref of Object.values(INSTANCES).flat()) {
    const [resource, key] = ref.split(':');
    await t.ok('POST', `${schema}/resource_instances`, {
      resource,
      key,
      tenant: 'default',
      ...(ref === 'doc:memo' ? { attributes: { classification: 'internal' } } : {}),
    });
  }
  for (const tuple of tuples) await t.ok('POST', `${facts}/relationship_tuples`, tuple);
  await t.ok('POST', `${facts}/role_assignments`, { user: 'ann', role: 'editor', resource_instance: 'repo:api', tenant: 'default' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'fay', role: 'editor', resource_instance: 'repo:api', tenant: 'default' });
  await t.ok('POST', `${facts}/role_assignments`, { user: 'bob', role: 'auditor', tenant: 'default' });
  await t.ok('POST', `${schema}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
  await t.ok('POST', `${schema}/groups`, { group_instance_key: 'staff', group_tenant: 'default' });
  await t.ok('PUT', `${schema}/groups/eng/assign_group`, { group_instance_key: 'staff' });
  await t.ok('POST', `${schema}/groups/staff/roles`, { resource: 'folder', resource_instance: 'root', role: 'viewer', tenant: 'default' });
  await t.ok('PUT', `${schema}/groups/eng/users/cid`, { tenant: 'default' });
  await t.ok('PUT', `${schema}/groups/staff/users/dee`, { tenant: 'default' });
}, 120_000);
afterAll(async () => t?.close());

type Triple = { user: string; action: string; object: string; tenant?: string };
const key = (x: Triple) => `${x.user} ${x.action} ${x.object}`;

/** The engine's answers for every user x action x instance (the bulk check, 100 at a time). */
async function matrix(env = t.env, users = USERS, instances = INSTANCES): Promise<Set<string>> {
  const qs: Triple[] = [];
  for (const user of users)
    for (const [type, refs] of Object.entries(instances))
      for (const ref of refs) for (const action of ACTIONS[type]) qs.push({ user, action, object: ref });
  const allowed = new Set<string>();
  for (let i = 0; i < qs.length; i += 100) {
    const chunk = qs.slice(i, i + 100);
    const ans = await t.ok(
      'POST',
      `/v2/allowed/${t.proj}/${env}/bulk`,
      chunk.map((q) => ({
        user: q.user,
        action: q.action,
        resource: { type: q.object.split(':')[0], key: q.object.split(':')[1], tenant: 'default' },
      })),
    );
    chunk.forEach((q, j) => ans.allow[j].allow && allowed.add(key(q)));
  }
  return allowed;
}

/** A preview's triples on instances: a tenant-wide one (`repo:*`) stands for every instance of its type. */
const expanded = (lost: Triple[], instances: Record<string, string[]> = INSTANCES) =>
  new Set(
    lost.flatMap((x) => (x.object.endsWith(':*') ? instances[x.object.slice(0, -2)].map((o) => key({ ...x, object: o })) : [key(x)])),
  );

async function preview(writes: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  // A generous deadline: the first plans of a fresh Neo4j take seconds (the default is 5 s).
  return t.ok('POST', `/v2/impact/${p()}`, { writes, deadline_ms: 30_000, ...extra });
}

/**
 * Previews `write`, checks the preview keeps nothing, makes the write (`real`) and checks the
 * preview equals what the engine allowed before and denies after; then `undo`.
 */
async function previewThenWrite(write: Record<string, unknown>, real: () => Promise<unknown>, undo: () => Promise<unknown>) {
  const before = await matrix();
  const changesBefore = await t.ok('GET', `/v2/facts/${p()}/changes?page_size=1000`);
  const answer = await preview([write]);
  // Nothing kept: the same answers, no change event, no new revision.
  expect(await matrix()).toEqual(before);
  expect(await t.ok('GET', `/v2/facts/${p()}/changes?page_size=1000`)).toEqual(changesBefore);
  await real();
  const after = await matrix();
  const lostByEngine = new Set([...before].filter((x) => !after.has(x)));
  expect(expanded(answer.lost)).toEqual(lostByEngine);
  expect(answer.count).toBe(answer.lost.length);
  expect(answer.cut).toBe(false);
  await undo();
  expect(await matrix()).toEqual(before);
  return answer;
}

const facts = (rest: string) => `/v2/facts/${p()}/${rest}`;
const schema = (rest: string) => `/v2/schema/${p()}/${rest}`;

describe('POST /v2/impact: what intended writes take away, by each path kind', () => {
  it('an instance role', async () => {
    const a = { user: 'ann', role: 'editor', resource_instance: 'repo:api', tenant: 'default' };
    const answer = await previewThenWrite(
      { op: 'unassign_role', ...a },
      () => t.ok('DELETE', facts('role_assignments'), a, 204),
      () => t.ok('POST', facts('role_assignments'), a),
    );
    expect(answer.lost).toEqual([
      { user: 'ann', action: 'pull', object: 'repo:api', tenant: 'default' },
      { user: 'ann', action: 'push', object: 'repo:api', tenant: 'default' },
    ]);
  });

  it('a tenant role', async () => {
    const a = { user: 'bob', role: 'auditor', tenant: 'default' };
    const answer = await previewThenWrite(
      { op: 'unassign_role', ...a },
      () => t.ok('DELETE', facts('role_assignments'), a, 204),
      () => t.ok('POST', facts('role_assignments'), a),
    );
    expect(expanded(answer.lost)).toEqual(new Set(['bob pull repo:api']));
  });

  it('a group membership, through the nested group and the derivations down the folders', async () => {
    const answer = await previewThenWrite(
      { op: 'remove_member', group: 'eng', user: 'cid' },
      () => t.ok('DELETE', schema('groups/eng/users/cid'), {}, 204),
      () => t.ok('PUT', schema('groups/eng/users/cid'), { tenant: 'default' }),
    );
    expect(expanded(answer.lost)).toEqual(new Set(['cid read folder:root', 'cid read folder:sub', 'cid read folder:deep']));
  });

  it('a nested group taken out of its parent: its members lose, the parent’s own do not', async () => {
    const answer = await previewThenWrite(
      { op: 'remove_parent', group: 'eng', parent: 'staff' },
      () => t.ok('DELETE', schema('groups/eng/assign_group'), { group_instance_key: 'staff' }, 204),
      () => t.ok('PUT', schema('groups/eng/assign_group'), { group_instance_key: 'staff' }),
    );
    expect([...expanded(answer.lost)].every((x) => x.startsWith('cid '))).toBe(true);
    expect(answer.count).toBe(3);
  });

  it("a group's role revoked: every member, direct and nested", async () => {
    const g = { resource: 'folder', resource_instance: 'root', role: 'viewer', tenant: 'default' };
    const answer = await previewThenWrite(
      { op: 'revoke_group_role', group: 'staff', role: 'viewer', resource_instance: 'folder:root', tenant: 'default' },
      () => t.ok('DELETE', schema('groups/staff/roles'), g, 204),
      () => t.ok('POST', schema('groups/staff/roles'), g),
    );
    expect(new Set(answer.lost.map((x: Triple) => x.user))).toEqual(new Set(['cid', 'dee']));
    expect(answer.count).toBe(6);
  });

  it('an instance deleted: what was derived through it (the folders below) is lost too', async () => {
    const answer = await previewThenWrite(
      { op: 'delete_instance', resource_instance: 'folder:sub' },
      () => t.ok('DELETE', schema('resource_instances/folder:sub'), undefined, 204),
      async () => {
        await t.ok('POST', schema('resource_instances'), { resource: 'folder', key: 'sub', tenant: 'default' });
        for (const tuple of tuples) await t.ok('POST', facts('relationship_tuples'), tuple);
      },
    );
    expect(expanded(answer.lost)).toEqual(
      new Set(['cid read folder:sub', 'cid read folder:deep', 'dee read folder:sub', 'dee read folder:deep']),
    );
    expect(answer.objects_checked).toBe(2);
  });

  it("a set rule: a user's attributes, and an instance's", async () => {
    const byUser = await previewThenWrite(
      { op: 'set_user_attributes', user: 'eve', attributes: { department: 'sales' } },
      () => t.ok('PATCH', facts('users/eve'), { attributes: { department: 'sales' } }),
      () => t.ok('PATCH', facts('users/eve'), { attributes: { department: 'engineering' } }),
    );
    expect(byUser.lost).toEqual([{ user: 'eve', action: 'read', object: 'doc:memo', tenant: 'default' }]);
    const byInstance = await previewThenWrite(
      { op: 'set_instance_attributes', resource_instance: 'doc:memo', attributes: { classification: 'public' } },
      () => t.ok('PATCH', schema('resource_instances/doc:memo'), { attributes: { classification: 'public' } }),
      () => t.ok('PATCH', schema('resource_instances/doc:memo'), { attributes: { classification: 'internal' } }),
    );
    expect(byInstance.lost).toEqual([{ user: 'eve', action: 'read', object: 'doc:memo', tenant: 'default' }]);
  });

  it('nothing lost: an unrelated attribute, a user with another path to the same access', async () => {
    const answer = await preview([
      { op: 'set_user_attributes', user: 'ann', attributes: { department: 'sales' } },
      { op: 'add_member', group: 'staff', user: 'cid', tenant: 'default' },
      { op: 'remove_member', group: 'eng', user: 'cid' },
    ]);
    expect(answer).toEqual({ lost: [], count: 0, cut: false, users_checked: 2, objects_checked: 0 });
  });

  it('several writes at once, and a group deleted', async () => {
    const answer = await preview([
      { op: 'delete_group', group: 'staff' },
      { op: 'delete_user', user: 'ann' },
    ]);
    expect(new Set(answer.lost.map((x: Triple) => x.user))).toEqual(new Set(['ann', 'cid', 'dee']));
    expect(answer.count).toBe(2 + 6);
    expect((await t.ok('GET', schema('groups/staff'))).group_instance_key).toBe('staff');
  });
});

describe('POST /v2/impact: errors, keys and bounds', () => {
  it("answers a write's own error, and keeps nothing of the writes before it", async () => {
    const res = await t.call('POST', `/v2/impact/${p()}`, {
      writes: [
        { op: 'remove_member', group: 'eng', user: 'cid' },
        { op: 'delete_group', group: 'nope' },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/nope/);
    expect((await t.ok('GET', schema('groups/eng/users'))).data.map((u: { key: string }) => u.key)).toEqual(['cid']);
  });

  it('answers 422 for a write without the fields it needs', async () => {
    const res = await t.call('POST', `/v2/impact/${p()}`, { writes: [{ op: 'unassign_role', user: 'ann' }] });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('"role"');
  });

  it('takes the admin key and a write key, not a read key', async () => {
    const body = { writes: [{ op: 'delete_user', user: 'fay' }] };
    expect((await t.call('POST', `/v2/impact/${p()}`, body, { key: t.envKey })).status).toBe(200);
    const read = await t.ok('POST', `/v2/api-key/${p()}`, { access_level: 'read' });
    expect((await t.call('POST', `/v2/impact/${p()}`, body, { key: read.secret })).status).toBe(403);
  });

  it('lists at most `limit` and counts them all', async () => {
    const answer = await preview([{ op: 'delete_group', group: 'staff' }], { limit: 2 });
    expect(answer.lost).toHaveLength(2);
    expect(answer.count).toBe(6);
  });

  it('answers within its deadline: cut, with what it found so far', async () => {
    const crowd = Array.from({ length: 150 }, (_, i) => `c${i}`);
    await t.ok('POST', facts('users/bulk'), { operations: crowd.map((key) => ({ key })) });
    await t.ok('POST', schema('groups'), { group_instance_key: 'crowd', group_tenant: 'default' });
    await t.ok('PUT', schema('groups/crowd/assign_group'), { group_instance_key: 'staff' });
    for (const user of crowd) await t.ok('PUT', schema(`groups/crowd/users/${user}`), { tenant: 'default' });
    const answer = await t.ok('POST', `/v2/impact/${p()}`, { writes: [{ op: 'delete_group', group: 'staff' }], deadline_ms: 100 });
    expect(answer.cut).toBe(true);
    expect(answer.users_checked).toBeLessThan(crowd.length + 2);
    expect(answer.count).toBe(answer.lost.length);
    expect(answer.count).toBe(answer.users_checked * 3);
  }, 60_000);
});

/** A small seeded generator (mulberry32): the same worlds and writes on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

describe('POST /v2/impact on random worlds', () => {
  it.each([11, 29])(
    'seed %i: each preview equals the engine’s answers before and after the write made',
    async (seed) => {
      const r = random(seed);
      const env = `random${seed}`;
      await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
      const at = (area: string, rest: string) => `/v2/${area}/${t.proj}/${env}/${rest}`;
      await t.ok('PUT', at('schema', 'policy'), policy);
      const users = Array.from({ length: 6 }, (_, i) => `u${i}`);
      const folders = Array.from({ length: 5 }, (_, i) => `folder:f${i}`);
      const instances = { repo: ['repo:r0', 'repo:r1'], folder: folders, doc: ['doc:d0'] };
      const writes: Record<string, unknown>[] = [];
      for (const u of users) {
        const engineering = r.chance(0.5);
        await t.ok('POST', at('facts', 'users'), { key: u, attributes: { department: engineering ? 'engineering' : 'sales' } });
        if (engineering) writes.push({ op: 'set_user_attributes', user: u, attributes: { department: 'sales' } });
      }
      for (const ref of Object.values(instances).flat()) {
        const [resource, k] = ref.split(':');
        await t.ok('POST', at('schema', 'resource_instances'), {
          resource,
          key: k,
          tenant: 'default',
          ...(resource === 'doc' ? { attributes: { classification: 'internal' } } : {}),
        });
      }
      writes.push({ op: 'set_instance_attributes', resource_instance: 'doc:d0', attributes: { classification: 'public' } });
      for (let i = 1; i < folders.length; i++) {
        await t.ok('POST', at('facts', 'relationship_tuples'), {
          subject: folders[r.below(i)],
          relation: 'parent',
          object: folders[i],
          tenant: 'default',
        });
      }
      writes.push({ op: 'delete_instance', resource_instance: folders[r.below(folders.length)] });
      const groups = ['g0', 'g1', 'g2', 'g3'];
      for (const g of groups) await t.ok('POST', at('schema', 'groups'), { group_instance_key: g, group_tenant: 'default' });
      for (let i = 0; i < groups.length; i++)
        for (let j = i + 1; j < groups.length; j++)
          if (r.chance(0.4)) {
            await t.ok('PUT', at('schema', `groups/${groups[i]}/assign_group`), { group_instance_key: groups[j] });
            writes.push({ op: 'remove_parent', group: groups[i], parent: groups[j] });
          }
      for (const g of groups) {
        const f = folders[r.below(folders.length)];
        await t.ok('POST', at('schema', `groups/${g}/roles`), {
          resource: 'folder',
          resource_instance: f.slice(7),
          role: 'viewer',
          tenant: 'default',
        });
        writes.push({ op: 'revoke_group_role', group: g, role: 'viewer', resource_instance: f, tenant: 'default' });
      }
      for (const u of users) {
        const g = groups[r.below(groups.length)];
        await t.ok('PUT', at('schema', `groups/${g}/users/${u}`), { tenant: 'default' });
        writes.push({ op: 'remove_member', group: g, user: u });
        if (r.chance(0.4)) {
          const a = { user: u, role: 'editor', resource_instance: `repo:r${r.below(2)}`, tenant: 'default' };
          await t.ok('POST', at('facts', 'role_assignments'), a);
          writes.push({ op: 'unassign_role', ...a });
        }
        if (r.chance(0.3)) {
          const a = { user: u, role: 'auditor', tenant: 'default' };
          await t.ok('POST', at('facts', 'role_assignments'), a);
          writes.push({ op: 'unassign_role', ...a });
        }
      }
      // Five of those writes, one after the other: each previewed, then made.
      for (let n = 0; n < 5 && writes.length; n++) {
        const [w] = writes.splice(r.below(writes.length), 1);
        const before = await matrix(env, users, instances);
        const answer = await t.ok('POST', `/v2/impact/${t.proj}/${env}`, { writes: [w], deadline_ms: 30_000 });
        expect(await matrix(env, users, instances)).toEqual(before);
        await makeWrite(at, w);
        const after = await matrix(env, users, instances);
        expect({ write: w, lost: expanded(answer.lost, instances) }).toEqual({
          write: w,
          lost: new Set([...before].filter((x) => !after.has(x))),
        });
      }
    },
    120_000,
  );
});

/** The write an intended write names, made through its public route. */
async function makeWrite(at: (area: string, rest: string) => string, w: Record<string, any>): Promise<void> {
  switch (w.op) {
    case 'set_user_attributes':
      return void (await t.ok('PATCH', at('facts', `users/${w.user}`), { attributes: w.attributes }));
    case 'set_instance_attributes':
      return void (await t.ok('PATCH', at('schema', `resource_instances/${w.resource_instance}`), { attributes: w.attributes }));
    case 'delete_instance':
      return void (await t.ok('DELETE', at('schema', `resource_instances/${w.resource_instance}`), undefined, 204));
    case 'remove_parent':
      return void (await t.ok('DELETE', at('schema', `groups/${w.group}/assign_group`), { group_instance_key: w.parent }, 204));
    case 'revoke_group_role': {
      const [resource, k] = String(w.resource_instance).split(':');
      const body = { resource, resource_instance: k, role: w.role, tenant: w.tenant };
      return void (await t.ok('DELETE', at('schema', `groups/${w.group}/roles`), body, 204));
    }
    case 'remove_member':
      return void (await t.ok('DELETE', at('schema', `groups/${w.group}/users/${w.user}`), {}, 204));
    case 'unassign_role': {
      const { op: _, ...body } = w;
      return void (await t.ok('DELETE', at('facts', 'role_assignments'), body, 204));
    }
  }
}
