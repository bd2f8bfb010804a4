// Does a peer answer an "uncached" question it has seen before faster than a new one? For each
// peer (SpiceDB, OpenFGA, each on PostgreSQL as in bench:peers): the dataset loaded, a short
// warm-up, then for each case three sets of 2,000 new questions, each set asked in three passes.
// A system that answers every question anew makes the same rate in every pass; one that answers a
// repeat from a cache makes a higher rate from the second pass on. Why bench:peers asks each
// uncached question once: docs/benchmarks.md, "Each question once".
//   node bench/peerRepeats.mjs   (CASES='denied,direct role', SKIP=OpenFGA)
import { buildDataset, buildQuestions } from './dataset.mjs';
import { measure } from './http.mjs';
import { root } from './ours.mjs';
import { openfgaAdapter, startOpenFGA } from './peers/openfga.mjs';
import { startPostgres } from './peers/postgres.mjs';
import { spicedbAdapter, startSpiceDB } from './peers/spicedb.mjs';

const log = (...a) => console.error('[bench]', ...a);
const ds = buildDataset({});
const warm = Object.values(buildQuestions(ds, 400)).flat();
const sets = [buildQuestions(ds, 2000), buildQuestions(ds, 2000), buildQuestions(ds, 2000)];
const only = (process.env.CASES ?? 'denied,direct role').split(',');
const pg = await startPostgres({ port: Number(process.env.BENCH_PG_PORT ?? 5461), log });
try {
  for (const [name, start, adapter, grpcPort, httpPort] of [
    ['SpiceDB', startSpiceDB, spicedbAdapter, 7866, 7867],
    ['OpenFGA', startOpenFGA, openfgaAdapter, 7869, 7868],
  ]) {
    if (process.env.SKIP?.includes(name)) continue;
    const peer = await start({ root, pgUri: pg.uri(name.toLowerCase()), grpcPort, httpPort, log });
    try {
      const sys = await adapter(peer.api);
      await sys.load(ds, { loaders: 2 });
      for (let i = 0; i < 4; i++) await measure(warm, 16, (q) => sys.allowed(q, false));
      for (const c of only) {
        const out = [];
        for (const set of sets) {
          const rates = [];
          for (let pass = 0; pass < 3; pass++) rates.push((await measure(set[c], 16, (q) => sys.allowed(q, false))).perSecond.toFixed(0));
          out.push(rates.join(', '));
        }
        console.log(
          `${name} ${peer.version} ${c}, uncached: checks/s of three passes over each of three sets of 2,000 new questions: ${out.join(' | ')}`,
        );
      }
    } finally {
      await peer.stop();
    }
  }
} finally {
  await pg.stop();
}
