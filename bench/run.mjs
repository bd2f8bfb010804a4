// Benchmark: loads the dataset through the public API into the real service on a real Neo4j,
// then measures permission checks over HTTP with concurrent connections and the service's peak
// memory. Prints figures; asserts nothing. The peers (SpiceDB, OpenFGA): `npm run bench:peers`.
//   npm run bench            (full size: 10k users, 2k groups, 20k repos, ~200k facts)
//   BENCH_SCALE=0.1 npm run bench   (a tenth, for a quick look)
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client, clientNote, measure, warmUntilSteady } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';
import { cpuSeconds, memOf, startServer } from './proc.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const perCase = Number(process.env.BENCH_REQUESTS ?? 3000);
const port = Number(process.env.BENCH_PORT ?? 18091);
const neo4jPort = Number(process.env.BENCH_NEO4J_PORT ?? 7741);
const loaders = Number(process.env.BENCH_LOADERS ?? 2);
const floorPort = Number(process.env.BENCH_FLOOR_PORT ?? port + 1);
// The cached rows answer 3000 questions in a fraction of a second: each is measured over whole passes
// of its questions for at least this long (a sub-second burst measured the scheduler, not the cache).
const cachedSeconds = Number(process.env.BENCH_CACHED_SECONDS ?? 3);

/** The HTTP floor (bench/floor.mjs, its own process), asked the same bodies by the same client. */
async function measureFloor(qs) {
  const floor = await startServer(process.execPath, [join(root, 'bench', 'floor.mjs'), String(floorPort)], { port: floorPort });
  try {
    const api = client(`http://127.0.0.1:${floorPort}`, 'floor', concurrency);
    await measure(qs.slice(0, 500), concurrency, (x) => api('POST', '/', x));
    return await measure(qs, concurrency, (x) => api('POST', '/', x));
  } finally {
    await floor.stop();
  }
}

const fmt = (n, d = 1) => n.toFixed(d);
const cpuMs = (pid) => cpuSeconds(pid) * 1000;

async function main() {
  console.log(
    `machine: ${cpus().length} cores (${cpus()[0].model}), ${fmt(totalmem() / 2 ** 30)} GiB; node ${process.version}; scale ${scale}; concurrency ${concurrency}`,
  );
  const ours = await startOurs({ port, neo4jPort, concurrency });
  const { api, project } = ours;
  try {
    const ds = buildDataset({
      users: Math.round(10_000 * scale),
      chains: Math.max(10, Math.round(200 * scale)),
      repos: Math.round(20_000 * scale),
    });
    const load = await loadOurs(api, project, ds, { loaders, log: process.env.BENCH_VERBOSE ? console.log : undefined });
    const facts = load.facts;
    console.log(
      `\nload: ${facts} facts (assignments + tuples) in ${fmt(load.seconds)} s = ${fmt(facts / load.seconds, 0)} facts/s; ` +
        `with ${ds.userKeys.length} users, ${ds.repoKeys.length} repos, ${ds.groups.length} groups: ${fmt((facts + load.records) / load.seconds, 0)} records/s`,
    );

    const neoPid = ours.neoPid();
    const cases = buildQuestions(ds, Math.round(perCase));
    const allowedPath = `/v2/allowed/${project}/bench`;
    const floorBefore = await measureFloor(cases['direct role']);
    const warm = Object.values(buildQuestions(ds, 200)).flat();
    // Warm-up until steady (JIT, plans): the uncached rows come first and would measure the compiling phase.
    const warmed = await warmUntilSteady(warm, concurrency, ({ expect, ...q }) =>
      api('POST', allowedPath, { ...q, consistency: 'fully_consistent' }),
    );
    console.log(`warm-up: ${warmed.rates.length} passes of ${warm.length} in ${fmt(warmed.seconds, 0)} s`);
    // Every case four times: the traversal itself (fully_consistent: the decision cache is not
    // used); minimize_latency, which fills the cache (misses); then from the cache at a revision
    // read per group of questions (the default: read-your-revoke), and from the cache at the
    // locally known revision (minimize_latency again).
    const results = {};
    const filling = {};
    const consistent = {};
    const cached = {};
    for (const [name, qs] of Object.entries(cases)) {
      for (const [consistency, into, minSeconds] of [
        ['fully_consistent', results, 0],
        ['minimize_latency', filling, 0],
        [undefined, consistent, cachedSeconds],
        ['minimize_latency', cached, cachedSeconds],
      ]) {
        let allowed = 0;
        let wrong = 0;
        const cpu0 = [cpuMs(ours.pid), cpuMs(neoPid)];
        const r = await measure(
          qs,
          concurrency,
          async (q) => {
            const { allow } = await api('POST', allowedPath, {
              user: q.user,
              action: q.action,
              resource: q.resource,
              ...(consistency ? { consistency } : {}),
            });
            if (allow) allowed++;
            if (q.expect !== undefined && allow !== q.expect) wrong++;
          },
          { minSeconds },
        );
        // CPU per check of each process: what one more replica, or a larger Neo4j, would take over.
        const cpu = { service: (cpuMs(ours.pid) - cpu0[0]) / r.count, neo4j: (cpuMs(neoPid) - cpu0[1]) / r.count };
        // allowed: per pass over the questions (a cached row makes several).
        into[name] = { ...r, allowed: Math.round((allowed * qs.length) / r.count), wrong, cpu };
      }
    }
    const mixed = Object.values(cases).flat();
    const bulks = Array.from({ length: Math.max(20, Math.round(perCase / 20)) }, (_, i) =>
      mixed.slice((i * 100) % (mixed.length - 100), ((i * 100) % (mixed.length - 100)) + 100),
    );
    const bulk = await measure(bulks, concurrency, (b) =>
      api(
        'POST',
        `${allowedPath}/bulk`,
        b.map(({ expect, ...q }) => ({ ...q, consistency: 'fully_consistent' })),
      ),
    );
    const floorAfter = await measureFloor(cases['direct role']);
    const floor = (floorBefore.perSecond + floorAfter.perSecond) / 2;
    const mem = memOf(ours.pid);
    const neoMem = memOf(ours.neoPid());

    for (const [title, table] of [
      ['traversal (fully_consistent, no cache)', results],
      ['same questions again (minimize_latency: fills the decision cache)', filling],
      ['same questions again (default consistency: decision cache at a revision read per group of questions)', consistent],
      ['same questions again (minimize_latency: decision cache at the locally known revision)', cached],
    ]) {
      console.log(`\n${title}\ncase              | p50 ms | p99 ms | checks/s | / floor | allowed | wrong | CPU ms/check service, Neo4j`);
      for (const [name, r] of Object.entries(table)) {
        console.log(
          `${name.padEnd(17)} | ${fmt(r.p50, 2).padStart(6)} | ${fmt(r.p99, 2).padStart(6)} | ${fmt(r.perSecond, 0).padStart(8)} | ${fmt(r.perSecond / floor, 2).padStart(7)} | ${String(r.allowed).padStart(7)} | ${String(r.wrong).padStart(5)} | ${fmt(r.cpu.service, 3)}, ${fmt(r.cpu.neo4j, 3)}`,
        );
      }
    }
    console.log(
      `\nHTTP floor (bare node:http answering 'ok', own process, same client): ${fmt(floor, 0)} req/s (${fmt(floorBefore.perSecond, 0)} at the start, ${clientNote(floorBefore)}; ${fmt(floorAfter.perSecond, 0)} at the end, ${clientNote(floorAfter)})`,
    );
    const ratios = Object.keys(consistent).map((name) => `${name} ${fmt(consistent[name].perSecond / cached[name].perSecond, 2)}`);
    console.log(`\ndefault / minimize_latency cached checks/s: ${ratios.join(', ')}`);
    console.log(
      `\nbulk of 100 (no cache): p50 ${fmt(bulk.p50, 2)} ms, p99 ${fmt(bulk.p99, 2)} ms per request; ${fmt(bulk.perSecond * 100, 0)} checks/s`,
    );
    console.log(
      `\nservice memory: RSS ${fmt(mem.rssMb, 0)} MB, peak RSS ${fmt(mem.peakMb, 0)} MB` + `; Neo4j JVM RSS ${fmt(neoMem.rssMb, 0)} MB`,
    );
  } finally {
    await ours.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
