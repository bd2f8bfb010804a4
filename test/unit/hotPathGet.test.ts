import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../src/app';
import { healthRoutes } from '../../src/areas/health/routes';
import type { Config } from '../../src/config';
import { createHttpServer } from '../../src/http/server';
import { bindRoutes } from '../../src/http/routeTable';
import { Metrics } from '../../src/metrics/metrics';

/**
 * GET /healthz is served by the hot path (src/http/hotPath.ts) when it has no query string and no
 * body, and by koa otherwise: both doors answer the same, with the same request id, metrics and
 * request line.
 */
describe('GET /healthz through either door', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const metrics = new Metrics({ processMetrics: false });
  const app = createApp({
    config: { trustProxy: false, bodyLimitBytes: 1024, bulkBodyLimitBytes: 4096, jsonMaxDepth: 8 } as Config,
    log: pino({ level: 'info' }, sink),
    metrics,
    routes: bindRoutes(healthRoutes, { store: { ping: async () => true }, isMigrated: () => true } as never),
    authenticator: { authenticate: async () => ({}) },
    revisionOf: () => undefined,
  });
  const server = createHttpServer(app.handler);
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  const doors: [string, string, RequestInit][] = [
    ['hot path', '/healthz', {}],
    ['koa (query string)', '/healthz?probe=1', {}],
  ];
  it.each(doors)(
    'answers 200 {status: ok} through the %s, echoing a sane request id, counted and logged once',
    async (_door, path, init) => {
      lines.length = 0;
      const count = async () =>
        (await metrics.httpDuration.get()).values.find(
          (v) =>
            v.metricName === 'authz_http_request_duration_seconds_count' &&
            v.labels.route === '/healthz' &&
            v.labels.method === 'GET' &&
            v.labels.status === '200',
        )?.value ?? 0;
      const before = await count();
      const res = await fetch(url + path, { ...init, headers: { 'x-request-id': 'probe-1' } });
      expect({
        status: res.status,
        type: res.headers.get('content-type'),
        id: res.headers.get('x-request-id'),
        body: await res.json(),
      }).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        id: 'probe-1',
        body: { status: 'ok' },
      });
      const requestLines = lines.filter((l) => l.msg === 'request');
      expect(requestLines).toEqual([expect.objectContaining({ reqId: 'probe-1', method: 'GET', status: 200 })]);
      expect((await count()) - before).toBe(1);
    },
  );

  it('gives a new request id when the one sent is not sane, and koa still answers a HEAD', async () => {
    const res = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${url}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });
});
