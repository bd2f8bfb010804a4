// A lean load generator for one HTTP/1.1 server: several client processes (node:child_process),
// each holding raw keep-alive TCP sockets (node:net) and writing prebuilt requests, one in flight a
// socket (no pipelining), reading each answer by its Content-Length. No http.Agent, no
// IncomingMessage, no JSON parse: per request the client spends a write and a scan of the answer's
// head, several times less CPU than the server under test spends on its side.
//
// Every round reports each client process's own CPU share (process.cpuUsage over the round's wall
// time), the server's (from /proc, by pid), the box's idle share (/proc/stat) and the load
// average. A client process at or above CLIENT_BUSY of a core had no idle CPU: its round measured
// the client, not the server, and is marked "not a figure" (`figure: false`).
//
//   const fl = await floodClient({ port, processes: 2, connections: 16 });
//   const r = await fl.run(requests, 20_000, { serverPid });   // requests: [{method, path, headers, body, expect}]
//   console.log(describeRound(r)); await fl.close();
//
// The worker side is this file run with `worker` as its argument (the parent forks it).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

/** A client process at or above this share of one core had no idle CPU: its round is not a figure. */
export const CLIENT_BUSY = 0.9;

/** The raw bytes of one request (keep-alive is HTTP/1.1's default). */
function rawRequest(host, { method = 'GET', path = '/', headers = {}, body }) {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (payload !== undefined) {
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) lines.push('Content-Type: application/json');
    lines.push(`Content-Length: ${Buffer.byteLength(payload)}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${payload ?? ''}`);
}

/** CPU seconds (user + system) of a process so far, from /proc (10 ms ticks). */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** The box's CPU counters (jiffies): busy and total, summed over all cores. */
function boxTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { idle, total };
}

/**
 * Starts `processes` client processes with `connections` sockets between them to 127.0.0.1:port.
 * `run(requests, count, {serverPid, otherPids})` sends `count` requests (each socket cycles through
 * the list from its own offset) and answers the round's figures.
 */
export async function floodClient({ port, host = '127.0.0.1', processes = 2, connections = 16 }) {
  const workers = [];
  for (let i = 0; i < processes; i++) {
    const sockets = Math.floor(connections / processes) + (i < connections % processes ? 1 : 0);
    const w = fork(fileURLToPath(import.meta.url), ['worker'], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    workers.push({ w, sockets });
  }
  const ask = (w, msg) =>
    new Promise((ok, fail) => {
      const onMsg = (m) => {
        w.off('exit', onExit);
        if (m.error) fail(new Error(`flood client: ${m.error}`));
        else ok(m);
      };
      const onExit = (code) => {
        w.off('message', onMsg);
        fail(new Error(`flood client exited (${code})`));
      };
      w.once('message', onMsg);
      w.once('exit', onExit);
      w.send(msg);
    });
  await Promise.all(workers.map(({ w, sockets }) => ask(w, { op: 'connect', port, host, sockets })));
  return {
    processes,
    connections,
    async run(requests, count, { serverPid, otherPids = {} } = {}) {
      const raws = requests.map((r) => ({ raw: rawRequest(`${host}:${port}`, r), expect: r.expect ?? null }));
      // Each process takes its share of the count; all load their requests first, then start together.
      await Promise.all(
        workers.map(({ w }, i) =>
          ask(w, { op: 'load', requests: raws, count: Math.floor(count / processes) + (i < count % processes ? 1 : 0), offset: i }),
        ),
      );
      const box0 = boxTicks();
      const server0 = serverPid ? cpuOf(serverPid) : 0;
      const others0 = Object.fromEntries(Object.entries(otherPids).map(([k, pid]) => [k, cpuOf(pid)]));
      const t0 = performance.now();
      const outs = await Promise.all(workers.map(({ w }) => ask(w, { op: 'go' })));
      const seconds = (performance.now() - t0) / 1000;
      const box1 = boxTicks();
      const sent = outs.reduce((a, o) => a + o.done, 0);
      const lat = new Float64Array(sent);
      let at = 0;
      for (const o of outs) {
        lat.set(o.latencies, at);
        at += o.latencies.length;
      }
      lat.sort();
      const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
      const clients = outs.map((o) => o.cpu / o.seconds);
      const serverCore = serverPid ? (cpuOf(serverPid) - server0) / seconds : undefined;
      const r = {
        count: sent,
        seconds,
        perSecond: sent / seconds,
        p50: pct(50),
        p99: pct(99),
        errors: outs.reduce((a, o) => a + o.errors, 0),
        wrong: outs.reduce((a, o) => a + o.wrong, 0),
        firstError: outs.find((o) => o.firstError)?.firstError,
        clients,
        serverCore,
        /** The server's CPU per request, µs: what other load on the box moves least. */
        serverUsPerRequest: serverPid ? ((serverCore * seconds) / sent) * 1e6 : undefined,
        others: Object.fromEntries(Object.entries(otherPids).map(([k, pid]) => [k, (cpuOf(pid) - others0[k]) / seconds])),
        boxIdle: (box1.idle - box0.idle) / Math.max(1, box1.total - box0.total),
        load: loadavg()[0],
      };
      r.figure = r.errors === 0 && r.wrong === 0 && clients.every((c) => c < CLIENT_BUSY);
      return r;
    },
    async close() {
      await Promise.all(
        workers.map(
          ({ w }) =>
            new Promise((ok) => {
              if (w.exitCode !== null) return ok();
              w.once('exit', ok);
              w.send({ op: 'close' });
            }),
        ),
      );
    },
  };
}

/** One line on a round: rate, latency, each client's and the server's CPU share, the box. */
export function describeRound(r) {
  const parts = [
    `${r.perSecond.toFixed(0)} req/s`,
    `p50 ${r.p50.toFixed(2)} ms p99 ${r.p99.toFixed(2)} ms`,
    `clients ${r.clients.map((c) => c.toFixed(2)).join('+')} core`,
  ];
  if (r.serverCore !== undefined) parts.push(`server ${r.serverCore.toFixed(2)} core, ${r.serverUsPerRequest.toFixed(1)} µs CPU/req`);
  for (const [k, v] of Object.entries(r.others)) parts.push(`${k} ${v.toFixed(2)} core`);
  parts.push(`box idle ${(r.boxIdle * 100).toFixed(0)} %`, `load ${r.load.toFixed(2)}`);
  let line = parts.join('; ');
  if (r.errors || r.wrong) line += `; ${r.errors} errors, ${r.wrong} wrong (${r.firstError ?? 'an answer other than expected'})`;
  if (!r.figure && !r.errors && !r.wrong) line += `; NOT A FIGURE: a client process had no idle CPU (>= ${CLIENT_BUSY} core)`;
  return line;
}

// ---- the worker: raw sockets, a closed loop each -------------------------------------------------

const CRLF2 = Buffer.from('\r\n\r\n');

function worker() {
  let sockets = [];
  let target;
  let job;
  process.on('message', async (m) => {
    try {
      if (m.op === 'connect') {
        target = m;
        process.send({ ok: true });
      } else if (m.op === 'load') {
        // Fresh sockets each round, connected before the clock starts (a server closes idle ones: keepAliveTimeout).
        sockets = await Promise.all(
          Array.from(
            { length: target.sockets },
            () =>
              new Promise((ok, fail) => {
                // onread: the socket reads into one buffer of its own (no Buffer allocated a read).
                const own = Buffer.allocUnsafe(64 * 1024);
                const s = connect(
                  {
                    port: target.port,
                    host: target.host,
                    noDelay: true,
                    onread: { buffer: own, callback: (n, b) => s.emit('bytes', b.subarray(0, n)) },
                  },
                  () => ok(s),
                );
                s.once('error', fail);
              }),
          ),
        );
        job = {
          requests: m.requests.map((r) => ({ raw: Buffer.from(r.raw), expect: r.expect === null ? null : Buffer.from(r.expect) })),
          count: m.count,
          offset: m.offset,
        };
        process.send({ ok: true });
      } else if (m.op === 'go') {
        process.send(await go(sockets, job));
      } else if (m.op === 'close') {
        for (const s of sockets) s.destroy();
        process.exit(0);
      }
    } catch (err) {
      process.send({ error: String(err?.stack ?? err) });
    }
  });
}

/** Sends job.count requests over the sockets, one in flight each; answers counts, latencies and this process's CPU. */
function go(sockets, job) {
  const { requests, count } = job;
  const latencies = new Float64Array(count);
  let started = 0;
  let done = 0;
  let errors = 0;
  let wrong = 0;
  let firstError;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return new Promise((finish) => {
    const end = () => {
      const cpu = process.cpuUsage(cpu0);
      const seconds = (performance.now() - t0) / 1000;
      for (const s of sockets) s.destroy();
      finish({ done, errors, wrong, firstError, latencies: latencies.subarray(0, done), cpu: (cpu.user + cpu.system) / 1e6, seconds });
    };
    let live = sockets.length;
    sockets.forEach((s, si) => {
      let next = (job.offset * 7919 + si * 104729) % requests.length;
      let pending = null; // bytes of an answer not complete yet
      let current;
      let sentAt = 0;
      const send = () => {
        if (started >= count) return stop();
        started++;
        current = requests[next];
        next = (next + 1) % requests.length;
        sentAt = performance.now();
        s.write(current.raw);
      };
      let over = false;
      const stop = () => {
        if (over) return;
        over = true;
        if (--live === 0) end();
      };
      // The server closed the connection or it failed: counted, and this socket's loop ends.
      const lost = (err) => {
        if (over) return;
        errors++;
        firstError ??= `the connection ${err ? `failed: ${err.message}` : 'was closed by the server'}`;
        stop();
      };
      s.on('error', lost);
      s.on('close', () => lost());
      s.on('bytes', (chunk) => {
        // The chunk is the socket's own buffer, overwritten by the next read: a partial answer is copied.
        let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          const headEnd = buf.indexOf(CRLF2);
          if (headEnd < 0) break;
          const head = buf.toString('latin1', 0, headEnd);
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          if (!m) {
            // Chunked or close-delimited answers are not what this client is for.
            errors++;
            firstError ??= `an answer without Content-Length: ${head.slice(0, 200)}`;
            stop();
            return;
          }
          const total = headEnd + 4 + Number(m[1]);
          if (buf.length < total) break;
          const status = Number(head.slice(9, 12));
          latencies[done++] = performance.now() - sentAt;
          if (status >= 300) {
            errors++;
            firstError ??= `${status} ${buf.toString('utf8', headEnd + 4, Math.min(total, headEnd + 304))}`;
          } else if (current.expect && buf.subarray(headEnd + 4, total).indexOf(current.expect) < 0) wrong++;
          buf = buf.subarray(total);
          if (buf.length === 0) break;
        }
        pending = buf.length ? Buffer.from(buf) : null;
        if (pending === null) send();
      });
      send();
    });
  });
}

if (process.argv[2] === 'worker') worker();
