import { connect } from 'node:net';
import type { RouteDef } from '../../src/http/routeTable';
import { startTestService, type TestService } from '../support/testService';

/**
 * No input answers 500: every route of every table gets odd parameters and bodies of the wrong
 * shape, with the admin key and with an environment key; every answer must be an error body of docs/behaviour.md section 1
 * or a success, never UNEXPECTED_ERROR.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
  await t.ok('POST', `/v2/schema/${t.proj}/${t.env}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `/v2/facts/${t.proj}/${t.env}/users`, { key: 'u' });
  await t.ok('POST', `/v2/schema/${t.proj}/${t.env}/groups`, { group_instance_key: 'g', group_tenant: 'default' });
});
afterAll(async () => t?.close());

const ODD_PARAMS = ['doc', 'no:such:thing', `q'"\`{}$x`, ' ', 'ünï😀', '../..', 'g'];
const BODIES: unknown[] = [
  undefined,
  {},
  [],
  'text',
  42,
  null,
  { key: {} },
  { key: 'k', name: ['x'], tenant: 5 },
  [{ user: 1 }],
  { operations: 'x' },
  { resource: { type: {} } },
  Array.from({ length: 3 }, () => ({})),
];

/**
 * The odd parameters a route's paths get: the first (a key that exists) always, and half of the
 * others, alternating from route to route, so that each odd parameter still meets half of the
 * routes (the CI time).
 */
const oddFor = (route: number) => ODD_PARAMS.map((odd, i) => ({ odd, i })).filter(({ i }) => i === 0 || (i + route) % 2 === 0);

function pathsOf(route: RouteDef, n: number): { path: string; odd: number }[] {
  const paths = Array.isArray(route.path) ? route.path : [route.path];
  return paths.flatMap((p) =>
    oddFor(n).map(({ odd, i }) => ({
      path: p.replace(/:([a-z_]+)/g, (_m, name: string) =>
        name === 'proj_id' ? t.proj : name === 'env_id' ? t.env : encodeURIComponent(odd),
      ),
      odd: i,
    })),
  );
}

/**
 * The bodies sent with the i-th odd parameter: all of them with the first (a key that exists, so
 * the body reaches the deepest code), a third of them with each other one, in turn, so that
 * every body meets several odd parameters (pairs, not the whole product: the CI time).
 */
const bodiesFor = (odd: number) => (odd === 0 ? BODIES : BODIES.filter((_, j) => (j + odd) % 3 === 0));

it('answers every route with odd params and bodies without a 500', async () => {
  const routes = t.service.app.routes.filter((r) => !(r.method === 'DELETE' && /projects|envs/.test(String(r.path))));
  const failures: string[] = [];
  let requests = 0;
  const sweep = async (route: RouteDef, n: number) => {
    for (const { path, odd } of [
      ...pathsOf(route, n),
      ...(route.method === 'GET'
        ? pathsOf(route, n)
            .slice(0, 1)
            .map((p) => ({ ...p, path: `${p.path}?page=1e300&per_page=100` }))
        : []),
    ]) {
      const bodies = route.method === 'GET' ? [undefined] : bodiesFor(odd);
      await Promise.all(
        bodies.flatMap((body) =>
          [undefined, t.envKey].map(async (key) => {
            const raw = body === undefined ? undefined : JSON.stringify(body);
            const res = await t.call(route.method, path, undefined, {
              key,
              raw,
              headers: { element_id: 'x', cookie: 'authz_session=nope', page: '1e300', per_page: '1000' },
            });
            requests++;
            if (res.status >= 500) failures.push(`${route.method} ${path} ${raw ?? ''} -> ${res.status} ${JSON.stringify(res.body)}`);
          }),
        ),
      );
    }
  };
  // Four routes at a time (each sends its bodies with and without a key at once): the requests of
  // one route also meet those of others, as on a running service.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < routes.length) {
        const n = next++;
        await sweep(routes[n], n);
      }
    }),
  );
  expect(requests).toBeGreaterThan(1000);
  expect(failures).toEqual([]);
}, 300_000);

it('answers concurrent deletes and syncs of one user without a 500 (a record deleted while another request reads it)', async () => {
  const user = `/v2/facts/${t.proj}/${t.env}/users/${encodeURIComponent('ünï😀-race')}`;
  const statuses = new Map<number, number>();
  for (let round = 0; round < 8; round++) {
    await t.call('PUT', user, {});
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? t.call('PUT', user, { email: 'x@example.com' }) : t.call('DELETE', user))),
    );
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  }
  expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
  expect(statuses.get(204)).toBeGreaterThan(0);
}, 120_000);

/**
 * The same race for the schema's records: a PATCH reads the record, a concurrent DELETE commits,
 * and the PATCH's own write then matches nothing. It answers 404, never a 500 (measured before
 * the fix: about a quarter of these requests answered 500).
 */
it.each([
  ['resource', () => `/v2/schema/${t.proj}/${t.env}/resources`, { key: 'race', name: 'R', actions: { read: {} } }, 'race'],
  // Under a resource of its own: the sweep above may have deleted `doc`.
  ['resource role', () => `/v2/schema/${t.proj}/${t.env}/resources/race_roles/roles`, { key: 'race', name: 'R' }, 'race'],
])(
  'answers concurrent updates, reads and deletes of one %s without a 500',
  async (_kind, collection, body, key) => {
    expect(
      (await t.call('POST', `/v2/schema/${t.proj}/${t.env}/resources`, { key: 'race_roles', name: 'R', actions: { read: {} } })).status,
    ).toBeLessThan(500);
    const statuses = new Map<number, number>();
    for (let round = 0; round < 6; round++) {
      await t.call('POST', collection(), body);
      const one = `${collection()}/${key}`;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          [() => t.call('PATCH', one, { name: `R${i}` }), () => t.call('GET', one), () => t.call('DELETE', one)][i % 3](),
        ),
      );
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    }
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(statuses.get(204)).toBeGreaterThan(0);
    expect(statuses.get(404)).toBeGreaterThan(0);
  },
  120_000,
);

it('answers authorized_users for users keyed like Object members (constructor, __proto__, toString)', async () => {
  const facts = `/v2/facts/${t.proj}/${t.env}`;
  // A resource of its own: the tests above delete `doc`.
  await t.ok('POST', `/v2/schema/${t.proj}/${t.env}/resources`, { key: 'protodoc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `/v2/schema/${t.proj}/${t.env}/roles`, { key: 'proto_reader', name: 'Reader', permissions: ['protodoc:read'] });
  const odd = ['constructor', '__proto__', 'toString'];
  for (const key of odd) {
    await t.ok('POST', `${facts}/users`, { key });
    await t.ok('POST', `${facts}/role_assignments`, { user: key, role: 'proto_reader', tenant: 'default' });
  }
  const res = await t.call('POST', `/v2/allowed/${t.proj}/${t.env}/authorized_users`, {
    action: 'read',
    resource: { type: 'protodoc', tenant: 'default' },
  });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.users).sort()).toEqual([...odd].sort());
  expect(res.body.users.constructor).toEqual([expect.objectContaining({ user: 'constructor', role: 'proto_reader' })]);
});

/** Sends raw bytes on a new connection; answers everything the server wrote before it closed. */
function raw(bytes: string): Promise<string> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    let got = '';
    socket.on('data', (c) => (got += c));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

it('answers a request that is not readable HTTP with the error body of docs/behaviour.md section 1, not a bare status line', async () => {
  const cases: [string, number][] = [
    ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n', 400],
    ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Odd: a\u0000b\r\n\r\n', 400],
    ['NOT A REQUEST\r\n\r\n', 400],
    [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['POST /v2/projects HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
  ];
  for (const [request, status] of cases) {
    const answer = await raw(request);
    const [head, body] = answer.split('\r\n\r\n');
    expect({ request: request.slice(0, 60), status: head.split('\r\n')[0] }).toEqual({
      request: request.slice(0, 60),
      status: expect.stringMatching(new RegExp(`^HTTP/1.1 ${status} `)),
    });
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({
      id: expect.any(String),
      error_code: 'INVALID_INPUT',
      title: 'Invalid input',
      message: expect.any(String),
    });
  }
  // The server still answers afterwards.
  expect((await t.call('GET', '/healthz')).status).toBe(200);
});
