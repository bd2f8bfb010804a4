// The decision cache's hits (src/util/lruCache.ts) against the strict order it kept before (every
// hit a `delete` and a `set` to move its entry to the newest end), in one process, alternating:
// a cache of DECISION_CACHE_SIZE's default (100,000) holding 2,000 hot questions (the 20 bulks of
// 100 a cached `bench/authzen.mjs` row repeats) among others, each "request" building its 100 keys
// as the engine does (length-prefixed parts, src/areas/decisions/engine.ts) and reading them.
// Prints ns a hit for each arm, the median of BENCH_ROUNDS (default 5) alternating rounds, and the ratio.
//   npm run build && node bench/lruCache.mjs
import { LruCache } from '../dist/src/util/lruCache.js';

/** The class as it was before: a hit always moved its entry. */
class StrictLru {
  constructor(maxEntries) {
    this.maxEntries = maxEntries;
    this.entries = new Map();
  }
  get(key) {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (Date.now() - e.at > Infinity) return undefined;
    this.entries.set(key, e);
    return e.value;
  }
  set(key, value) {
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value);
  }
}

const SIZE = 100_000;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const requests = Number(process.env.BENCH_REQUESTS ?? 20_000);
const part = (v) => `${v.length}:${v}`;
const env = 'a3f1c9e2-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
const questions = Array.from({ length: 2_000 }, (_, i) => ({
  user: `user${(i * 7919) % 10_000}`,
  action: i % 3 ? 'read' : 'write',
  type: 'repo',
  key: `repo${(i * 104_729) % 20_000}`,
  tenant: 'default',
}));
const keyOf = (q) => part(env) + part(q.user) + part(q.action) + part(q.type) + part(q.key) + part(q.tenant);

function fill(cache) {
  // Other questions first (the cache full), then the hot ones, as a service that has answered many.
  for (let i = 0; i < SIZE - questions.length; i++) cache.set(`${part(env)}other${i}`, { allow: i % 2 === 0 });
  for (const q of questions) cache.set(keyOf(q), { allow: true });
}

function run(cache) {
  let hits = 0;
  const started = process.hrtime.bigint();
  for (let r = 0; r < requests; r++) {
    const from = (r % 20) * 100;
    for (let i = from; i < from + 100; i++) if (cache.get(keyOf(questions[i])) !== undefined) hits++;
  }
  const ns = Number(process.hrtime.bigint() - started) / (requests * 100);
  if (hits !== requests * 100) throw new Error(`a hot question was missed (${hits})`);
  return ns;
}

const arms = { strict: () => new StrictLru(SIZE), halves: () => new LruCache(SIZE) };
const results = { strict: [], halves: [] };
const caches = Object.fromEntries(Object.entries(arms).map(([k, make]) => [k, make()]));
for (const c of Object.values(caches)) fill(c);
for (const c of Object.values(caches)) run(c); // warm-up: the JIT settles for both
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? ['halves', 'strict'] : ['strict', 'halves'];
  for (const arm of order) results[arm].push(run(caches[arm]));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const arm of Object.keys(results))
  console.log(
    `${arm}: ${median(results[arm]).toFixed(1)} ns a hit (key built + get; rounds ${results[arm].map((x) => x.toFixed(1)).join(', ')})`,
  );
console.log(`halves / strict: ${(median(results.halves) / median(results.strict)).toFixed(3)}x the time a hit`);
