import Koa from 'koa';
import pino from 'pino';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { httpMetrics } from '../../src/http/httpMetrics';
import { Metrics } from '../../src/metrics/metrics';
import { startTestService, type TestService } from '../support/testService';

/**
 * GET /metrics is scraped and read by an independent Prometheus text-format parser (not
 * prom-client's own), and the counters a dashboard relies on move with the traffic.
 */
interface Sample {
  value?: string;
  labels?: Record<string, string>;
  count?: string;
  sum?: string;
  buckets?: Record<string, string>;
}
interface Family {
  name: string;
  type: string;
  help: string;
  metrics: Sample[];
}

let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;

beforeAll(async () => {
  // Background writers (the webhook dispatcher's polls) would blur the counts of write transactions.
  // The revision poll of every environment is slowed too: it would make this service know the
  // environments other test files write to at the same time, and lag behind them by their writes.
  // The gauges read from Neo4j are refreshed in the background: often here, so a test sees them move.
  // No replica heartbeats either (COHERENCE_WINDOW_MS=0): each is a write transaction, one a second,
  // which a slow first check on a cold Neo4j (seconds) would add to the counts of writes below.
  t = await startTestService({
    env: { WEBHOOK_POLL_MS: '600000', REVISION_POLL_MS: '600000', METRICS_REFRESH_MS: '1000', COHERENCE_WINDOW_MS: '0' },
  });
  await t.ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `${schema()}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await t.ok('POST', `${facts()}/users`, { key: 'ann' });
  await t.ok('POST', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default' });
});
afterAll(async () => t?.close());

/** Families by name, as the parser reads the scrape; `_count` series of histograms stay their own (see below). */
type Scrape = Map<string, Family>;

async function scrape(key: string | null = null): Promise<Scrape> {
  const res = await t.call('GET', '/metrics', undefined, { key });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = res.body as string;
  const families = parsePrometheusTextFormat(text) as Family[];
  // The parser folds a histogram's series into one sample without their labels (its limit, it
  // follows prom2json's unlabelled case); read a second time without the histogram TYPE lines,
  // each `<name>_count` line is then a family of its own with its labels (merged here by name).
  const out: Scrape = new Map();
  for (const f of parsePrometheusTextFormat(
    text
      .split('\n')
      .filter((l) => !/^# TYPE \S+ histogram$/.test(l))
      .join('\n'),
  ) as Family[]) {
    const seen = out.get(f.name);
    if (seen) seen.metrics.push(...f.metrics);
    else out.set(f.name, f);
  }
  for (const f of families) out.set(f.name, f);
  return out;
}

/** The value of one series (labels matched on the given ones), 0 when absent; a histogram's: its count. */
function value(m: Scrape, name: string, labels: Record<string, string> = {}): number {
  const fam = m.get(name)?.type === 'HISTOGRAM' ? m.get(`${name}_count`) : m.get(name);
  const s = fam?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return s ? Number(s.value) : 0;
}

it('serves Prometheus text without a key, with conventional names and types', async () => {
  const m = await scrape();
  expect(m.get('authz_decisions_total')?.type).toBe('COUNTER');
  expect(m.get('authz_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  expect(m.get('authz_neo4j_transaction_duration_seconds')?.type).toBe('HISTOGRAM');
  for (const name of [
    'authz_depth_limited_total',
    'authz_decision_cache_hits_total',
    'authz_decision_cache_misses_total',
    'authz_neo4j_errors_total',
    'authz_neo4j_read_retries_total',
  ]) {
    expect(m.get(name)?.type).toBe('COUNTER');
  }
  for (const name of ['authz_sessions_active', 'authz_approvals', 'authz_revision_lag']) expect(m.get(name)?.type).toBe('GAUGE');
  expect(m.get('authz_process_cpu_seconds_total')).toBeDefined();
});

it('counts decisions by result, cache hits and misses, requests by route template', async () => {
  const before = await scrape();
  const ask = { user: 'ann', action: 'read', resource: { type: 'doc', tenant: 'default' } };
  expect((await t.ok('POST', allowed(), ask)).allow).toBe(true);
  expect((await t.ok('POST', allowed(), ask)).allow).toBe(true); // the cache answers at the same revision
  expect((await t.ok('POST', allowed(), { ...ask, user: 'nobody' })).allow).toBe(false);
  expect((await t.ok('POST', `${allowed()}/bulk`, [ask, { ...ask, action: 'write' }])).allow).toEqual([{ allow: true }, { allow: false }]);
  await t.ok('GET', `${facts()}/users/ann`);
  await t.ok('GET', `${facts()}/users/ann`);
  expect((await t.call('GET', `${facts()}/users/nobody`)).status).toBe(404);
  const after = await scrape();

  const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
  expect(delta('authz_decisions_total', { result: 'allow' })).toBe(3);
  expect(delta('authz_decisions_total', { result: 'deny' })).toBe(2);
  expect(delta('authz_decision_cache_hits_total')).toBe(2);
  expect(delta('authz_decision_cache_misses_total')).toBe(3);
  // One series for both users: the route template, not the path.
  const userRoute = '/v2/facts/:proj_id/:env_id/users/:user_id';
  const family = after.get('authz_http_request_duration_seconds_count')!;
  const series = family.metrics.filter((s) => s.labels?.route === userRoute && s.labels?.method === 'GET');
  expect(series.map((s) => s.labels!.status).sort()).toEqual(['200', '404']);
  expect(delta('authz_http_request_duration_seconds', { route: userRoute, method: 'GET', status: '200' })).toBe(2);
  expect(family.metrics.some((s) => s.labels?.route?.includes('ann'))).toBe(false);
  expect(delta('authz_neo4j_transaction_duration_seconds', { mode: 'read' })).toBeGreaterThan(0);
  expect(delta('authz_neo4j_transaction_duration_seconds', { mode: 'write' })).toBe(0);
});

it('counts write transactions, sessions and approvals', async () => {
  const before = await scrape();
  await t.ok('POST', `${facts()}/users`, { key: 'bob' });
  const login = await t.call('POST', '/v2/auth/elements_login_as', { user_id: 'ann', tenant_id: 'default' }, { key: t.envKey });
  expect(login.status).toBe(200);
  const after = await scrape();
  expect(
    value(after, 'authz_neo4j_transaction_duration_seconds', { mode: 'write' }) -
      value(before, 'authz_neo4j_transaction_duration_seconds', { mode: 'write' }),
  ).toBe(2);
  // The session shows within the refresh period (METRICS_REFRESH_MS, 1 s here).
  let later = after;
  for (
    const until = Date.now() + 3000;
    value(later, 'authz_sessions_active') <= value(before, 'authz_sessions_active') && Date.now() < until;
  ) {
    await new Promise((ok) => setTimeout(ok, 100));
    later = await scrape();
  }
  expect(value(later, 'authz_sessions_active') - value(before, 'authz_sessions_active')).toBeGreaterThanOrEqual(1);
  expect(value(later, 'authz_revision_lag')).toBe(0);
  expect(Date.now() / 1000 - value(later, 'authz_metrics_refreshed_timestamp_seconds')).toBeLessThan(15);
});

it('answers a scrape from memory: scrapes run no Cypher (docs/behaviour.md section 15)', async () => {
  const gauges = t.service.parts.metricsGauges;
  gauges?.stop(); // the background refresh is the only reader of the gauges; without it, nothing may read
  await gauges?.settled();
  const reads = jest.spyOn(t.service.db, 'readOnce');
  try {
    for (let i = 0; i < 20; i++) expect(value(await scrape(), 'authz_sessions_active')).toBeGreaterThanOrEqual(1);
    expect(reads).not.toHaveBeenCalled();
    // Values not read for 15 s are shown as unknown (NaN), not as current.
    gauges?.hideStale(Date.now() + 16_000);
    expect(value(await scrape(), 'authz_sessions_active')).toBeNaN();
  } finally {
    reads.mockRestore();
    gauges?.start(1000, pino({ level: 'silent' }));
  }
});

it('counts answers marked depth-limited by the decision endpoints', async () => {
  const metrics = new Metrics({ processMetrics: false });
  const koa = new Koa();
  koa.use(httpMetrics(metrics));
  koa.use(async (ctx) => {
    ctx.body = { allow: false };
    if (ctx.path === '/deep') ctx.set('X-Authz-Depth-Limited', 'true');
  });
  const server = koa.listen(0);
  const port = (server.address() as { port: number }).port;
  for (const p of ['/deep', '/shallow', '/deep']) await (await fetch(`http://127.0.0.1:${port}${p}`)).text();
  server.close();
  const parsed = parsePrometheusTextFormat(await metrics.registry.metrics()) as Family[];
  expect(Number(parsed.find((f) => f.name === 'authz_depth_limited_total')!.metrics[0].value)).toBe(2);
});
