// List-objects paged: what a page after the first costs once the list is kept (docs/decisions.md,
// "Pages"), against the same service with LIST_CACHE_SIZE=0 (every page walks), in the same run.
// Loads the bench dataset (BENCH_SCALE, default 0.1) for each arm, warms up, then pages through
// the lists of BENCH_LIST_USERS users (a user's repos for pull, BENCH_PAGE_SIZE a page) at 16 in
// flight, each user's pages in order: pages/s, CPU a page of each process, Neo4j transactions a page.
// Arms alternate (kept, none, kept, none, ... BENCH_ROUNDS pairs); alone on the box.
//   npm run build && node bench/listPages.mjs
import { buildDataset } from './dataset.mjs';
import { measure, warmUntilSteady } from './http.mjs';
import { loadOurs, startOurs } from './ours.mjs';
import { cpuSeconds } from './proc.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 0.1);
const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? 5);
const users = Number(process.env.BENCH_LIST_USERS ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const concurrency = 16;
const fmt = (n, d = 2) => n.toFixed(d);

async function arm(listCacheSize) {
  const ours = await startOurs({ port: 18391, neo4jPort: 7961, concurrency, env: { LIST_CACHE_SIZE: String(listCacheSize) } });
  try {
    const { api, project } = ours;
    const ds = buildDataset({
      users: Math.round(10_000 * scale),
      chains: Math.max(10, Math.round(200 * scale)),
      repos: Math.round(20_000 * scale),
    });
    await loadOurs(api, project, ds, { loaders: 2 });
    const path = `/v2/allowed/${project}/bench/list-objects`;
    const who = Array.from({ length: users }, (_, i) => ds.userKeys[(i * 7919) % ds.userKeys.length]);
    /** Every page of one user's list, in order; answers the pages and objects. */
    const allPages = async (user) => {
      let token = null;
      let pages = 0;
      let objects = 0;
      do {
        const page = await api('POST', path, {
          user,
          action: 'pull',
          resource_type: 'repo',
          page_size: pageSize,
          ...(token ? { continuation_token: token } : {}),
        });
        pages++;
        objects += page.objects.length;
        token = page.continuation_token;
      } while (token);
      return { pages, objects };
    };
    await warmUntilSteady(who, concurrency, allPages);
    // A write moves the revision: every list kept during the warm-up is stale, so each user's first
    // page below walks (as a client paging through a list it has not asked before).
    await api('POST', `/v2/facts/${project}/bench/users`, { key: `list-pages-${Date.now()}` });
    const metrics = async () => (await fetch(`${ours.base}/metrics`, { headers: { authorization: `Bearer ${ours.adminKey}` } })).text();
    const reads = (t) => Number(t.match(/authz_neo4j_transaction_duration_seconds_count\{mode="read"\} (\d+)/)?.[1] ?? 0);
    const r0 = reads(await metrics());
    const neo = ours.neoPid();
    const c0 = [cpuSeconds(ours.pid), cpuSeconds(neo)];
    let pages = 0;
    let objects = 0;
    const r = await measure(who, concurrency, async (u) => {
      const got = await allPages(u);
      pages += got.pages;
      objects += got.objects;
    });
    const c1 = [cpuSeconds(ours.pid), cpuSeconds(neo)];
    const r1 = reads(await metrics());
    return {
      pagesPerSecond: pages / r.seconds,
      pagesPerList: pages / users,
      objectsPerList: objects / users,
      serviceMs: ((c1[0] - c0[0]) * 1000) / pages,
      neo4jMs: ((c1[1] - c0[1]) * 1000) / pages,
      readsPerPage: (r1 - r0) / pages,
    };
  } finally {
    await ours.stop();
  }
}

const show = (name, a) =>
  console.log(
    `${name.padEnd(5)} | ${fmt(a.pagesPerSecond, 0).padStart(7)} | ${fmt(a.pagesPerList, 1).padStart(10)} | ${fmt(a.objectsPerList, 1).padStart(12)} | ${fmt(a.serviceMs, 3)}, ${fmt(a.neo4jMs, 3)} | ${fmt(a.readsPerPage, 2)}`,
  );
console.log(`list-objects pages: scale ${scale}, ${users} users, page_size ${pageSize}, ${concurrency} in flight`);
console.log('arm   | pages/s | pages/list | objects/list | CPU ms/page service, Neo4j | Neo4j reads/page');
const ratios = [];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? ['none', 'kept'] : ['kept', 'none'];
  const got = {};
  for (const name of order) {
    got[name] = await arm(name === 'kept' ? 100 : 0);
    show(name, got[name]);
  }
  ratios.push({
    rate: got.kept.pagesPerSecond / got.none.pagesPerSecond,
    neo4j: got.kept.neo4jMs / got.none.neo4jMs,
    service: got.kept.serviceMs / got.none.serviceMs,
  });
}
for (const r of ratios)
  console.log(`kept / none: pages/s ${fmt(r.rate)}x; Neo4j CPU a page ${fmt(r.neo4j)}x; service CPU a page ${fmt(r.service)}x`);
