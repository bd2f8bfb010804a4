// Benchmark (docs/behaviour.md section 15, "who first, then what"): while `BENCH_FLOOD` clients without a
// key (default 20) each post an 8 MiB body to a path that does not exist, in rounds, `GET /healthz`
// is polled every 20 ms. Prints the poll's p50/p99/max latency idle and during the flood, the
// flood's own answers, and the service's RSS before and during. Asserts nothing.
//   npm run build && node bench/unauthFlood.mjs
// Against another build (e.g. the version before): BENCH_MAIN=<dir>/dist/src/main.js (with its cypher/ beside dist/).
import { request } from 'node:http';
import { memOf } from './proc.mjs';
import { startOurs } from './ours.mjs';

const port = Number(process.env.BENCH_PORT ?? 18291);
const flooders = Number(process.env.BENCH_FLOOD ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const bodyBytes = 8 * 1024 * 1024;

/** One unauthenticated POST of an 8 MiB body (sent whole unless the server closes first); answers its status or the error. */
function floodOne(base) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      `${base}/v2/no/such/path`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': bodyBytes } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
      },
    );
    req.on('error', (err) => resolve({ status: err.code ?? 'error', ms: performance.now() - started }));
    // "[", spaces, "]": valid JSON that a parser reads to the end.
    const spaces = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < bodyBytes) {
        const n = Math.min(spaces.length, bodyBytes - sent);
        const c = Buffer.from(spaces.subarray(0, n));
        if (sent === 0) c[0] = 0x5b;
        sent += n;
        if (sent >= bodyBytes) {
          c[n - 1] = 0x5d;
          return req.end(c);
        }
        if (!req.write(c)) return req.once('drain', write);
      }
    };
    write();
  });
}

async function poll(base, untilDone) {
  const times = [];
  while (!untilDone()) {
    const started = performance.now();
    await fetch(`${base}/healthz`)
      .then((r) => r.text())
      .catch(() => undefined);
    times.push(performance.now() - started);
    await new Promise((ok) => setTimeout(ok, 20));
  }
  return times;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const fmt = (xs) =>
  `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${xs.length} polls)`;

const ours = await startOurs({ port, neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7781), concurrency: 4 });
try {
  let stop = false;
  setTimeout(() => (stop = true), 2000);
  const idle = await poll(ours.base, () => stop);
  const rssBefore = memOf(ours.pid).rssMb;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, memOf(ours.pid).rssMb)), 50);
  let flooding = true;
  const during = poll(ours.base, () => !flooding);
  const answers = {};
  const started = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const a of await Promise.all(Array.from({ length: flooders }, () => floodOne(ours.base))))
      answers[a.status] = (answers[a.status] ?? 0) + 1;
  }
  const floodSeconds = (performance.now() - started) / 1000;
  flooding = false;
  const polled = await during;
  clearInterval(sampler);
  console.log(`service: ${process.env.BENCH_MAIN ?? 'dist/src/main.js'}`);
  console.log(
    `flood: ${rounds} rounds of ${flooders} unauthenticated 8 MiB bodies to an unknown path, ${floodSeconds.toFixed(2)} s; answers ${JSON.stringify(answers)}`,
  );
  console.log(`GET /healthz idle:   ${fmt(idle)}`);
  console.log(`GET /healthz flood:  ${fmt(polled)}`);
  console.log(`service RSS: ${rssBefore.toFixed(0)} MB before, ${peak.toFixed(0)} MB peak during the flood`);
} finally {
  await ours.stop();
}
