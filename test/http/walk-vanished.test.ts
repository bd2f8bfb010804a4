import { seedTeamReaders } from '../support/teamReaders';
import { startTestService, type TestService } from '../support/testService';

/**
 * A question never fails because a record it reads is deleted meanwhile (docs/walk-extension.md,
 * "Records deleted during a walk"): the walk reads committed state without locks, so an instance,
 * a user or an edge it found may be gone by the time it reads it. Checks, bulk checks and
 * list-objects on instances deleted while they are asked answer 200 (allowed or not), never a 500.
 */
let t: TestService;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;

beforeAll(async () => {
  t = await startTestService();
  await seedTeamReaders(t);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

it('answers checks and lists on instances deleted while they are asked, never a 500', async () => {
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  for (let round = 0; round < 12; round++) {
    const keys = Array.from({ length: 20 }, (_, i) => `r${round}-${i}`);
    for (const key of keys) await t.ok('POST', `${facts()}/resource_instances`, { key, resource: 'repo', tenant: 'default' });
    // Half reached directly, half through the team (the walk crosses their edges).
    await t.ok(
      'POST',
      `${facts()}/role_assignments/bulk`,
      keys
        .filter((_, i) => i % 2 === 0)
        .map((key) => ({ user: 'alice', role: 'viewer', resource_instance: `repo:${key}`, tenant: 'default' })),
    );
    await t.ok('POST', `${facts()}/relationship_tuples/bulk`, {
      operations: keys
        .filter((_, i) => i % 2 === 1)
        .map((key) => ({ subject: 'team:crew', relation: 'readers', object: `repo:${key}`, tenant: 'default' })),
    });
    const questions = keys.map((key) => ({
      user: 'alice',
      action: 'pull',
      resource: { type: 'repo', key, tenant: 'default' },
      consistency: 'fully_consistent',
    }));
    const asked = [
      ...keys.map((key) => t.call('DELETE', `${facts()}/resource_instances/repo:${key}`).then((r) => ({ r, kind: 'delete' }))),
      ...questions.map((q) => t.call('POST', allowed(), q).then((r) => ({ r, kind: 'check' }))),
      ...[0, 1, 2].map(() => t.call('POST', `${allowed()}/bulk`, questions).then((r) => ({ r, kind: 'bulk' }))),
      ...[0, 1, 2].map(() =>
        t
          .call('POST', `${allowed()}/list-objects`, { user: 'alice', action: 'pull', resource_type: 'repo', page_size: 100 })
          .then((r) => ({ r, kind: 'list' })),
      ),
    ];
    for (const { r, kind } of await Promise.all(asked)) {
      count(r.status);
      expect({ kind, status: r.status, body: r.status === 200 || r.status === 204 ? undefined : r.body }).toEqual({
        kind,
        status: kind === 'delete' ? 204 : 200,
        body: undefined,
      });
    }
    // Once deleted, nothing is allowed on them and none is listed.
    const after = await t.ok('POST', `${allowed()}/bulk`, questions);
    expect(after.allow.map((a: { allow: boolean }) => a.allow)).toEqual(keys.map(() => false));
    const listed = await t.ok('POST', `${allowed()}/list-objects`, {
      user: 'alice',
      action: 'pull',
      resource_type: 'repo',
      page_size: 100,
    });
    expect(listed.objects).toEqual([]);
  }
  expect(statuses.get(200)).toBe(12 * 26);
}, 180_000);
