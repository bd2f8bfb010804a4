import { startTestService, type TestService } from '../support/testService';

/**
 * The coherence window on one Neo4j (docs/consistency.md): a batch of checks read from the graph
 * reads its environment's revision in the same query, and that read keeps the environment fresh.
 * While checks keep going to the graph, the replica sends no revision reads of its own (each was a
 * Neo4j transaction beside every check batch), and its answers still follow a revoke at once.
 */
let t: TestService;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const allowed = () => `/v2/allowed/${t.proj}/${t.env}`;

/** The largest window the settings take (1 s): its own revision reads would come every 500 ms while questions come. */
const WINDOW_MS = 1000;
/** How long the checks go on: a replica reading revisions for itself would send about six reads. */
const CHECKING_MS = 3000;

beforeAll(async () => {
  // No background reads that count as `latest` transactions: the gauges' refresh, the revision
  // poll of minimize_latency and the webhook dispatcher are slowed past the test.
  t = await startTestService({
    env: {
      COHERENCE_WINDOW_MS: String(WINDOW_MS),
      METRICS_REFRESH_MS: '15000',
      REVISION_POLL_MS: '600000',
      WEBHOOK_POLL_MS: '600000',
    },
  });
  await t.ok('POST', `${schema()}/resources`, { key: 'doc', name: 'Doc', actions: { read: {} } });
  await t.ok('POST', `${schema()}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  for (const key of ['ann', 'bob']) await t.ok('POST', `${facts()}/users`, { key });
  await t.ok('POST', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default' });
});
afterAll(async () => t?.close());

/** The count of Neo4j transactions of each mode (`authz_neo4j_transaction_duration_seconds_count`). */
async function transactions(): Promise<Record<string, number>> {
  const res = await t.call('GET', '/metrics');
  const out: Record<string, number> = {};
  for (const m of String(res.body).matchAll(/^authz_neo4j_transaction_duration_seconds_count\{mode="(\w+)"\} (\d+)$/gm)) {
    out[m[1]] = Number(m[2]);
  }
  return out;
}

test('checks read from the graph keep their environment fresh: no revision reads of its own while they go on', async () => {
  // Warm: the key row is kept and the environment known.
  await t.ok('POST', allowed(), { user: 'ann', action: 'read', resource: { type: 'doc' }, consistency: 'fully_consistent' });
  // Up to three windows of checks: a service started on a cold, busy Neo4j (its first seconds in
  // CI, beside other suites) may read for itself in the first one; a replica whose checks did not
  // keep it fresh reads in every window (about six reads each).
  const windows: { asked: number; graphReads: number; latest: number }[] = [];
  for (let w = 0; w < 3 && !windows.some((x) => x.latest <= 3); w++) {
    const before = await transactions();
    const started = Date.now();
    let asked = 0;
    while (Date.now() - started < CHECKING_MS) {
      const user = asked % 2 ? 'bob' : 'ann';
      const r = await t.ok('POST', allowed(), { user, action: 'read', resource: { type: 'doc' }, consistency: 'fully_consistent' });
      expect(r.allow).toBe(user === 'ann');
      asked++;
      await new Promise((ok) => setTimeout(ok, 40));
    }
    const after = await transactions();
    windows.push({ asked, graphReads: (after.read ?? 0) - (before.read ?? 0), latest: (after.latest ?? 0) - (before.latest ?? 0) });
  }
  const best = windows.reduce((a, b) => (b.latest < a.latest ? b : a));
  expect(best.asked).toBeGreaterThan(10);
  // Every check went to the graph (fully_consistent: never the decision cache) ...
  expect(best.graphReads).toBeGreaterThanOrEqual(best.asked);
  // ... and almost no revision read or key lookup was needed beside them: one may come when a
  // check took longer than a quarter-window on a busy box, or from the gauges' refresh (every 15 s).
  expect(best.latest).toBeLessThanOrEqual(3);

  // A revoke is still seen by the next question, at the default consistency (cache) too.
  await t.ok('POST', allowed(), { user: 'ann', action: 'read', resource: { type: 'doc' } });
  await t.ok('DELETE', `${facts()}/role_assignments`, { user: 'ann', role: 'reader', tenant: 'default' });
  const r = await t.ok('POST', allowed(), { user: 'ann', action: 'read', resource: { type: 'doc' } });
  expect(r.allow).toBe(false);
});
