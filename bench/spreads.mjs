// What an object literal costs on this Node (docs/benchmarks.md, "Object spreads"): the literal
// shapes the hot paths avoid and those they use, then `questionOf` (dist/) on a parsed bulk of 100.
// Each figure is the second of two passes (the first warms the JIT), ns a call.
//   npm run build && node bench/spreads.mjs
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { questionOf } = require('../dist/src/areas/decisions/question.js');

const N = Number(process.env.BENCH_CALLS ?? 200_000);
const asker = (u) => ({ user: u, userAttributes: null });
const x = { a: 1, b: 2 };
const shapes = {
  '{ ...x, action }': (u) => ({ ...x, action: u }),
  '{ ...asker, action, type, key, tenant, ra, context }': (u) => ({
    ...asker(u),
    action: 'r',
    type: 't',
    key: 'k',
    tenant: null,
    ra: null,
    context: {},
  }),
  '{ ...x, ...y }': (u) => ({ ...asker(u), ...x }),
  '{ env, ...x, depth, nowMs }': (u) => ({ env: u, ...x, depth: 3, nowMs: 4 }),
  'Object.assign({}, x, { action, ... })': (u) =>
    Object.assign({}, asker(u), { action: 'r', type: 't', key: 'k', tenant: null, ra: null, context: {} }),
  '{ ...x } alone': () => ({ ...x }),
  'plain literal of seven fields': (u) => ({ user: u, userAttributes: null, action: 'r', type: 't', key: 'k', tenant: null, context: {} }),
};
let sink = 0; // read at the end, so no call is optimised away
const time = (f) => {
  let ns = 0;
  for (let pass = 0; pass < 2; pass++) {
    const t = process.hrtime.bigint();
    for (let n = 0; n < N; n++) sink += Object.keys(f(`u${n & 7}`)).length;
    ns = Number(process.hrtime.bigint() - t) / N;
  }
  return ns;
};
console.log(`node ${process.version} (V8 ${process.versions.v8}), ${N} calls a pass`);
for (const [name, f] of Object.entries(shapes)) console.log(`${name.padEnd(56)} ${time(f).toFixed(0).padStart(7)} ns`);
const bulk = JSON.parse(
  JSON.stringify(
    Array.from({ length: 100 }, (_, i) => ({
      user: `u${i}`,
      action: 'read',
      resource: { type: 'repo', key: `r${i}`, ...(i % 2 ? { tenant: 'default' } : {}) },
    })),
  ),
);
let i = 0;
console.log(
  `${'questionOf (dist/), a question of a parsed bulk'.padEnd(56)} ${time(() => questionOf(bulk[i++ % 100]))
    .toFixed(0)
    .padStart(7)} ns`,
);
console.log(
  `(${sink} keys seen) load average: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
