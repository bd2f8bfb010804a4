// A small keep-alive HTTP/JSON client and a closed-loop load runner with latency figures.
// The client (bench/leanClient.mjs) runs in the measuring process: `measure` prints its CPU share, and
// a floor measured at a full core of it is its ceiling, not the server's (`clientCore`, `clientBound`).
// The floor and the rows compared with it: bench/flood.mjs, several client processes of raw sockets.
import http from 'node:http';
import { leanClient } from './leanClient.mjs';

/** The median of a run's figures (of an even count, the upper of the two middle ones). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A measuring process at or above this share of one core had no idle CPU: what it measured is its own ceiling. */
export const CLIENT_BUSY = 0.9;

/**
 * The benches' client: bench/leanClient.mjs (raw keep-alive sockets); BENCH_CLIENT=agent, Node's own
 * (`http.request` through a keep-alive Agent), which the benches used before 2026-11-29.
 */
export function client(baseUrl, token, connections = 16) {
  return process.env.BENCH_CLIENT === 'agent' ? agentClient(baseUrl, token, connections) : leanClient(baseUrl, token, connections);
}

function agentClient(baseUrl, token, connections) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const call = (method, path, body, retried = false) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed = text; // not JSON (a bare 'ok', a stream of JSON lines): the text
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              /* keep the text */
            }
            if (res.statusCode >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
            else resolve(parsed);
          });
        },
      );
      // A kept-alive socket the server closed just as it was reused: send again once (Node's advice).
      req.on('error', (err) =>
        req.reusedSocket && err.code === 'ECONNRESET' && !retried ? call(method, path, body, true).then(resolve, reject) : reject(err),
      );
      req.end(payload);
    });
  return call;
}

/**
 * Runs `work(item)` over items with `concurrency` in flight; answers latency percentiles and throughput.
 * `minSeconds`: passes over the items go on (whole passes) until at least that long has passed, so a
 * fast row (cache hits) is measured over seconds rather than a sub-second burst that a scheduler hiccup
 * or the row's position in the run decides.
 * `stopAfterSeconds`: one pass at most, and no item started after that long (for items that must not
 * be asked twice, such as lists a system may keep): `count` says how many of the first items were done.
 */
export async function measure(items, concurrency, work, { minSeconds = 0, stopAfterSeconds = Infinity } = {}) {
  const latencies = [];
  let count = 0;
  const cpu0 = process.cpuUsage();
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  do {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < items.length && elapsed() < stopAfterSeconds) {
          const i = next++;
          const t0 = process.hrtime.bigint();
          await work(items[i], i);
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }),
    );
    count += next;
  } while (elapsed() < Math.min(minSeconds, stopAfterSeconds));
  const seconds = elapsed();
  const cpu = process.cpuUsage(cpu0);
  // This process's CPU share while it measured (the client's own, and whatever else the bench does meanwhile).
  const clientCore = (cpu.user + cpu.system) / 1e6 / seconds;
  const sorted = latencies.sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return {
    count,
    seconds,
    perSecond: count / seconds,
    p50: pct(50),
    p99: pct(99),
    clientCore,
    clientBound: clientCore >= CLIENT_BUSY,
  };
}

/** A note for a printed figure: the client's CPU share, and that the figure is not one when the client had no idle CPU. */
export function clientNote(r) {
  return r.clientBound
    ? `client at ${r.clientCore.toFixed(2)} core: the client's ceiling, NOT A FIGURE of the server`
    : `client at ${r.clientCore.toFixed(2)} core`;
}

export async function inBatches(items, size, concurrency, fn) {
  const batches = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) await fn(batches[next++]);
    }),
  );
}

/**
 * Warm-up, one rule for every system and script: passes over `items` until the best rate has not
 * risen by more than 3 % over the last three passes, after at least four passes and `minMs`
 * (BENCH_WARM_MIN_S, 60 s), at most `maxMs` (BENCH_WARM_MAX_S, 240 s). A JVM keeps compiling for
 * minutes under a new load (docs/benchmarks.md, "JIT warm-up"); a Go peer is compiled ahead of
 * time. Answers the rates of the passes.
 */
export async function warmUntilSteady(items, concurrency, ask, opts = {}) {
  const minMs = opts.minMs ?? Number(process.env.BENCH_WARM_MIN_S ?? 60) * 1000;
  const maxMs = opts.maxMs ?? Number(process.env.BENCH_WARM_MAX_S ?? 240) * 1000;
  const t0 = Date.now();
  const rates = [];
  let best = 0;
  let bestAt = 0;
  while (Date.now() - t0 < maxMs) {
    const r = await measure(items, concurrency, ask);
    rates.push(r.perSecond);
    if (r.perSecond > best * 1.03) bestAt = rates.length;
    best = Math.max(best, r.perSecond);
    if (Date.now() - t0 >= minMs && rates.length >= 4 && rates.length - bestAt >= 3) break;
  }
  return { rates, seconds: (Date.now() - t0) / 1000 };
}
