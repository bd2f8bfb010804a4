// AuthZEN against the decision endpoints it maps to (docs/authzen.md: Speed): the same questions
// asked as `POST /v2/allowed` and as `POST /access/v1/evaluation`, and bulks of 100 as
// `POST /v2/allowed/.../bulk` and as `POST /access/v1/evaluations`, uncached (fully_consistent)
// and at the default consistency (decision cache), in alternating rounds (A, B, B, A, A, B, ...).
// The load comes from bench/flood.mjs (client processes on raw sockets, whose own CPU is checked:
// a round whose client had no idle CPU is not a figure), so a cached row measures the service.
// Each round gives two ratios, AuthZEN against the decision endpoint: the rate (AuthZEN's / the
// endpoint's) and the service's CPU a request (AuthZEN's / the endpoint's: what one more request
// costs, the figure other load on the box moves least); prints the median of each per row.
// The answers are compared first (every question asked both ways, the same answers).
//   npm run build && node bench/authzen.mjs        (BENCH_SCALE=0.1 by default, BENCH_ROUNDS=4: each order twice)
//   BENCH_REQUESTS=20000: the cached check row's requests a round (the others scale from it)
//   BENCH_ONLY=bulk: only the rows whose name holds that text (BENCH_ONLY="one user": a bulk of one user's
//     questions against AuthZEN's batch with that user and action as its top-level defaults)
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=.cache/prof' BENCH_MARKS=1: profile the service and print each
//   measured arm's window (µs of the monotonic clock) for bench/profileTop.mjs --between=<from>-<to>
import { buildDataset, buildQuestions } from './dataset.mjs';
import { describeRound, floodClient } from './flood.mjs';
import { client, measure, warmUntilSteady } from './http.mjs';
import { loadOurs, startOurs } from './ours.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 0.1);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const perRow = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = 16;
const log = (...a) => console.error('[authzen]', ...a);

const port = Number(process.env.BENCH_PORT ?? 18291);
const ours = await startOurs({
  port,
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
  const qs = Object.values(buildQuestions(ds, 400)).flat();
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
  // One user's questions on 100 resources: the shape a gateway sends most (AuthZEN's top-level
  // `subject` and `action` as defaults, each evaluation only its `resource`; the bulk repeats them).
  const oneUser = Array.from({ length: 20 }, (_, i) => {
    const { user, action } = qs[(i * 37) % qs.length];
    return qs
      .slice((i * 100) % (qs.length - 100))
      .slice(0, 100)
      .map((q) => ({ user, action, resource: q.resource }));
  });
  const asDefaults = (b) => ({
    subject: { type: 'user', id: b[0].user },
    action: { name: b[0].action },
    evaluations: b.map((q) => ({ resource: asAuthzen(q).resource })),
  });
  const auth = { authorization: `Bearer ${secret}` };
  const post = (path, body, expect) => ({ method: 'POST', path, headers: auth, body, ...(expect ? { expect } : {}) });
  // The answers, asked once each way through the plain client: they must agree, and they are what
  // the flood's single checks then expect (a wrong answer makes a round not a figure).
  const expected = [];
  await measure(qs, concurrency, async (q, i) => {
    const [a, b] = await Promise.all([
      env('POST', allowedPath, asAllowed(q, 'fully_consistent')),
      env('POST', '/access/v1/evaluation', { ...asAuthzen(q), options: { consistency: 'fully_consistent' } }),
    ]);
    if (a.allow !== b.decision) throw new Error(`${JSON.stringify(q)}: AuthZEN answered ${b.decision}, /allowed ${a.allow}`);
    expected[i] = a.allow === true;
  });
  // Each bulk asked both ways (AuthZEN's batch as `asBatch` writes it): the same answers in the same order.
  const sameAnswers = (batches, asBatch, what) =>
    measure(batches, concurrency, async (b) => {
      const [x, y] = await Promise.all([
        env(
          'POST',
          `${allowedPath}/bulk`,
          b.map((q) => asAllowed(q)),
        ),
        env('POST', '/access/v1/evaluations', asBatch(b)),
      ]);
      if (JSON.stringify(x.allow.map((r) => r.allow)) !== JSON.stringify(y.evaluations.map((r) => r.decision)))
        throw new Error(`${what}: AuthZEN answered differently`);
    });
  await sameAnswers(bulks, (b) => ({ evaluations: b.map(asAuthzen) }), 'a bulk');
  await sameAnswers(oneUser, asDefaults, "one user's bulk");
  const fc = { options: { consistency: 'fully_consistent' } };
  /** A bulk of questions as `POST /v2/allowed/.../bulk` takes it. */
  const asBulk = (b, consistency) =>
    post(
      `${allowedPath}/bulk`,
      b.map((q) => asAllowed(q, consistency)),
    );
  const rows = {
    'check, uncached': {
      count: Math.round(perRow / 4),
      a: qs.map((q, i) => post(allowedPath, asAllowed(q, 'fully_consistent'), `"allow":${expected[i]}`)),
      b: qs.map((q, i) => post('/access/v1/evaluation', { ...asAuthzen(q), ...fc }, `"decision":${expected[i]}`)),
    },
    'check, default consistency (cached)': {
      count: perRow,
      a: qs.map((q, i) => post(allowedPath, asAllowed(q), `"allow":${expected[i]}`)),
      b: qs.map((q, i) => post('/access/v1/evaluation', asAuthzen(q), `"decision":${expected[i]}`)),
    },
    'bulk of 100, uncached': {
      count: Math.round(perRow / 80),
      a: bulks.map((b) => asBulk(b, 'fully_consistent')),
      b: bulks.map((b) => post('/access/v1/evaluations', { evaluations: b.map(asAuthzen), ...fc })),
    },
    'bulk of 100, default consistency (cached)': {
      count: Math.round(perRow / 10),
      a: bulks.map((b) => asBulk(b)),
      b: bulks.map((b) => post('/access/v1/evaluations', { evaluations: b.map(asAuthzen) })),
    },
    "one user's bulk of 100, AuthZEN's defaults, default consistency (cached)": {
      count: Math.round(perRow / 10),
      a: oneUser.map((b) => asBulk(b)),
      b: oneUser.map((b) => post('/access/v1/evaluations', asDefaults(b))),
    },
  };
  const only = process.env.BENCH_ONLY;
  if (only) for (const name of Object.keys(rows)) if (!name.includes(only)) delete rows[name];
  // Warm-up: the shared rule (bench/http.mjs: until the rate is steady, at least BENCH_WARM_MIN_S) on
  // uncached checks, which settles Neo4j's compiler as well as the service's; then each arm once.
  const warmed = await warmUntilSteady(qs, concurrency, (q) => env('POST', allowedPath, asAllowed(q, 'fully_consistent')));
  log(`warm-up: ${warmed.rates.length} passes in ${warmed.seconds.toFixed(0)} s`);
  const flood = await floodClient({ port, processes: 2, connections: concurrency });
  const neo = { neo4j: ours.neoPid() };
  // Then each row's arms in turn, three times each at full length: the service's own JIT settles per
  // route (a cached row measured right after one short pass ran up to 60 % faster in its second arm).
  for (const row of Object.values(rows))
    for (let pass = 0; pass < 3; pass++) for (const arm of ['a', 'b']) await flood.run(row[arm], row.count, { serverPid: ours.pid });
  const ratios = Object.fromEntries(Object.keys(rows).map((k) => [k, { rate: [], cost: [], notFigures: 0 }]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, row] of Object.entries(rows)) {
      const got = {};
      for (const arm of round % 2 ? ['b', 'a'] : ['a', 'b']) {
        const from = process.hrtime.bigint() / 1000n;
        got[arm] = await flood.run(row[arm], row.count, { serverPid: ours.pid, otherPids: neo });
        if (process.env.BENCH_MARKS) console.log(`  window ${from}-${process.hrtime.bigint() / 1000n}`);
        console.log(`round ${round + 1} ${name}, ${arm === 'a' ? '/allowed' : 'AuthZEN '}: ${describeRound(got[arm])}`);
      }
      const r = ratios[name];
      r.rate.push(got.b.perSecond / got.a.perSecond);
      r.cost.push(got.b.serverUsPerRequest / got.a.serverUsPerRequest);
      if (!got.a.figure || !got.b.figure) r.notFigures++;
    }
  }
  await flood.close();
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  // The geometric mean of the rounds' ratios: with an even number of rounds each order (A then B,
  // B then A) counts as often, so what the second arm of a round gains from the first cancels out.
  const geo = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
  const list = (xs) => xs.map((x) => x.toFixed(3)).join(', ');
  console.log('\nAuthZEN against the decision endpoint, median and geometric mean of rounds (same questions, same answers):');
  console.log('  rate: AuthZEN / endpoint (at least 0.90 is within 10 %); cost: service CPU a request, AuthZEN / endpoint (at most 1.10)');
  for (const [name, r] of Object.entries(ratios)) {
    console.log(
      `${name.padEnd(42)} rate ${med(r.rate).toFixed(3)}x, geometric mean ${geo(r.rate).toFixed(3)}x (rounds ${list(r.rate)}); ` +
        `cost ${med(r.cost).toFixed(3)}x, geometric mean ${geo(r.cost).toFixed(3)}x (rounds ${list(r.cost)})` +
        (r.notFigures ? `; ${r.notFigures} of ${rounds} rounds NOT FIGURES` : ''),
    );
  }
  console.log(
    `load average at the end: ${(await import('node:os'))
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await ours.stop();
}
