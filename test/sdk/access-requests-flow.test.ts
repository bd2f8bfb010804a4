import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../support/testService';
import { type AccessRequests, type Approvals, AuthzClient, ConflictError, ValidationError } from './sdk';

/**
 * docs/behaviour.md section 11 end to end through the client library: access requests (another role
 * granted by the reviewer), time-bound approvals (`accessDurationSeconds`), and the webhook
 * events the flows send to a receiver on loopback.
 */
process.env.WEBHOOK_POLL_MS = '100';
process.env.WEBHOOK_RETRY_BASE_MS = '100';

let t: TestService;
let authz: AuthzClient;
let alice: AccessRequests;
let bob: AccessRequests;
let aliceOps: Approvals;
let bobOps: Approvals;
let secret: string;
let receiver: Server;
const received: { body: string; signature: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['x-authz-signature']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t = await startTestService();
  authz = new AuthzClient({ baseUrl: t.url, token: t.envKey });
  await authz.api.resources.create({ key: 'wiki', name: 'Wiki', actions: { read: {}, write: {} } });
  await authz.api.roles.create({ key: 'approver', name: 'Approver', permissions: [] });
  await authz.api.roles.create({ key: 'editor', name: 'Editor', permissions: ['wiki:read', 'wiki:write'] });
  await authz.api.roles.create({ key: 'viewer', name: 'Viewer', permissions: ['wiki:read'] });
  await authz.api.tenants.create({ key: 'acme', name: 'Acme' });
  for (const key of ['alice', 'bob']) await authz.api.tenants.addTenantUser('acme', { key });
  await authz.api.roleAssignments.assign({ user: 'bob', role: 'approver', tenant: 'acme' });
  const config = await authz.elements.configs.create({
    key: 'access',
    name: 'Access',
    elements_type: 'access_request',
    roles_to_levels: { LEVEL_1: ['approver'] },
    webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
  });
  secret = config.webhook_secret!;
  const ops = await authz.elements.configs.create({
    key: 'ops',
    name: 'Ops',
    elements_type: 'operation_approval',
    settings: { resources: ['wiki'] },
    roles_to_levels: { LEVEL_1: ['approver'] },
  });
  const [a, b] = await Promise.all([
    authz.elements.loginAs({ userId: 'alice', tenant: 'acme' }),
    authz.elements.loginAs({ userId: 'bob', tenant: 'acme' }),
  ]);
  alice = authz.accessRequests(a, config.id);
  bob = authz.accessRequests(b.cookie, config.id);
  aliceOps = authz.approvals(a, ops.id);
  bobOps = authz.approvals(b, ops.id);
});
afterAll(async () => {
  await t?.close();
  receiver?.close();
});

describe('access requests through the client library', () => {
  it('requests a role; the reviewer grants another one for a day; the requester may then act', async () => {
    const r = await alice.create({ access_request_details: { tenant: 'acme', role: 'editor' }, reason: 'docs sprint' });
    expect(r).toMatchObject({
      type: 'access_request',
      status: 'pending',
      requesting_user_id: 'alice',
      access_request_details: { role: 'editor' },
    });
    expect(await authz.check('alice', 'read', { type: 'wiki', tenant: 'acme' })).toBe(false);
    const pending = [];
    for await (const x of bob.all({ status: 'pending' })) pending.push(x.id);
    expect(pending).toEqual([r.id]);

    const approved = await bob.approve(r.id, { role: 'viewer', access_duration_seconds: 86_400, reviewer_comment: 'read is enough' });
    expect(approved).toMatchObject({ status: 'approved', granted_role: 'viewer', reviewer_user_id: 'bob' });
    expect(Date.parse(approved.access_expires_at!) - Date.parse(approved.reviewed_at!)).toBeCloseTo(86_400_000, -4);
    expect(await authz.check('alice', 'read', { type: 'wiki', tenant: 'acme' })).toBe(true);
    expect(await authz.check('alice', 'write', { type: 'wiki', tenant: 'acme' })).toBe(false);
    expect(await alice.get(r.id)).toEqual(approved);
    await expect(bob.deny(r.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('denies, cancels and refuses a bad duration with the typed errors', async () => {
    const d = await alice.create({ access_request_details: { tenant: 'acme', role: 'editor' }, reason: 'again' });
    expect(await bob.deny(d.id, 'no')).toMatchObject({ status: 'denied', reviewer_comment: 'no' });
    const c = await alice.create({ access_request_details: { tenant: 'acme', role: 'editor' }, reason: 'oops' });
    await expect(bob.approve(c.id, { access_duration_seconds: 59 })).rejects.toBeInstanceOf(ValidationError);
    expect(await alice.cancel(c.id)).toMatchObject({ status: 'canceled', reason: 'oops' });
    expect((await bob.list({ status: 'canceled' })).data.map((x) => x.id)).toEqual([c.id]);
  });

  it('sends each event to the webhook, signed with the secret from the config creation', async () => {
    const r = await alice.create({ access_request_details: { tenant: 'acme', role: 'viewer' }, reason: 'hook' });
    await bob.approve(r.id);
    const until = Date.now() + 20_000;
    const mine = () => received.map((x) => ({ ...x, event: JSON.parse(x.body) })).filter((x) => x.event.data.id === r.id);
    while (mine().length < 2 && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
    expect(mine().map((x) => x.event.event)).toEqual(['created', 'approved']);
    for (const x of mine()) expect(x.signature).toBe(`sha256=${createHmac('sha256', secret).update(x.body).digest('hex')}`);
  });
});

describe('time-bound operation approvals through the client library', () => {
  it('approves with accessDurationSeconds and answers access_expires_at', async () => {
    const a = await aliceOps.create({ access_request_details: { tenant: 'acme', resource: 'wiki' }, reason: 'deploy' });
    await expect(bobOps.approve(a.id, undefined, { accessDurationSeconds: 31_536_001 })).rejects.toBeInstanceOf(ValidationError);
    const approved = await bobOps.approve(a.id, 'one hour', { accessDurationSeconds: 3600 });
    expect(approved).toMatchObject({ status: 'approved', reviewer_comment: 'one hour', access_expires_at: expect.any(String) });
    expect(Date.parse(approved.access_expires_at!) - Date.parse(approved.reviewed_at!)).toBeCloseTo(3_600_000, -4);
    expect(await authz.check('alice', 'operate', { type: 'wiki', key: a.access_request_details.resource_instance, tenant: 'acme' })).toBe(
      true,
    );
  });
});
