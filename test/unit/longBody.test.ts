import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowLongBody } from '../../src/http/bodies';
import { createHttpServer } from '../../src/http/server';

/**
 * The request timeout (a request not received whole in time answers 408) spares a body its
 * handler reads as a stream at its own pace (an import: src/areas/snapshots), and only that one.
 * Timings shrunk: 300 ms timeout, checked every 50 ms; the bodies take about a second.
 */
async function send(url: string, path: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-length': '40' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    let sent = 0;
    const timer = setInterval(() => {
      if (req.destroyed) return clearInterval(timer);
      req.write('xxxxxxxxxx');
      if (++sent === 4) {
        clearInterval(timer);
        req.end();
      }
    }, 250);
  });
}

it('cuts a slow body with 408, but not the body of a handler that allows a long one', async () => {
  const server = createHttpServer(
    async (req, res) => {
      if (req.url === '/long') allowLongBody(req, res);
      let n = 0;
      for await (const chunk of req) n += (chunk as Buffer).length;
      res.end(`read ${n}`);
    },
    undefined,
    { requestTimeoutMs: 300, checkEveryMs: 50 },
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    expect(await send(url, '/long')).toEqual({ status: 200, body: 'read 40' });
    expect(await send(url, '/short')).toMatchObject({ status: 408 });
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
});
