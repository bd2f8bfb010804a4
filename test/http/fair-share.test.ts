import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from '../support/testService';

/**
 * Fair share between environments (docs/behaviour.md section 15): one environment flooding heavy
 * questions is refused with 429 (Retry-After, the error body) past its bound (here: one running,
 * two waiting; a long wait, so a slow machine makes no check time out: timeouts are unit-tested)
 * while another environment's checks and its own heavy question still answer. Small bounds make the flood
 * reach them on a small graph; the benchmark (bench/fairness.mjs) measures the latencies.
 */
let t: TestService;
const envs = ['flood', 'calm'];
const facts = (env: string) => `/v2/facts/${t.proj}/${env}`;
const schema = (env: string) => `/v2/schema/${t.proj}/${env}`;
const allowed = (env: string) => `/v2/allowed/${t.proj}/${env}`;

beforeAll(async () => {
  t = await startTestService({
    env: { HEAVY_QUERIES_IN_FLIGHT: '2', HEAVY_QUERIES_PER_ENV: '1', ADMISSION_WAIT_MS: '30000', ADMISSION_QUEUE_PER_ENV: '2' },
  });
  for (const env of envs) {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
    await t.ok('POST', `${schema(env)}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
    await t.ok('POST', `${schema(env)}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
    await t.ok('POST', `${facts(env)}/users`, { key: 'u' });
    await t.ok('POST', `${facts(env)}/resource_instances/bulk`, {
      operations: Array.from({ length: 40 }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' })),
    });
    await t.ok(
      'POST',
      `${facts(env)}/role_assignments/bulk`,
      Array.from({ length: 40 }, (_, i) => ({ user: 'u', role: 'reader', tenant: 'default', resource_instance: `doc:d${i}` })),
    );
  }
}, 60_000);
afterAll(async () => t?.close());

const check = (env: string, key: string, explain = false) =>
  t.call('POST', `${allowed(env)}${explain ? '?explain=true' : ''}`, { user: 'u', action: 'read', resource: { type: 'doc', key } });

type Answer = { status: number; headers: Map<string, string>; body: Record<string, unknown> };

/**
 * Sends every request at the same moment: one connection each, all opened first, then all
 * written together, so the flood reaches the server at once however busy the machine (a client
 * that opens its connections one by one lets each heavy question finish before the next arrives).
 */
async function atOnce(requests: { path: string; body: unknown }[], onAnswer?: (a: Answer) => void): Promise<Answer[]> {
  const { port } = new URL(t.url);
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect(Number(port), '127.0.0.1', () => resolve(s));
          s.once('error', reject);
        }),
    ),
  );
  const answers = sockets.map(
    (s) =>
      new Promise<Answer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        s.on('data', (c: Buffer) => chunks.push(c));
        s.once('error', reject);
        s.once('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const [head, ...rest] = raw.split('\r\n\r\n');
          const [statusLine, ...lines] = head.split('\r\n');
          const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
          const answer = { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
          onAnswer?.(answer);
          resolve(answer);
        });
      }),
  );
  requests.forEach(({ path, body }, i) => {
    const text = JSON.stringify(body);
    sockets[i].write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.adminKey}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  });
  return Promise.all(answers);
}

it('refuses a flooding environment with 429 past its bound while another environment still answers', async () => {
  const heavy = (i: number) =>
    i % 3 === 0
      ? { path: `${allowed('flood')}?explain=true`, body: { user: 'u', action: 'read', resource: { type: 'doc', key: `d${i % 40}` } } }
      : i % 3 === 1
        ? { path: `${allowed('flood')}/list-objects`, body: { user: 'u', action: 'read', resource_type: 'doc', page_size: 100 } }
        : { path: `${allowed('flood')}/user-permissions`, body: { user: 'u' } };
  // The flooding environment's earlier questions still run: they hold both slots (HEAVY_QUERIES_IN_FLIGHT),
  // however fast this machine answers, so the flood meets a full line (its 2 places) and the rest is refused.
  const floodId = (await t.ok('GET', `/v2/projects/${t.proj}/envs/flood`)).id as string;
  const heavyQueue = t.service.parts.admission.heavy;
  const earlier = [await heavyQueue.acquire(floodId), await heavyQueue.acquire(floodId)];
  let refusedSoFar = 0;
  const flood = atOnce(
    Array.from({ length: 24 }, (_, i) => heavy(i)),
    (a) => {
      // Once the flood past the line is refused, the earlier questions end; the calm environment's waiting one goes first.
      if (a.status === 429 && ++refusedSoFar === 22) for (const done of earlier) done();
    },
  );
  const calm = Promise.all([
    ...Array.from({ length: 10 }, (_, i) => check('calm', `d${i}`)),
    t.call('POST', `${allowed('calm')}/list-objects`, { user: 'u', action: 'read', resource_type: 'doc', page_size: 100 }),
  ]);
  const [flooded, answered] = await Promise.all([flood, calm]);

  expect(answered.map((r) => [r.status, r.body.message])).toEqual(answered.map((r) => [200, r.body.message]));
  expect(answered.slice(0, 10).every((r) => r.body.allow === true)).toBe(true);
  expect(answered[10].body.objects).toHaveLength(40);

  const refused = flooded.filter((r) => r.status === 429);
  expect(refused).toHaveLength(22);
  expect(flooded.filter((r) => r.status === 200)).toHaveLength(2);
  for (const r of refused) {
    expect(r.body).toMatchObject({
      error_code: 'TOO_MANY_REQUESTS',
      title: 'Too many requests',
      id: expect.any(String),
      message: expect.stringMatching(/retry/),
    });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }

  // Counted by environment: the flooding one, not the other.
  const ids = await Promise.all(envs.map(async (env) => (await t.ok('GET', `/v2/projects/${t.proj}/envs/${env}`)).id as string));
  const metrics = await (await fetch(`${t.url}/metrics`)).text();
  const count = (env: string) =>
    metrics
      .split('\n')
      .filter((l) => l.startsWith('authz_admission_refused_total{') && l.includes('queue="heavy"') && l.includes(`env="${env}"`))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  expect(count(ids[0])).toBe(refused.length);
  expect(count(ids[1])).toBe(0);
}, 60_000);

it('admits the flooding environment again once its questions are done', async () => {
  const res = await t.call('POST', `${allowed('flood')}/user-permissions`, { user: 'u' });
  expect(res.status).toBe(200);
  expect((await check('flood', 'd1', true)).body).toMatchObject({ allow: true });
});
