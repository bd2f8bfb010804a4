import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postEvent } from '../../src/areas/webhooks/dispatcher';
import type { DueDelivery } from '../../src/areas/webhooks/store';
import pino from 'pino';
import { bootService } from '../../src/boot';
import { loadConfig } from '../../src/config';
import { BlockedNetworks } from '../../src/util/networks';
import { runCypher, startTestService, type TestService } from '../support/testService';
import { buildWorld, type Client, expectError, login, ok, request, type World } from './approvals-support';

/**
 * Webhooks (docs/behaviour.md section 11) against a real HTTP receiver on loopback that fails its first
 * attempts: events come from a durable outbox, signed, retried with backoff, in order per request,
 * and a transition never waits for the receiver.
 */
process.env.WEBHOOK_POLL_MS = '100';
process.env.WEBHOOK_RETRY_BASE_MS = '100';

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}
class Receiver {
  hits: Hit[] = [];
  /** Answer 500 to this many more requests (then 204). */
  failNext = 0;
  server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const status = this.failNext > 0 ? 500 : 204;
        if (status === 500) this.failNext--;
        this.hits.push({ headers: req.headers, body, status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  /** Events accepted (2xx) for `requestId`, in arrival order. */
  delivered(requestId: string) {
    return this.hits
      .filter((h) => h.status === 204)
      .map((h) => JSON.parse(h.body))
      .filter((e) => e.data.id === requestId);
  }
  async waitFor(requestId: string, count: number, ms = 20_000) {
    const until = Date.now() + ms;
    while (this.delivered(requestId).length < count) {
      if (Date.now() > until) throw new Error(`only ${this.delivered(requestId).length} of ${count} events for ${requestId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.delivered(requestId);
  }
}

let w: World;
let receiver: Receiver;
let secret: string;
let alice: Client;
let bob: Client;
let accessBase: string;
let accessConfig: string;

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  w = await buildWorld();
  const cfgPath = `/v2/elements/${w.t.proj}/${w.t.env}/config`;
  // The approvals config of the world gets a webhook by PATCH; the access request config at creation.
  await ok(w.t, 'PATCH', `${cfgPath}/ops`, { webhook: { url: receiver.url, bearer_token: 'tok-ops' } });
  await ok(w.t, 'POST', `${w.schema}/roles`, { key: 'viewer', name: 'Viewer', permissions: ['doc:read'] });
  const created = await ok(w.t, 'POST', cfgPath, {
    key: 'access',
    name: 'Access',
    elements_type: 'access_request',
    roles_to_levels: { LEVEL_1: ['approver'] },
    webhook: { url: receiver.url },
  });
  expect(created.webhook).toEqual({ url: receiver.url });
  expect(created.webhook_secret).toMatch(/^whsec_/);
  secret = created.webhook_secret;
  accessConfig = created.id;
  accessBase = `${cfgPath}/${created.id}/access_requests`;
  [alice, bob] = await Promise.all([login(w, 'alice'), login(w, 'bob')]);
}, 120_000);
afterAll(async () => {
  await w?.t.close();
  receiver?.server.close();
});

const verify = (h: Hit, key: string) =>
  expect(h.headers['x-authz-signature']).toBe(`sha256=${createHmac('sha256', key).update(h.body).digest('hex')}`);

describe('webhooks', () => {
  it('delivers access request events signed, in order, retrying a failing receiver with backoff', async () => {
    receiver.failNext = 3;
    const h = { element_id: accessConfig };
    const r = (await alice.call('POST', accessBase, { access_request_details: { tenant: 'acme', role: 'viewer' }, reason: 'please' }, h))
      .body;
    // The transition answers while the receiver still fails: delivery never blocks it.
    const approved = await bob.call('PUT', `${accessBase}/${r.id}/approve`, { reviewer_comment: 'ok' }, h);
    expect(approved.status).toBe(200);
    const events = await receiver.waitFor(r.id, 2);
    expect(events.map((e) => e.event)).toEqual(['created', 'approved']);
    expect(events[0]).toMatchObject({ type: 'access_request', data: { ...r } });
    expect(events[1]).toMatchObject({ type: 'access_request', data: approved.body });
    const attempts = receiver.hits.filter((x) => JSON.parse(x.body).data.id === r.id);
    expect(attempts.filter((x) => x.status === 500).length).toBe(3);
    // Every attempt of one event is the same delivery, byte for byte, and correctly signed.
    const firstId = events[0].id;
    const tries = attempts.filter((x) => JSON.parse(x.body).id === firstId);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tries.map((x) => x.body)).size).toBe(1);
    for (const x of attempts) {
      verify(x, secret);
      expect(x.headers['content-type']).toBe('application/json');
      expect(x.headers.authorization).toBeUndefined();
    }
    expect(() => verify({ ...attempts[0], body: `${attempts[0].body} ` }, secret)).toThrow();
  });

  it("shows a config's delivery status: an event whose stored URL is refused stays pending, failing as blocked", async () => {
    const cfgPath = `/v2/elements/${w.t.proj}/${w.t.env}/config`;
    const legacy = await ok(w.t, 'POST', cfgPath, {
      key: 'legacy-status',
      name: 'Legacy',
      elements_type: 'access_request',
      roles_to_levels: { LEVEL_1: ['approver'] },
      webhook: { url: receiver.url },
    });
    // As an earlier version could store it: a URL now refused (the metadata address, blocked by
    // default in every service, whatever WEBHOOK_ALLOWED_NETWORKS says).
    await runCypher(w.t, 'MATCH (c:ElementsConfig {id: $id}) SET c.webhook_url = $url', {
      id: legacy.id,
      url: 'http://169.254.169.254/hooks',
    });
    const h = { element_id: legacy.id };
    const r = (
      await alice.call(
        'POST',
        `${cfgPath}/${legacy.id}/access_requests`,
        { access_request_details: { tenant: 'acme', role: 'viewer' }, reason: 'status' },
        h,
      )
    ).body;
    const status = `${cfgPath}/legacy-status/webhook_deliveries`;
    let page: any;
    for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((ok) => setTimeout(ok, 100))) {
      page = await ok(w.t, 'GET', status);
      if (page.data[0]?.attempts >= 2) break;
    }
    expect(page).toMatchObject({ total_count: 1, page_count: 1 });
    expect(page.data).toEqual([
      expect.objectContaining({
        request_id: r.id,
        event: 'created',
        status: 'pending',
        last_error: 'blocked: 169.254.169.254 is in a blocked network',
        next_attempt_at: expect.any(String),
        give_up_at: expect.any(String),
        created_at: expect.any(String),
      }),
    ]);
    expect(page.data[0].attempts).toBeGreaterThanOrEqual(2); // retried, still held
    expect(receiver.hits.filter((x) => JSON.parse(x.body).data.id === r.id)).toEqual([]);
    // An environment key reads it too; `status` narrows; another config's events are not in it.
    expect((await w.t.call('GET', `${status}?status=dead`, undefined, { key: w.t.envKey })).body).toEqual({
      data: [],
      total_count: 0,
      page_count: 0,
    });
    expect((await ok(w.t, 'GET', `${cfgPath}/${accessConfig}/webhook_deliveries`)).data.map((d: any) => d.request_id)).not.toContain(r.id);
    expectError(await w.t.call('GET', `${cfgPath}/no-such-config/webhook_deliveries`), 404, 'NOT_FOUND');
    expectError(await w.t.call('GET', `${status}?status=sent`), 422, 'INVALID_INPUT');
  }, 60_000);

  it('announces operation approval events with the bearer token; denied and canceled too', async () => {
    const a = (await alice.call('POST', '', request())).body;
    const b = (await alice.call('POST', '', request('file'))).body;
    await bob.call('PUT', `/${a.id}/deny`, {});
    await alice.call('PUT', `/${b.id}/cancel`, { reason: 'no' });
    expect((await receiver.waitFor(a.id, 2)).map((e) => e.event)).toEqual(['created', 'denied']);
    expect((await receiver.waitFor(b.id, 2)).map((e) => e.event)).toEqual(['created', 'canceled']);
    const hit = receiver.hits.find((x) => JSON.parse(x.body).data.id === a.id)!;
    expect(hit.headers.authorization).toBe('Bearer tok-ops');
    expect(JSON.parse(hit.body).type).toBe('operation_approval');
  });

  it('loses nothing across a restart: events written while the receiver fails arrive from the next process', async () => {
    receiver.failNext = 1_000_000;
    const h = { element_id: accessConfig };
    const r = (await alice.call('POST', accessBase, { access_request_details: { tenant: 'acme', role: 'viewer' }, reason: 'later' }, h))
      .body;
    await bob.call('PUT', `${accessBase}/${r.id}/deny`, {}, h);
    await new Promise((res) => setTimeout(res, 300));
    await w.t.close();
    receiver.failNext = 0;
    let next: TestService | undefined;
    try {
      next = await startTestService();
      const events = await receiver.waitFor(r.id, 2, 30_000);
      expect(events.map((e) => e.event)).toEqual(['created', 'denied']);
    } finally {
      await next?.close();
      w = undefined as unknown as World;
    }
  }, 90_000);
});

describe('webhook destinations (WEBHOOK_BLOCKED_NETWORKS)', () => {
  it('refuses a URL naming a blocked address, however it is written', async () => {
    const b = await buildWorld({ env: { WEBHOOK_BLOCKED_NETWORKS: '127.0.0.0/8,::1/128' } });
    try {
      const cfgPath = `/v2/elements/${b.t.proj}/${b.t.env}/config`;
      const port = new URL(receiver.url).port;
      for (const url of [
        receiver.url,
        `http://[::1]:${port}/hooks`,
        `http://[::ffff:127.0.0.1]:${port}/hooks`,
        `http://2130706433:${port}/hooks`,
      ]) {
        expectError(await b.t.call('PATCH', `${cfgPath}/ops`, { webhook: { url } }), 422, 'INVALID_INPUT');
      }
      // A host name is decided when it resolves, at each delivery (below).
      expect((await b.t.call('PATCH', `${cfgPath}/ops`, { webhook: { url: `http://localhost:${port}/hooks` } })).status).toBe(200);
    } finally {
      await b.t.close();
    }
  });

  // The delivery itself, not through a dispatcher: every service of the test run (other test
  // files, other settings) shares the outbox of one Neo4j and may claim any environment's event.
  it('sends nothing to a name that resolves into a blocked network; the same delivery goes out when it is not blocked', async () => {
    const port = new URL(receiver.url).port;
    const delivery = (id: string): DueDelivery => ({
      id,
      env: 'e',
      event: 'created',
      body: JSON.stringify({ data: { id } }),
      attempts: 0,
      give_up_at: '2999-01-01T00:00:00Z',
      url: `http://localhost:${port}/hooks`,
      bearer_token: null,
      secret: 'whsec_test',
    });
    const blocked = await postEvent(delivery('blocked-1'), BlockedNetworks.parse('127.0.0.0/8,::1/128'));
    expect(blocked).toMatch(/^blocked: localhost resolves to (127\.0\.0\.1|::1), in a blocked network$/);
    expect(receiver.hits.filter((h) => h.body.includes('blocked-1'))).toEqual([]);
    expect(await postEvent(delivery('allowed-1'), BlockedNetworks.parse('169.254.0.0/16'))).toBeUndefined();
    expect(receiver.hits.filter((h) => h.body.includes('allowed-1'))).toHaveLength(1);
  });
});

describe('webhook configuration', () => {
  let t: TestService;
  beforeAll(async () => (t = await startTestService()));
  afterAll(async () => t?.close());

  it('refuses a webhook URL that is not http(s) with 422, and never shows the secret again', async () => {
    const cfg = `/v2/elements/${t.proj}/${t.env}/config`;
    const body = (url: string) => ({ key: 'k', name: 'n', elements_type: 'access_request', roles_to_levels: {}, webhook: { url } });
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'example.com/hook', '', 'http://']) {
      expectError(await t.call('POST', cfg, body(url)), 422, 'INVALID_INPUT');
    }
    expectError(await t.call('POST', cfg, { ...body('https://example.com'), webhook: { bearer_token: 'x' } }), 422, 'INVALID_INPUT');
    expect((await t.call('GET', cfg)).body.total_count).toBe(0);
    const made = await t.ok('POST', cfg, body('https://example.com/hook'));
    expect(made.webhook_secret).toEqual(expect.any(String));
    const got = await t.ok('GET', `${cfg}/k`);
    expect(got).not.toHaveProperty('webhook_secret');
    expect(JSON.stringify(got)).not.toContain(made.webhook_secret);
    expectError(await t.call('PATCH', `${cfg}/k`, { webhook: { url: 'file:///etc/passwd' } }), 422, 'INVALID_INPUT');
    // By default the cloud metadata endpoints are out of reach.
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/latest']) {
      expectError(await t.call('PATCH', `${cfg}/k`, { webhook: { url } }), 422, 'INVALID_INPUT');
    }
    const removed = await t.ok('PATCH', `${cfg}/k`, { webhook: null });
    expect(removed).toMatchObject({ webhook: null });
    expect(removed).not.toHaveProperty('webhook_secret');
  });
});

describe('webhook destinations by default (docs/behaviour.md section 15)', () => {
  const delivery = (url: string): DueDelivery => ({
    id: `d-${randomUUID()}`,
    env: 'e',
    event: 'created',
    body: '{}',
    attempts: 0,
    give_up_at: '2999-01-01T00:00:00Z',
    url,
    bearer_token: null,
    secret: 'whsec_test',
  });

  it('refuses internal and special addresses unless WEBHOOK_ALLOWED_NETWORKS lists them', async () => {
    // The test run allows loopback (test/support/globalSetup.ts); this service has the defaults.
    const t = await startTestService({ env: { WEBHOOK_ALLOWED_NETWORKS: '' } });
    try {
      const cfg = `/v2/elements/${t.proj}/${t.env}/config`;
      const port = new URL(receiver.url).port;
      await t.ok('POST', cfg, { key: 'k', name: 'n', elements_type: 'access_request', roles_to_levels: {} });
      const refused = [
        receiver.url,
        `http://[::1]:${port}/hooks`,
        'http://10.0.0.5/hook',
        'http://172.16.1.1/hook',
        'http://192.168.1.10/hook',
        'http://100.64.0.1/hook',
        'http://[fc00::1]/hook',
        'http://[64:ff9b::a9fe:a9fe]/hook',
        'http://[::ffff:10.0.0.5]/hook',
        'http://[::10.0.0.5]/hook',
        'http://224.0.0.1/hook',
        'http://169.254.169.254/latest',
        'http://100.100.100.200/latest',
      ];
      for (const url of refused) {
        const res = await t.call('PATCH', `${cfg}/k`, { webhook: { url } });
        expect({ url, status: res.status, code: res.body.error_code }).toEqual({ url, status: 422, code: 'INVALID_INPUT' });
      }
      expect((await t.call('PATCH', `${cfg}/k`, { webhook: { url: 'https://93.184.216.34/hook' } })).status).toBe(200);
      // A name resolving to loopback fails the delivery as "blocked"; nothing reaches the receiver.
      const before = receiver.hits.length;
      expect(await postEvent(delivery(`http://localhost:${port}/hooks`), loadConfig({}).webhookBlockedNetworks)).toMatch(
        /^blocked: localhost resolves to/,
      );
      expect(receiver.hits.length).toBe(before);
      // Listed in WEBHOOK_ALLOWED_NETWORKS, the same receiver is reached.
      expect(
        await postEvent(delivery(receiver.url), loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }).webhookBlockedNetworks),
      ).toBeUndefined();
    } finally {
      await t.close();
    }
  }, 60_000);

  it('names at start-up each stored config whose URL is now refused, whose events then fail as blocked', async () => {
    const t = await startTestService();
    try {
      const cfg = `/v2/elements/${t.proj}/${t.env}/config`;
      await t.ok('POST', cfg, {
        key: 'legacy',
        name: 'Legacy',
        elements_type: 'access_request',
        roles_to_levels: {},
        webhook: { url: receiver.url },
      });
      const envId = (await t.ok('GET', `/v2/projects/${t.proj}/envs/${t.env}`)).id as string;
      // The same graph, started with the defaults (as after the upgrade): its dispatcher idles.
      const lines: { config?: string; env?: string; msg: string }[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const config = loadConfig({
        ...process.env,
        WEBHOOK_ALLOWED_NETWORKS: '',
        WEBHOOK_POLL_MS: '600000',
        ADMIN_API_KEY: `test_admin_${randomUUID()}`,
      });
      const upgraded = await bootService(config, log, {
        uri: process.env.NEO4J_URI!,
        user: process.env.NEO4J_USER ?? 'neo4j',
        password: process.env.NEO4J_PASSWORD ?? 'neo4j',
      });
      try {
        const named = lines.filter((l) => l.env === envId);
        expect(named).toEqual([expect.objectContaining({ config: 'legacy', msg: expect.stringMatching(/refused.*"blocked"/) })]);
      } finally {
        await upgraded.stop();
      }
      expect(await postEvent(delivery(receiver.url), config.webhookBlockedNetworks)).toMatch(
        /^blocked: 127\.0\.0\.1 is in a blocked network$/,
      );
    } finally {
      await t.close();
    }
  }, 90_000);
});
