import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import pino from 'pino';
import { createApp } from '../../src/app';
import { healthRoutes } from '../../src/areas/health/routes';
import type { Config } from '../../src/config';
import { readRequest } from '../../src/http/lane';
import { bindRoutes, route } from '../../src/http/routeTable';
import { obj, str } from '../../src/http/schema';
import { createHttpServer } from '../../src/http/server';
import { Metrics } from '../../src/metrics/metrics';
import { gracefulDrain } from '../../src/shutdown';

/**
 * The lane (src/http/lane.ts): a keep-alive connection's requests to the hot routes are read and
 * answered without Node's request objects; any other request hands the connection, with the bytes
 * not yet read, to Node's HTTP server. Users rely on both doors answering alike, in order.
 */

const raw = (head: string[], body = '') =>
  Buffer.from(`${head.join('\r\n')}\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`);
const post = (body: string, extra: string[] = []) =>
  raw(['POST /v2/allowed/p/e HTTP/1.1', 'Host: x', 'Content-Type: application/json', ...extra], body);

describe('readRequest: the plain shape is read, anything else is left to Node', () => {
  it('reads a POST whole: method, target, headers lower-cased and trimmed, the body, and where the next request starts', () => {
    const one = post('{"user":"a"}', ['X-Request-Id:   r-1  ']);
    const read = readRequest(Buffer.concat([one, raw(['GET /healthz HTTP/1.1', 'Host: x'])]));
    expect(read && { ...read.request, body: read.request.body.toString() }).toEqual({
      method: 'POST',
      url: '/v2/allowed/p/e',
      headers: { host: 'x', 'content-type': 'application/json', 'x-request-id': 'r-1', 'content-length': '12' },
      body: '{"user":"a"}',
    });
    expect(read!.size).toBe(one.length);
    expect(readRequest(raw(['GET /healthz HTTP/1.1', 'Host: x', 'Connection: Keep-Alive']))?.request.url).toBe('/healthz');
  });

  const left: [string, Buffer][] = [
    ['HTTP/1.0', raw(['GET /healthz HTTP/1.0', 'Host: x'])],
    ['HEAD', raw(['HEAD /healthz HTTP/1.1', 'Host: x'])],
    ['an absolute-form target', raw(['GET http://x/healthz HTTP/1.1', 'Host: x'])],
    ['a target with a space', raw(['GET /health z HTTP/1.1', 'Host: x'])],
    ['no Host', raw(['GET /healthz HTTP/1.1'])],
    ['a repeated header', raw(['GET /healthz HTTP/1.1', 'Host: x', 'X-A: 1', 'x-a: 2'])],
    ['a header named __proto__', raw(['GET /healthz HTTP/1.1', 'Host: x', '__proto__: 1'])],
    ['a header named like an object property', raw(['GET /healthz HTTP/1.1', 'Host: x', 'constructor: 1'])],
    ['Transfer-Encoding', raw(['POST /v2/allowed/p/e HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', '', '0', ''])],
    ['Expect', post('{}', ['Expect: 100-continue'])],
    ['Upgrade', raw(['GET /healthz HTTP/1.1', 'Host: x', 'Upgrade: websocket'])],
    ['Connection: close', raw(['GET /healthz HTTP/1.1', 'Host: x', 'Connection: close'])],
    ['a Content-Length not of digits', raw(['POST /v2/allowed/p/e HTTP/1.1', 'Host: x', 'Content-Length: +2', '', '{}'])],
    ['a folded header line', raw(['GET /healthz HTTP/1.1', 'Host: x', 'X-A: 1', ' 2'])],
    ['a header value beyond ASCII', Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: \xe9\r\n\r\n', 'latin1')],
    ['a bare LF in a header', Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\nX-A: 1\r\n\r\n')],
    ['a head past 16 KB', raw(['GET /healthz HTTP/1.1', 'Host: x', `X-A: ${'a'.repeat(17_000)}`])],
    ['a head not yet whole', Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\n')],
    ['a body not yet whole', post('{"user":"a"}').subarray(0, -3)],
  ];
  it.each(left)('leaves %s to Node', (_what, bytes) => {
    expect(readRequest(bytes)).toBeUndefined();
  });
});

describe('the lane through a real server', () => {
  /** The hot check's handler waits while `hold` is set (a request in flight at the graceful stop). */
  let hold: Promise<void> | undefined;
  const metrics = new Metrics({ processMetrics: false });
  const checkRoutes = [
    route({
      method: 'POST',
      readOnly: true,
      hot: true,
      path: '/v2/allowed/:proj_id/:env_id',
      auth: 'public',
      tag: 'Decisions',
      summary: 'test check',
      schemas: { body: obj({ user: str() }), response: obj({ allow: { type: 'boolean' } }) },
      handler: async (r) => {
        await hold;
        return { allow: r.body.user === 'alice' };
      },
    }),
  ];
  const app = createApp({
    config: { trustProxy: false, bodyLimitBytes: 1024, bulkBodyLimitBytes: 4096, jsonMaxDepth: 8 } as Config,
    log: pino({ level: 'silent' }),
    metrics,
    routes: [
      ...bindRoutes(healthRoutes, { store: { ping: async () => true }, isMigrated: () => true } as never),
      ...bindRoutes(checkRoutes as never, {}),
    ],
    authenticator: { authenticate: async () => ({}) },
    revisionOf: () => undefined,
  });
  let server: Server;
  let port = 0;
  beforeEach(async () => {
    hold = undefined;
    server = createHttpServer(app.handler, undefined, { lane: app.lane });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  interface Answer {
    status: number;
    headers: Record<string, string>;
    body: string;
  }
  /** A raw connection and the answers read off it, each by its Content-Length. */
  const open = async () => {
    const socket: Socket = connect(port, '127.0.0.1');
    await new Promise((ok) => socket.once('connect', ok));
    let bytes = Buffer.alloc(0);
    const answers: Answer[] = [];
    let ended = false;
    socket.on('data', (d) => {
      bytes = Buffer.concat([bytes, d]);
      for (;;) {
        const end = bytes.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [status, ...lines] = bytes.toString('latin1', 0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const size = end + 4 + Number(headers['content-length']);
        if (bytes.length < size) return;
        answers.push({ status: Number(status.split(' ')[1]), headers, body: bytes.toString('utf8', end + 4, size) });
        bytes = bytes.subarray(size);
      }
    });
    socket.on('end', () => (ended = true));
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 400 && !what(); i++) await new Promise((ok) => setTimeout(ok, 5));
      expect(what()).toBe(true);
    };
    return { socket, answers, until, ended: () => ended, closed: () => socket.destroyed || ended };
  };
  /** What a user compares of an answer (Date moves; keep-alive headers are the connection's). */
  const seen = (a: Answer) => ({
    status: a.status,
    // Each error body has an id of its own.
    body: a.body.replace(/"id":"[0-9a-f-]{36}"/, '"id":"…"'),
    id: a.headers['x-request-id'],
    type: a.headers['content-type'],
    length: a.headers['content-length'],
    connection: a.headers.connection,
    hasDate: /GMT$/.test(a.headers.date ?? ''),
  });

  it('answers a check, an invalid body and the probe as Node does (status, body, request id, headers)', async () => {
    const requests = [
      post('{"user":"alice"}', ['X-Request-Id: q-1']),
      post('{"user":"bob"}', ['X-Request-Id: q-2']),
      post('{"user":1}', ['X-Request-Id: q-3']),
      post('{"user":', ['X-Request-Id: q-4']),
      raw(['GET /healthz HTTP/1.1', 'Host: x', 'X-Request-Id: q-5']),
    ];
    // Node's door emits 'request' for each request it reads; the lane reads its own.
    let nodeRequests = 0;
    server.on('request', () => nodeRequests++);
    const lane = await open();
    const node = await open();
    // A repeated header the routes ignore sends the other connection to Node's door from its first request.
    node.socket.write(raw(['GET /missing HTTP/1.1', 'Host: x', 'X-A: 1', 'X-A: 2']));
    await node.until(() => node.answers.length === 1);
    for (const [i, r] of requests.entries()) {
      lane.socket.write(r);
      await lane.until(() => lane.answers.length === i + 1);
      node.socket.write(r);
      await node.until(() => node.answers.length === i + 2);
    }
    expect(lane.answers.map(seen)).toEqual(node.answers.slice(1).map(seen));
    expect(nodeRequests).toBe(1 + requests.length);
    expect(lane.answers.map((a) => [a.status, a.body])).toEqual([
      [200, '{"allow":true}'],
      [200, '{"allow":false}'],
      [422, expect.stringContaining('"error_code":"INVALID_INPUT"')],
      [400, expect.stringContaining('not valid JSON')],
      [200, '{"status":"ok"}'],
    ]);
    expect(lane.answers[0].headers['keep-alive']).toBe(`timeout=${server.keepAliveTimeout / 1000}`);
  });

  it('answers pipelined requests in order, and goes on through Node after a request that is not the lane’s', async () => {
    const c = await open();
    c.socket.write(
      Buffer.concat([
        post('{"user":"alice"}', ['X-Request-Id: p-1']),
        post('{"user":"bob"}', ['X-Request-Id: p-2']),
        raw(['GET /nowhere HTTP/1.1', 'Host: x', 'X-Request-Id: p-3']),
        post('{"user":"alice"}', ['X-Request-Id: p-4']),
        raw(['GET /healthz HTTP/1.1', 'Host: x', 'X-Request-Id: p-5']),
      ]),
    );
    await c.until(() => c.answers.length === 5);
    expect(c.answers.map((a) => [a.headers['x-request-id'], a.status])).toEqual([
      ['p-1', 200],
      ['p-2', 200],
      ['p-3', 404],
      ['p-4', 200],
      ['p-5', 200],
    ]);
    expect(c.answers.map((a) => a.body)).toEqual([
      '{"allow":true}',
      '{"allow":false}',
      expect.any(String),
      '{"allow":true}',
      '{"status":"ok"}',
    ]);
  });

  it('answers a request that arrives in pieces (through Node)', async () => {
    const c = await open();
    const bytes = post('{"user":"alice"}', ['X-Request-Id: s-1']);
    c.socket.write(bytes.subarray(0, 30));
    await new Promise((ok) => setTimeout(ok, 30));
    c.socket.write(bytes.subarray(30));
    await c.until(() => c.answers.length === 1);
    expect([c.answers[0].status, c.answers[0].body, c.answers[0].headers['x-request-id']]).toEqual([200, '{"allow":true}', 's-1']);
  });

  it('answers the requests sent before the client half-closes, then ends the connection', async () => {
    const c = await open();
    c.socket.end(Buffer.concat([post('{"user":"alice"}'), post('{"user":"bob"}')]));
    await c.until(() => c.answers.length === 2 && c.ended());
    expect(c.answers.map((a) => a.body)).toEqual(['{"allow":true}', '{"allow":false}']);
  });

  it('closes a connection idle past the keep-alive time', async () => {
    server.keepAliveTimeout = 150;
    const c = await open();
    c.socket.write(raw(['GET /healthz HTTP/1.1', 'Host: x']));
    await c.until(() => c.answers.length === 1);
    expect(c.closed()).toBe(false);
    await c.until(() => c.closed());
  });

  it('on a graceful stop answers what arrives as it begins and the request in flight, with Connection: close, and closes idle connections', async () => {
    const drain = gracefulDrain(server);
    const idle = await open();
    const late = await open();
    for (const c of [idle, late]) {
      c.socket.write(raw(['GET /healthz HTTP/1.1', 'Host: x']));
      await c.until(() => c.answers.length === 1);
    }
    let release!: () => void;
    hold = new Promise((ok) => (release = ok));
    const busy = await open();
    busy.socket.write(post('{"user":"alice"}'));
    await new Promise((ok) => setTimeout(ok, 30));
    const stopped = drain(5000);
    // Sent on a kept-alive connection as the stop begins: read before the idle connections close, and answered as the connection's last.
    late.socket.write(raw(['GET /healthz HTTP/1.1', 'Host: x']));
    await late.until(() => late.answers.length === 2 && late.closed());
    expect([late.answers[1].status, late.answers[1].headers.connection]).toEqual([200, 'close']);
    await idle.until(() => idle.closed());
    expect(busy.answers).toEqual([]);
    release();
    await busy.until(() => busy.answers.length === 1 && busy.closed());
    expect([busy.answers[0].body, busy.answers[0].headers.connection]).toEqual(['{"allow":true}', 'close']);
    expect(await stopped).toEqual({ cut: 0 });
    server = createHttpServer(app.handler); // closed already: afterEach closes this one
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  });
});
