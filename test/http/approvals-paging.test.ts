import { buildWorld, type Client, expectError, inBatches, instances, login, request, type World } from './approvals-support';

let w: World;
let alice: Client;
let bob: Client;
let carol: Client;
const ids: string[] = [];
/** Index (creation order) -> expected status after setup. */
const expected: (string | null)[] = [];

beforeAll(async () => {
  // 200 requests of one user: past the hourly bound of the default (ELEMENTS_REQUESTS_PER_HOUR, 100).
  w = await buildWorld({ env: { ELEMENTS_REQUESTS_PER_HOUR: '1000' } });
  const keys = Array.from({ length: 250 }, (_, i) => i);
  await instances(
    w,
    'doc',
    keys.filter((i) => i % 4 !== 0).map((i) => `inst-${i}`),
  );
  await instances(
    w,
    'file',
    keys.filter((i) => i % 4 === 0).map((i) => `inst-${i}`),
  );
  [alice, bob, carol] = await Promise.all([login(w, 'alice'), login(w, 'bob'), login(w, 'carol')]);
  // 250 approvals: by alice (every 5th by carol), every 4th on `file`, in batches of parallel requests.
  const created = await inBatches(
    Array.from({ length: 250 }, (_, i) => i),
    25,
    async (i) => {
      const who = i % 5 === 0 ? carol : alice;
      const res = await who.call('POST', '', request(i % 4 === 0 ? 'file' : 'doc', { resource_instance: `inst-${i}` }));
      if (res.status !== 200) throw new Error(`create ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
  );
  ids.push(...created);
  // Then states: i % 10 == 1 approved, 2 denied, 3 cancelled (by its requester); the rest pending.
  await inBatches(ids, 25, async (id, i) => {
    const who = i % 5 === 0 ? carol : alice;
    const step =
      i % 10 === 1
        ? bob.call('PUT', `/${id}/approve`)
        : i % 10 === 2
          ? bob.call('PUT', `/${id}/deny`)
          : i % 10 === 3
            ? who.call('PUT', `/${id}/cancel`, { reason: 'no' })
            : null;
    expected[i] = i % 10 === 1 ? 'approved' : i % 10 === 2 ? 'deny' : i % 10 === 3 ? 'cancel' : null;
    if (step && (await step).status !== 200) throw new Error(`transition ${i}`);
  });
}, 180_000);
afterAll(async () => w?.t.close());

const count = (pred: (i: number) => boolean) => ids.filter((_, i) => pred(i)).length;

describe('listing 250 approvals', () => {
  it("pages a reviewer's list newest first: total_count, page_count, per_page 100, past the end", async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => bob.call('GET', '', undefined, { page: String(page), per_page: '100' })));
    for (const p of pages) expect({ total: p.body.total_count, pages: p.body.page_count }).toEqual({ total: 250, pages: 3 });
    expect(pages.map((p) => p.body.data.length)).toEqual([100, 100, 50, 0]);
    const seen = pages.flatMap((p) => p.body.data);
    expect(new Set(seen.map((x: any) => x.id)).size).toBe(250);
    const times = seen.map((x: any) => x.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = await bob.call('GET', '');
    expect({ n: first.body.data.length, total: first.body.total_count, pages: first.body.page_count }).toEqual({
      n: 30,
      total: 250,
      pages: 9,
    });
  });

  it('filters by each header, and reads the same filters from the query string', async () => {
    const total = async (headers: Record<string, string>, query = '') =>
      (await bob.call('GET', query, undefined, headers)).body.total_count;
    expect(await total({ status: 'pending' })).toBe(count((i) => expected[i] === null));
    expect(await total({ status: 'approved' })).toBe(count((i) => i % 10 === 1));
    expect(await total({ status: 'deny' })).toBe(count((i) => i % 10 === 2));
    expect(await total({ status: 'cancel' })).toBe(count((i) => i % 10 === 3));
    expect(await total({ resource: 'file' })).toBe(count((i) => i % 4 === 0));
    expect(await total({ resource: 'doc', status: 'approved' })).toBe(count((i) => i % 4 !== 0 && i % 10 === 1));
    expect(await total({ resource_instance: 'inst-17' })).toBe(1);
    expect(await total({}, '?status=deny&resource=doc')).toBe(count((i) => i % 4 !== 0 && i % 10 === 2));
    const one = await bob.call('GET', '?resource_instance=inst-17');
    expect(one.body.data[0]).toMatchObject({ id: ids[17], resource_key: 'doc', resource_instance_key: 'inst-17', status: expected[17] });
  });

  it('shows a requester only their own, with the same paging rules', async () => {
    const res = await carol.call('GET', '', undefined, { per_page: '100' });
    expect(res.body.total_count).toBe(count((i) => i % 5 === 0));
    expect(res.body.data.every((x: any) => x.requesting_user_id === 'carol' && x.requesting_user_email === 'carol@acme.test')).toBe(true);
    const pending = await alice.call('GET', '', undefined, { status: 'pending', per_page: '100' });
    expect(pending.body.total_count).toBe(count((i) => i % 5 !== 0 && expected[i] === null));
  });

  it('answers PAGINATION_SIZE_OVERREACHED above 100 per page, and 422 for a page below 1', async () => {
    expectError(await bob.call('GET', '', undefined, { per_page: '101' }), 422, 'PAGINATION_SIZE_OVERREACHED');
    expectError(await bob.call('GET', '?per_page=500'), 422, 'PAGINATION_SIZE_OVERREACHED');
    expectError(await bob.call('GET', '', undefined, { page: '0' }), 422, 'INVALID_INPUT');
  });
});
