import { connect } from 'node:net';
import { startTestService, type TestService } from '../support/testService';

/**
 * docs/behaviour.md section 9: over every route of the route table, a method the path does not serve
 * answers 405 with an `Allow` header naming the served ones and the error body of docs/behaviour.md section 1; an
 * unknown path answers 404; no method (TRACE, OPTIONS, CONNECT, made-up ones) answers 500.
 * Requests go over a raw socket: `fetch` refuses TRACE and CONNECT.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

function rawRequest(method: string, path: string): Promise<RawAnswer> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body: any = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body });
    });
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.adminKey}\r\nConnection: close\r\n\r\n`);
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

// PURGE and PROPFIND stand for methods no route knows; Node's parser itself refuses names it does
// not know at all (FOO) with a bare 400 before the app sees them (last test).
const CANDIDATES = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS', 'PURGE', 'PROPFIND'];

function concrete(path: string): string {
  return path.replace(/:([a-z_]+)/g, (_m, name: string) => (name === 'proj_id' ? t.proj : name === 'env_id' ? t.env : 'x'));
}

it('answers 405 with Allow and the error body for every method a known path does not serve', async () => {
  const served = new Map<string, Set<string>>();
  for (const r of t.service.app.routes) {
    for (const p of Array.isArray(r.path) ? r.path : [r.path]) {
      const set = served.get(p) ?? new Set<string>();
      set.add(r.method);
      if (r.method === 'GET') set.add('HEAD');
      served.set(p, set);
    }
  }
  const wrong: string[] = [];
  let checked = 0;
  for (const [path, methods] of served) {
    const url = concrete(path);
    // Another route's pattern may also match the concrete path (`/users/x` and `/users/bulk`): the
    // router's own answer for the path is then the union, and only methods no pattern serves count.
    for (const method of CANDIDATES.filter((m) => !methods.has(m))) {
      const res = await rawRequest(method, url);
      checked++;
      if (res.status === 405) {
        const allow = res.headers.allow?.split(/,\s*/) ?? [];
        for (const m of methods) if (!allow.includes(m)) wrong.push(`${method} ${url}: Allow "${res.headers.allow}" lacks ${m}`);
        if (allow.includes(method)) wrong.push(`${method} ${url}: Allow names the refused method`);
        if (!(res.body?.error_code && res.body?.id && res.body?.title && res.body?.message))
          wrong.push(`${method} ${url}: body ${JSON.stringify(res.body)}`);
      } else if (!served.has(path) || res.status >= 500 || ['TRACE', 'OPTIONS', 'PURGE', 'PROPFIND'].includes(method)) {
        wrong.push(`${method} ${url} -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(300);
  expect(wrong).toEqual([]);
}, 120_000);

it('answers 404 with the error body on an unknown path, whatever the method', async () => {
  for (const method of [...CANDIDATES, 'HEAD']) {
    const res = await rawRequest(method, '/v2/no/such/endpoint');
    expect({ method, status: res.status }).toEqual({ method, status: 404 });
    if (method !== 'HEAD') expect(res.body).toEqual(expect.objectContaining({ error_code: 'NOT_FOUND', id: expect.any(String) }));
  }
});

it('never answers CONNECT or a malformed method with a 500', async () => {
  for (const method of ['CONNECT', 'FOO', 'F@@', 'get']) {
    const res = await rawRequest(method, `/v2/projects/${t.proj}`);
    expect({ method, server_error: res.status >= 500 }).toEqual({ method, server_error: false });
  }
});
