// AuthZEN against the decision endpoints it maps to (docs/authzen.md: Speed): the same questions
// asked as `POST /v2/allowed` and as `POST /access/v1/evaluation`, and bulks of 100 as
// `POST /v2/allowed/.../bulk` and as `POST /access/v1/evaluations`, uncached (fully_consistent)
// and at the default consistency (decision cache), in alternating rounds (A, B, B, A, A, B, ...),
// each ratio AuthZEN / decision endpoint within its round; prints the median per row.
//   npm run build && node bench/authzen.mjs        (BENCH_SCALE=0.1 by default, BENCH_ROUNDS=3)
import { buildDataset, buildQuestions } from './dataset.mjs';
import { client, clientNote, measure } from './http.mjs';
import { loadOurs, startOurs } from './ours.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 0.1);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const perRow = Number(process.env.BENCH_REQUESTS ?? 3000);
const concurrency = 16;
const log = (...a) => console.error('[authzen]', ...a);

const ours = await startOurs({
  port: Number(process.env.BENCH_PORT ?? 18291),
  neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7941),
  concurrency,
});
try {
  const { api, project, base, secret } = ours;
  const ds = buildDataset({
    users: Math.round(10_000 * scale),
    chains: Math.max(10, Math.round(200 * scale)),
    repos: Math.round(20_000 * scale),
  });
  await loadOurs(api, project, ds, { loaders: 2 });
  const env = client(base, secret, concurrency);
  const qs = Object.values(buildQuestions(ds, Math.ceil(perRow / 5))).flat();
  const allowedPath = `/v2/allowed/${project}/bench`;
  const asAllowed = (q, consistency) => ({ user: q.user, action: q.action, resource: q.resource, ...(consistency ? { consistency } : {}) });
  const asAuthzen = (q) => ({
    subject: { type: 'user', id: q.user },
    action: { name: q.action },
    resource: { type: q.resource.type, id: q.resource.key, ...(q.resource.tenant ? { properties: { tenant: q.resource.tenant } } : {}) },
  });
  const bulks = Array.from({ length: Math.max(20, Math.round(perRow / 100)) }, (_, i) =>
    qs.slice((i * 100) % (qs.length - 100)).slice(0, 100),
  );
  const rows = {
    'check, uncached': {
      a: (q) => env('POST', allowedPath, asAllowed(q, 'fully_consistent')).then((r) => r.allow),
      b: (q) =>
        env('POST', '/access/v1/evaluation', { ...asAuthzen(q), options: { consistency: 'fully_consistent' } }).then((r) => r.decision),
      items: qs,
    },
    'check, default consistency (cached)': {
      a: (q) => env('POST', allowedPath, asAllowed(q)).then((r) => r.allow),
      b: (q) => env('POST', '/access/v1/evaluation', asAuthzen(q)).then((r) => r.decision),
      items: qs,
    },
    'bulk of 100, uncached': {
      a: (b) =>
        env(
          'POST',
          `${allowedPath}/bulk`,
          b.map((q) => asAllowed(q, 'fully_consistent')),
        ).then((r) => r.allow.map((x) => x.allow)),
      b: (b) =>
        env('POST', '/access/v1/evaluations', { evaluations: b.map(asAuthzen), options: { consistency: 'fully_consistent' } }).then((r) =>
          r.evaluations.map((x) => x.decision),
        ),
      items: bulks,
    },
    'bulk of 100, default consistency (cached)': {
      a: (b) =>
        env(
          'POST',
          `${allowedPath}/bulk`,
          b.map((q) => asAllowed(q)),
        ).then((r) => r.allow.map((x) => x.allow)),
      b: (b) => env('POST', '/access/v1/evaluations', { evaluations: b.map(asAuthzen) }).then((r) => r.evaluations.map((x) => x.decision)),
      items: bulks,
    },
  };
  // Warm-up: every arm until its rate stops rising by 3 % (at least 4 passes).
  for (const [name, row] of Object.entries(rows)) {
    for (const arm of ['a', 'b']) {
      let best = 0;
      let flat = 0;
      for (let pass = 0; pass < 20 && (pass < 4 || flat < 3); pass++) {
        const r = await measure(row.items, concurrency, row[arm]);
        if (r.perSecond > best * 1.03) [best, flat] = [r.perSecond, 0];
        else flat++;
      }
      log(`${name} ${arm === 'a' ? '/allowed' : 'AuthZEN'} warm at ${best.toFixed(0)}/s`);
    }
  }
  const ratios = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, row] of Object.entries(rows)) {
      const order = round % 2 ? ['b', 'a'] : ['a', 'b'];
      const got = {};
      for (const arm of order) {
        const answers = new Array(row.items.length);
        got[arm] = await measure(row.items, concurrency, async (x, i) => (answers[i] = await row[arm](x)));
        got[`${arm}Answers`] = answers;
      }
      if (JSON.stringify(got.aAnswers) !== JSON.stringify(got.bAnswers)) throw new Error(`${name}: AuthZEN answered differently`);
      const ratio = got.b.perSecond / got.a.perSecond;
      ratios[name].push(ratio);
      console.log(
        `round ${round + 1} ${name}: /allowed ${got.a.perSecond.toFixed(0)}/s (${clientNote(got.a)}), AuthZEN ${got.b.perSecond.toFixed(0)}/s (${clientNote(got.b)}): ${ratio.toFixed(3)}`,
      );
    }
  }
  console.log('\nAuthZEN / decision endpoint, median of rounds (same questions, same answers):');
  for (const [name, rs] of Object.entries(ratios)) {
    const sorted = [...rs].sort((x, y) => x - y);
    console.log(
      `${name.padEnd(42)} ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}x  (rounds ${rs.map((r) => r.toFixed(3)).join(', ')})`,
    );
  }
} finally {
  await ours.stop();
}
