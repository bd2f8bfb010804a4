import { startTestService, type TestService } from '../support/testService';

/**
 * Role assignments written by the walk extension's procedure (graphauthz.assignInstanceRoles,
 * docs/walk-extension.md "Writes") and by the Cypher statement (WALK=cypher) leave the same graph,
 * answer the same, and record the same change events: one service of each, the same writes to an
 * environment of each, everything a client reads afterwards compared (ids and instants aside).
 */
jest.setTimeout(120_000);

let ext: TestService;
let cypher: TestService;
afterAll(async () => {
  await ext?.close();
  await cypher?.close();
});

type Call = (t: TestService) => Promise<{ status: number; body: any }>;
const schema = (t: TestService) => `/v2/schema/${t.proj}/${t.env}`;
const facts = (t: TestService) => `/v2/facts/${t.proj}/${t.env}`;

/** Runs the same call on both services; answers both results. */
async function both(call: Call) {
  return Promise.all([call(ext), call(cypher)]);
}

/** The same call on both: the same status and body, ids and instants aside. */
async function same(call: Call) {
  const [a, b] = await both(call);
  expect({ status: a.status, body: plain(a.body) }).toEqual({ status: b.status, body: plain(b.body) });
  return a;
}

/** A body without what differs between two environments by nature: ids, instants, the environment's names. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'id' || k.endsWith('_id') || k.endsWith('_at') || k === 'at' || k === 'revision') continue;
    if (k === 'env' || k === 'next_revision' || k === 'project' || k === 'environment') continue;
    // A user's tenants in the order their memberships were stored: not an order the API promises.
    out[k] =
      k === 'associated_tenants' ? plain([...(x as { tenant: string }[])].sort((p, q) => p.tenant.localeCompare(q.tenant))) : plain(x);
  }
  return out;
}

/** Every assignment, in an order of what they are (the list orders by instant, then by id: random). */
const allAssignments = async (t: TestService) => {
  const res = await t.call('GET', `${facts(t)}/role_assignments?per_page=100`);
  const text = (a: Record<string, unknown>) => `${a.user} ${a.role} ${a.resource_instance ?? ''} ${a.tenant}`;
  return { status: res.status, body: [...res.body].sort((a, b) => text(a).localeCompare(text(b))) };
};
/** The change feed after a revision of each service's own (every event from the start without one). */
const feedAfter =
  (after = new Map<TestService, number>()) =>
  async (t: TestService) => {
    const res = await t.call('GET', `${facts(t)}/changes?page_size=1000&after_revision=${after.get(t) ?? 0}`);
    return { status: res.status, body: res.body.changes };
  };
const changes = feedAfter();
/** Each service's latest revision in its feed. */
const revisions = async () => {
  const out = new Map<TestService, number>();
  for (const t of [ext, cypher]) {
    let rev = 0;
    for (;;) {
      const page = (await t.call('GET', `${facts(t)}/changes?page_size=1000&after_revision=${rev}`)).body;
      if (!page.changes.length) break;
      rev = page.next_revision;
    }
    out.set(t, rev);
  }
  return out;
};

beforeAll(async () => {
  [ext, cypher] = await Promise.all([startTestService(), startTestService({ env: { WALK: 'cypher' } })]);
  expect((await ext.call('GET', '/readyz', undefined, { key: null })).body.walk).toBe('extension');
  expect((await cypher.call('GET', '/readyz', undefined, { key: null })).body.walk).toBe('cypher');
  await same((t) =>
    t.call('POST', `${schema(t)}/resources`, {
      key: 'doc',
      name: 'Doc',
      actions: { read: {}, edit: {} },
      roles: { reader: { name: 'Reader', permissions: ['read'] }, editor: { name: 'Editor', permissions: ['read', 'edit'] } },
    }),
  );
  await same((t) => t.call('POST', `${schema(t)}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['doc:read'] }));
  await same((t) => t.call('POST', `${facts(t)}/tenants`, { key: 'other', name: 'Other' }));
  await same((t) => t.call('POST', `${facts(t)}/users/bulk`, { operations: ['u1', 'u2', 'u3', 'u4'].map((key) => ({ key })) }));
  await same((t) =>
    t.call('POST', `${facts(t)}/resource_instances/bulk`, {
      operations: [
        ...['d1', 'd2', 'd3'].map((key) => ({ key, resource: 'doc', tenant: 'default' })),
        { key: 'o1', resource: 'doc', tenant: 'other' },
      ],
    }),
  );
});

it('a bulk of new, repeated and already held assignments: the same count, list, memberships and change events', async () => {
  const first = [
    { user: 'u1', role: 'reader', tenant: 'default', resource_instance: 'doc:d1' },
    { user: 'u1', role: 'editor', tenant: 'default', resource_instance: 'doc:d1' },
    { user: 'u2', role: 'reader', resource_instance: 'doc:d2' },
    { user: 'u2', role: 'reader', resource_instance: 'doc:d2' }, // repeated in the batch
    { user: 'u3', role: 'auditor', tenant: 'other', resource_instance: 'doc:o1' }, // a tenant role on an instance
    { user: 'u1', role: 'reader', tenant: 'other', resource_instance: 'doc:o1' }, // u1 into a second tenant
  ];
  const a = await same((t) => t.call('POST', `${facts(t)}/role_assignments/bulk`, first));
  expect(a.body).toEqual({ assignments_created: 5 });
  // Again, with one new: only the new one is created.
  const again = await same((t) =>
    t.call('POST', `${facts(t)}/role_assignments/bulk`, [...first, { user: 'u4', role: 'editor', resource_instance: 'doc:d3' }]),
  );
  expect(again.body).toEqual({ assignments_created: 1 });
  const listed = await same(allAssignments);
  expect(listed.body.length).toBe(6);
  for (const u of ['u1', 'u2', 'u3', 'u4']) {
    const user = await same((t) => t.call('GET', `${facts(t)}/users/${u}`));
    expect(user.status).toBe(200);
  }
  expect(
    ((await ext.call('GET', `${facts(ext)}/users/u1`)).body.associated_tenants as { tenant: string }[]).map((x) => x.tenant).sort(),
  ).toEqual(['default', 'other']);
  await same(changes);
  const decided = await same((t) =>
    t.call('POST', `/v2/allowed/${t.proj}/${t.env}`, { user: 'u1', action: 'edit', resource: { type: 'doc', key: 'd1' } }),
  );
  expect(decided.body.allow).toBe(true);
});

it('a batch with an item that does not hold: the same error, nothing of it written', async () => {
  const before = await same(allAssignments);
  for (const bad of [
    { user: 'nobody', role: 'reader', resource_instance: 'doc:d1' },
    { user: 'u1', role: 'nope', resource_instance: 'doc:d1' },
    { user: 'u1', role: 'reader', tenant: 'other', resource_instance: 'doc:d1' },
    { user: 'u1', role: 'reader', resource_instance: 'doc:missing' },
  ]) {
    const res = await same((t) =>
      t.call('POST', `${facts(t)}/role_assignments/bulk`, [{ user: 'u2', role: 'editor', resource_instance: 'doc:d2' }, bad]),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  const after = await same(allAssignments);
  expect(plain(after.body)).toEqual(plain(before.body));
  await same(changes);
});

it('an expired assignment given again is made again (new id, new expiry), counted as created', async () => {
  const soon = new Date(Date.now() + 1500).toISOString();
  await same((t) =>
    t.call('POST', `${facts(t)}/role_assignments/bulk`, [{ user: 'u3', role: 'reader', resource_instance: 'doc:d3', expires_at: soon }]),
  );
  const old = (await ext.call('GET', `${facts(ext)}/role_assignments?user=u3&per_page=100`)).body.find(
    (x: { role: string }) => x.role === 'reader',
  );
  await new Promise((ok) => setTimeout(ok, 1700));
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const renewed = await same((t) =>
    t.call('POST', `${facts(t)}/role_assignments/bulk`, [
      { user: 'u3', role: 'reader', resource_instance: 'doc:d3', expires_at: later },
      { user: 'u1', role: 'reader', resource_instance: 'doc:d1' },
    ]),
  );
  expect(renewed.body).toEqual({ assignments_created: 1 });
  const now = (await ext.call('GET', `${facts(ext)}/role_assignments?user=u3&per_page=100`)).body.find(
    (x: { role: string }) => x.role === 'reader',
  );
  expect(now.id).not.toBe(old.id);
  expect(now.expires_at).toBe(later);
  await same(allAssignments);
  await same(changes);
});

it('concurrent bulks of the same assignments create each once', async () => {
  await same((t) => t.call('POST', `${facts(t)}/users/bulk`, { operations: Array.from({ length: 20 }, (_, i) => ({ key: `c${i}` })) }));
  const items = Array.from({ length: 60 }, (_, i) => ({
    user: `c${i % 20}`,
    role: i % 2 ? 'reader' : 'editor',
    resource_instance: `doc:d${1 + (i % 3)}`,
  }));
  for (const t of [ext, cypher]) {
    const answers = await Promise.all(
      [0, 1, 2, 3].map((k) => t.call('POST', `${facts(t)}/role_assignments/bulk`, k % 2 ? [...items].reverse() : items)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const created = answers.reduce((n, a) => n + a.body.assignments_created, 0);
    const mine = (await allAssignments(t)).body.filter((a: { user: string }) => a.user.startsWith('c'));
    expect({ created, listed: mine.length }).toEqual({ created: 60, listed: 60 });
  }
});

it('users deleted while a bulk assigns them roles: never a 500, and no assignment left to a deleted user', async () => {
  for (const t of [ext, cypher]) {
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const users = Array.from({ length: 30 }, (_, i) => `gone${round}-${i}`);
      await t.ok('POST', `${facts(t)}/users/bulk`, { operations: users.map((key) => ({ key })) });
      const bulk = t.call(
        'POST',
        `${facts(t)}/role_assignments/bulk`,
        users.flatMap((user) => ['d1', 'd2', 'd3'].map((d) => ({ user, role: 'reader', resource_instance: `doc:${d}` }))),
      );
      const deletes = users.map((u) => t.call('DELETE', `${facts(t)}/users/${u}`));
      const answers = await Promise.all([bulk, ...deletes]);
      statuses.push(...answers.map((a) => a.status));
      const left = (await allAssignments(t)).body.filter((a: { user: string }) => a.user.startsWith(`gone${round}-`));
      expect(left).toEqual([]);
    }
    // 204 for the deletes; 200 and 404 for the bulk (written before the deletes, or naming a deleted user), 503 with
    // "retry" for a write that still met a deletion after its retries (the contract's conflict).
    expect([...new Set(statuses)].filter((s) => ![200, 204, 404, 503].includes(s))).toEqual([]);
  }
});

it('instances deleted while bulks assign roles on them: never a 500, each deletion holds, and no assignment left on a deleted instance', async () => {
  // The extension locks a batch's users, not its instances (docs/walk-extension.md, "Writes"):
  // Neo4j's own locks keep a deletion and a new edge on the same instance apart.
  for (const t of [ext, cypher]) {
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const keys = Array.from({ length: 30 }, (_, i) => `gi${round}-${i}`);
      await t.ok('POST', `${facts(t)}/resource_instances/bulk`, {
        operations: keys.map((key) => ({ key, resource: 'doc', tenant: 'default' })),
      });
      // Two bulks on the same instances (different users), beside a deletion of each instance.
      const bulks = [
        ['u1', 'u2'],
        ['u3', 'u4'],
      ].map((users) =>
        t.call(
          'POST',
          `${facts(t)}/role_assignments/bulk`,
          keys.flatMap((key) => users.map((user) => ({ user, role: 'reader', resource_instance: `doc:${key}` }))),
        ),
      );
      // The last instances first: the bulks' first items exist while their last are deleted.
      const deletes = [...keys].reverse().map((key) => t.call('DELETE', `${facts(t)}/resource_instances/doc:${key}`));
      const answers = await Promise.all([...bulks, ...deletes]);
      statuses.push(...answers.map((a) => a.status));
      expect(answers.slice(2).map((a) => a.status)).toEqual(keys.map(() => 204));
      const left: string[] = [];
      for (const user of ['u1', 'u2', 'u3', 'u4']) {
        const listed = await t.call('GET', `${facts(t)}/role_assignments?user=${user}&per_page=100`);
        expect(listed.status).toBe(200);
        for (const a of listed.body as { resource_instance?: string }[])
          if (a.resource_instance?.startsWith(`doc:gi${round}-`)) left.push(`${user} ${a.resource_instance}`);
      }
      expect(left).toEqual([]);
      const gone = await t.call('GET', `${facts(t)}/resource_instances/doc:gi${round}-0`);
      expect(gone.status).toBe(404);
    }
    // 204 for the deletes; 200 and 404 for the bulks (written before the deletes, or naming a deleted
    // instance), 503 with "retry" for a write that still met a deletion after its retries.
    expect([...new Set(statuses)].filter((s) => ![200, 204, 404, 503].includes(s))).toEqual([]);
  }
});

const allTuples = async (t: TestService) => {
  const res = await t.call('GET', `${facts(t)}/relationship_tuples?per_page=100`);
  const text = (a: Record<string, unknown>) => `${a.subject} ${a.relation} ${a.object} ${a.tenant}`;
  return { status: res.status, body: [...res.body].sort((a, b) => text(a).localeCompare(text(b))) };
};

it('tuples in bulk (new, repeated, held, implicit instances, refused, an expired one again): the same on both', async () => {
  const from = await revisions();
  await same((t) => t.call('POST', `${schema(t)}/resources/doc/relations`, { key: 'parent', name: 'Parent', subject_resource: 'doc' }));
  const tuples = [
    { subject: 'doc:d1', relation: 'parent', object: 'doc:d2', tenant: 'default' },
    { subject: 'doc:d1', relation: 'parent', object: 'doc:d2', tenant: 'default' }, // repeated in the batch
    { subject: 'doc:d2', relation: 'parent', object: 'doc:d3' },
    { subject: 'doc:new1', relation: 'parent', object: 'doc:d3', tenant: 'default' }, // an instance made implicitly
  ];
  expect((await same((t) => t.call('POST', `${facts(t)}/relationship_tuples/bulk`, { operations: tuples }))).body).toEqual({
    tuples_created: 3,
  });
  expect(
    (
      await same((t) =>
        t.call('POST', `${facts(t)}/relationship_tuples/bulk`, {
          operations: [...tuples, { subject: 'doc:d3', relation: 'parent', object: 'doc:d1', tenant: 'default' }],
        }),
      )
    ).body,
  ).toEqual({ tuples_created: 1 });
  for (const bad of [
    { subject: 'doc:d1', relation: 'nope', object: 'doc:d2', tenant: 'default' },
    { subject: 'doc:d1', relation: 'parent', object: 'doc:o1', tenant: 'default' }, // another tenant's object
  ]) {
    const res = await same((t) => t.call('POST', `${facts(t)}/relationship_tuples/bulk`, { operations: [tuples[2], bad] }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  const soon = new Date(Date.now() + 1500).toISOString();
  await same((t) =>
    t.call('POST', `${facts(t)}/relationship_tuples/bulk`, {
      operations: [{ subject: 'doc:d2', relation: 'parent', object: 'doc:d1', tenant: 'default', expires_at: soon }],
    }),
  );
  await new Promise((ok) => setTimeout(ok, 1700));
  const again = await same((t) =>
    t.call('POST', `${facts(t)}/relationship_tuples/bulk`, {
      operations: [{ subject: 'doc:d2', relation: 'parent', object: 'doc:d1', tenant: 'default' }, tuples[0]],
    }),
  );
  expect(again.body).toEqual({ tuples_created: 1 });
  await same(allTuples);
  await same(feedAfter(from));
});
