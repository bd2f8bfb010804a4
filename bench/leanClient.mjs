// The benches' HTTP/1.1 client: keep-alive raw sockets (node:net), one request in flight a socket,
// the answer read by its Content-Length (or chunked), no http.Agent. Node's client (`http.request`
// through an Agent) costs about what a bare server costs a request: on a box of two cores it took
// 0.3 of a core from the system it measured at 6,700 checks a second, and answers that arrived
// together waited their turn in its event loop, which a closed loop counts in every round trip
// (docs/benchmarks.md, "The benches' client"). The same client measures every system of bench:peers.
// BENCH_CLIENT=agent selects Node's client (bench/http.mjs), for a comparison of the two.
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');

/** `(method, path, body?) => Promise<parsed JSON | text | undefined>`; a status of 300 or more rejects. */
export function leanClient(baseUrl, token, connections = 16) {
  const url = new URL(baseUrl);
  const host = url.hostname;
  const port = Number(url.port || 80);
  const head = `Host: ${host}:${port}\r\nAuthorization: Bearer ${token}\r\n`;
  const idle = [];
  const waiting = [];
  let open = 0;

  const acquire = () => {
    while (idle.length) {
      const c = idle.pop();
      if (!c.closed) return Promise.resolve(c);
      open--; // closed by the server while idle
    }
    if (open < connections) {
      open++;
      return Promise.resolve(connect());
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (c) => {
    if (c.closed) {
      // A waiter gets a new connection in its place.
      const w = waiting.shift();
      if (w) w(connect());
      else open--;
      return;
    }
    const w = waiting.shift();
    if (w) w(c);
    else idle.push(c);
  };

  function connect() {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    const c = { socket, closed: false, pending: undefined, buf: undefined, gotBytes: false };
    socket.on('data', (chunk) => {
      c.gotBytes = true;
      c.buf = c.buf ? Buffer.concat([c.buf, chunk]) : chunk;
      const p = c.pending;
      if (!p) return;
      const done = parse(c.buf);
      if (!done) return;
      c.buf = done.rest.length ? done.rest : undefined;
      c.pending = undefined;
      if (done.close) {
        c.closed = true;
        socket.destroy();
      }
      p.resolve(done);
    });
    const gone = (err) => {
      if (c.closed && !c.pending) return;
      c.closed = true;
      const p = c.pending;
      c.pending = undefined;
      if (!p) return;
      // A body read until the server closed (no length, not chunked).
      const untilClose = c.buf && parse(c.buf, true);
      if (untilClose) p.resolve(untilClose);
      else p.reject(Object.assign(err ?? new Error('socket closed'), { reused: p.reused, noAnswer: !c.gotBytes }));
    };
    socket.on('error', gone);
    socket.on('close', () => gone());
    return c;
  }

  const call = async (method, path, body, retried = false) => {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const request =
      `${method} ${path} HTTP/1.1\r\n${head}` +
      (body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n`) +
      `\r\n${payload}`;
    const c = await acquire();
    const reused = c.gotBytes;
    c.gotBytes = false;
    let answer;
    try {
      answer = await new Promise((resolve, reject) => {
        c.pending = { resolve, reject, reused };
        c.socket.write(request);
      });
    } catch (err) {
      release(c);
      // A kept-alive socket the server closed just as it was reused: send again once.
      if (err.reused && err.noAnswer && !retried) return call(method, path, body, true);
      throw err;
    }
    release(c);
    const text = answer.body.toString('utf8');
    let parsed = text; // not JSON (a bare 'ok', a stream of JSON lines): the text
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep the text */
    }
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    return parsed;
  };
  return call;
}

/**
 * One whole answer at the start of `buf`: { status, body, close, rest }, or undefined while it is
 * incomplete. `ended`: the server closed the connection (a body without a length ends there).
 */
function parse(buf, ended = false) {
  const end = buf.indexOf(CRLF2);
  if (end < 0) return undefined;
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const status = Number(lines[0].slice(9, 12));
  let length = -1;
  let chunked = false;
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    else if (name === 'connection') close = value.toLowerCase() === 'close';
  }
  const start = end + 4;
  if (status === 204 || status === 304) return { status, body: Buffer.alloc(0), close, rest: buf.subarray(start) };
  if (chunked) {
    const parts = [];
    let at = start;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (size === 0) {
        // Trailers (none expected) end with an empty line.
        const trailerEnd = buf.indexOf('\r\n', lineEnd + 2);
        if (trailerEnd < 0) return undefined;
        return { status, body: Buffer.concat(parts), close, rest: buf.subarray(trailerEnd + 2) };
      }
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  if (length >= 0) {
    if (buf.length < start + length) return undefined;
    return { status, body: buf.subarray(start, start + length), close, rest: buf.subarray(start + length) };
  }
  return ended ? { status, body: buf.subarray(start), close: true, rest: Buffer.alloc(0) } : undefined;
}
