import { startTestService, type TestService } from '../support/testService';

/**
 * Each way an export holds its environment at exactly one revision while writes go on
 * (docs/policy-as-code.md, "Exactly one revision"): read by the walk extension (graphauthz.exportParts,
 * writers held only while Neo4j reads the environment into memory) and, without the extension
 * (WALK=cypher), by the Cypher read inside the writers' lock. A writer creates users (some with an
 * attribute changed later) and deletes some, each write's answer naming its revision; two exports
 * taken meanwhile hold exactly the users of the writes at or before the revision their header and
 * end line name, none after, with their attributes as of that revision. No write fails.
 */
describe.each([
  ['extension', {}],
  ['held', { WALK: 'cypher' }],
] as const)('an export read %s', (read, env) => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { ...env, EXPORT_HOLD_MS: '10000' } });
    await t.call('POST', `/v2/schema/${t.proj}/${t.env}/resources/__user/attributes`, { key: 'level', type: 'number' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('holds every write at or before its revision and none after, while a writer goes on', async () => {
    const users = `/v2/facts/${t.proj}/${t.env}/users`;
    /** Each write's revision and what it did: the user's level after it (null: deleted). */
    const log: { revision: number; key: string; level: number | null }[] = [];
    const failed: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing || n < 20; n++) {
        const key = `u${n % 40}`;
        const known = log.filter((l) => l.key === key).at(-1);
        const exists = known !== undefined && known.level !== null;
        const [method, path, body, level] =
          n % 5 === 4 && exists
            ? (['DELETE', `${users}/${key}`, undefined, null] as const)
            : exists
              ? (['PATCH', `${users}/${key}`, { attributes: { level: n } }, n] as const)
              : (['POST', users, { key, attributes: { level: n } }, n] as const);
        const res = await t.call(method, path, body);
        if (res.status >= 300) failed.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        else log.push({ revision: Number(res.headers.get('x-authz-revision')), key, level });
      }
    })();
    const exports: { revision: number; users: Map<string, unknown> }[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        await new Promise((r) => setTimeout(r, 250));
        const res = await fetch(`${t.url}/v2/export/${t.proj}/${t.env}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
        const lines = (await res.text())
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(res.status).toBe(200);
        expect(lines[0]).toMatchObject({ type: 'header', read });
        expect(lines.at(-1)).toMatchObject({
          type: 'end',
          revision: lines[0].revision,
          nodes: lines.length - 2 - lines.filter((l) => l.type === 'relationship').length,
        });
        const held = lines.filter((l) => l.type === 'node' && l.kind === 'user');
        exports.push({
          revision: lines[0].revision,
          users: new Map(held.map((u) => [u.props.key, JSON.parse(u.props.attributes_json ?? '{}').level])),
        });
      }
    } finally {
      // The writer goes on until a write lands after the last export (on a slow box the export may
      // end with the writer's last acknowledged write), at most 5 s more.
      const last = Math.max(0, ...exports.map((e) => e.revision));
      for (let waited = 0; waited < 5000 && !log.some((l) => l.revision > last); waited += 50) await new Promise((r) => setTimeout(r, 50));
      writing = false;
      await writer;
    }
    expect(failed).toEqual([]);
    expect(new Set(log.map((l) => l.revision)).size).toBe(log.length);
    for (const e of exports) {
      // Taken while writes went on: writes before and after it.
      expect(log.some((l) => l.revision <= e.revision) && log.some((l) => l.revision > e.revision)).toBe(true);
      const at = new Map<string, unknown>();
      for (const l of [...log].sort((a, b) => a.revision - b.revision)) {
        if (l.revision > e.revision) break;
        if (l.level === null) at.delete(l.key);
        else at.set(l.key, l.level);
      }
      expect([...e.users].sort()).toEqual([...at].sort());
    }
  }, 60_000);
});

/**
 * Without the extension, an export whose held read cannot be had within EXPORT_HOLD_MS (here: a
 * transaction keeps the environment's lock, as a long write would) lets go and is exported again
 * without holding its writers (`read: streamed`): whole, at the same revision, without waiting for
 * the lock (it is released only once the export has answered).
 */
describe('an export that cannot hold its writers within EXPORT_HOLD_MS', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { WALK: 'cypher', EXPORT_HOLD_MS: '300' } });
    await t.ok('POST', `/v2/facts/${t.proj}/${t.env}/users/bulk`, {
      operations: Array.from({ length: 10 }, (_, i) => ({ key: `u${i}`, email: `u${i}@example.com` })),
    });
  }, 60_000);
  afterAll(async () => t?.close());

  const exportLines = async () => {
    const res = await fetch(`${t.url}/v2/export/${t.proj}/${t.env}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
    expect(res.status).toBe(200);
    return (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  };

  it('is streamed whole at the same revision, not held', async () => {
    const quiet = await exportLines();
    const envId = (await t.ok('GET', `/v2/projects/${t.proj}/envs/${t.env}`)).id as string;
    const session = t.service.driver.session();
    const tx = session.beginTransaction();
    // Failsafe: an export that waited for the lock would wait for this.
    const release = setTimeout(() => void tx.rollback().catch(() => undefined), 20_000);
    try {
      await tx.run('MATCH (e:Environment {id: $envId}) SET e.revision = e.revision RETURN e.revision', { envId });
      const started = Date.now();
      const lines = await exportLines();
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(lines[0]).toMatchObject({ type: 'header', read: 'streamed', revision: quiet[0].revision });
      expect(lines.at(-1)).toMatchObject({ type: 'end', revision: quiet[0].revision, nodes: quiet.at(-1).nodes });
      expect(lines.slice(1).map((l) => JSON.stringify(l))).toEqual(quiet.slice(1).map((l) => JSON.stringify(l)));
      expect(lines.filter((l) => l.kind === 'user')).toHaveLength(10);
    } finally {
      clearTimeout(release);
      await tx.rollback().catch(() => undefined);
      await session.close();
    }
  }, 60_000);
});
