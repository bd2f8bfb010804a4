// The benches' HTTP/1.1 client: keep-alive raw sockets (node:net), one request in flight a socket,
// the answer read by its Content-Length (or chunked), no http.Agent. Node's client (`http.request`
// through an Agent) costs about what a bare server costs a request: on a box of two cores it took
// 0.3 of a core from the system it measured at 6,700 checks a second, and answers that arrived
// together waited their turn in its event loop, which a closed loop counts in every round trip
// (docs/benchmarks.md, "The benches' client"). The same client measures every system of bench:peers.
// BENCH_CLIENT=agent selects Node's client (bench/http.mjs), for a comparison of the two.
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');
/** What a JSON text can start with. */
const JSON_START = /^\s*[[{"\d\-tfn]/;

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
    const c = { socket, closed: false, pending: undefined, reader: new AnswerReader(), gotBytes: false };
    socket.on('data', (chunk) => {
      c.gotBytes = true;
      const done = c.reader.push(chunk);
      if (!done) return;
      const p = c.pending;
      c.pending = undefined;
      c.reader = new AnswerReader();
      if (done.close) {
        c.closed = true;
        socket.destroy();
      }
      p?.resolve(done);
    });
    const gone = (err) => {
      if (c.closed && !c.pending) return;
      c.closed = true;
      const p = c.pending;
      c.pending = undefined;
      if (!p) return;
      // A body read until the server closed (no length, not chunked).
      const untilClose = c.reader.end();
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
    // Not JSON (the floor's bare 'ok', a stream of JSON lines): the text. A text that cannot start
    // JSON is not parsed: a failed parse builds a SyntaxError with its stack, about what the floor
    // spends on a whole request (bench:peers' floor client sat at 0.68 core on it).
    let parsed = text;
    if (!text) parsed = undefined;
    else if (JSON_START.test(text))
      try {
        parsed = JSON.parse(text);
      } catch {
        /* keep the text */
      }
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    return parsed;
  };
  return call;
}

/**
 * Reads one answer as its bytes arrive: the head (up to the blank line), then the body by its
 * Content-Length, chunked, or until the server closes. `push` answers { status, body, close } once
 * the answer is whole; the body's pieces are joined once, at its end (an export of many megabytes
 * arrives in thousands of pieces). One request is in flight a socket, so nothing follows an answer.
 */
class AnswerReader {
  head = undefined; // the bytes before the blank line, while it has not arrived
  status = 0;
  length = -1; // Content-Length, or -1
  chunked = false;
  close = false;
  parts = [];
  got = 0; // body bytes so far (length mode)
  chunkLeft = -1; // chunked: bytes left of the current chunk's data and its CRLF; -1 while reading a size line
  line = undefined; // chunked: a size line (or the trailer's end) not yet whole
  trailer = false; // chunked: the last chunk was read; waiting for the blank line that ends the trailers

  push(chunk) {
    if (this.status === 0) {
      const buf = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      const end = buf.indexOf(CRLF2);
      if (end < 0) {
        this.head = buf;
        return undefined;
      }
      this.head = undefined;
      this.readHead(buf.toString('latin1', 0, end));
      chunk = buf.subarray(end + 4);
      if (this.status === 204 || this.status === 304 || this.length === 0) return this.done();
    }
    if (this.chunked) return this.pushChunked(chunk);
    if (this.length < 0) {
      this.parts.push(chunk); // until the server closes: `end`
      return undefined;
    }
    this.parts.push(chunk);
    this.got += chunk.length;
    return this.got >= this.length ? this.done() : undefined;
  }

  readHead(text) {
    const lines = text.split('\r\n');
    this.status = Number(lines[0].slice(9, 12));
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      const name = lines[i].slice(0, colon).toLowerCase();
      const value = lines[i]
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') this.length = Number(value);
      else if (name === 'transfer-encoding') this.chunked = value.includes('chunked');
      else if (name === 'connection') this.close = value === 'close';
    }
  }

  pushChunked(chunk) {
    let at = 0;
    while (at < chunk.length) {
      if (this.chunkLeft > 0) {
        const take = Math.min(this.chunkLeft, chunk.length - at);
        // The chunk's data, without the CRLF after it (the last 2 of chunkLeft).
        const data = Math.min(take, Math.max(0, this.chunkLeft - 2));
        if (data > 0) this.parts.push(chunk.subarray(at, at + data));
        this.chunkLeft -= take;
        at += take;
        if (this.chunkLeft === 0) this.chunkLeft = -1;
        continue;
      }
      const buf = this.line ? Buffer.concat([this.line, chunk.subarray(at)]) : chunk.subarray(at);
      const eol = buf.indexOf('\r\n');
      if (eol < 0) {
        this.line = Buffer.from(buf);
        return undefined;
      }
      this.line = undefined;
      const used = eol + 2 - (buf.length - (chunk.length - at)); // bytes of this chunk the line took
      at += used;
      if (this.trailer) {
        if (eol === 0) return this.done(); // the blank line after the trailers
        continue; // a trailer field: skipped
      }
      const size = Number.parseInt(buf.toString('latin1', 0, eol), 16);
      if (size === 0) this.trailer = true;
      else this.chunkLeft = size + 2;
    }
    return undefined;
  }

  done() {
    return { status: this.status, body: this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts), close: this.close };
  }

  /** The server closed: the answer, when its body was to run until then. */
  end() {
    return this.status !== 0 && this.length < 0 && !this.chunked
      ? { status: this.status, body: Buffer.concat(this.parts), close: true }
      : undefined;
  }
}
