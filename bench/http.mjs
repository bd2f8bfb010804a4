// A small keep-alive HTTP/JSON client and a closed-loop load runner with latency figures.
import http from 'node:http';

export function client(baseUrl, token, connections = 16) {
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

/** Runs `work(item)` over items with `concurrency` in flight; answers latency percentiles and throughput. */
export async function measure(items, concurrency, work) {
  const latencies = new Array(items.length);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        const t0 = process.hrtime.bigint();
        await work(items[i], i);
        latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { count: items.length, seconds, perSecond: items.length / seconds, p50: pct(50), p99: pct(99) };
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
