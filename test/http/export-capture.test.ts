import { runCypher, startTestService, type TestService } from '../support/testService';

/**
 * How the walk extension exports an environment at one revision R without holding its writers
 * while it reads (docs/policy-as-code.md, "Exactly one revision"): graphauthz.exportParts holds the
 * environment's lock only to read R and open a capture of every later change (the state each record
 * and link had before it), reads the environment while writes go on, and makes what changed from
 * the capture. Its test-only pause (the service never passes one) stops it twice: after the capture
 * is opened (writes land before their records and links are read) and between the records and the
 * links (writes land on records already read and links not yet read). Writes of every kind land in
 * both; each completes while the export is still reading (they were not held), and the export
 * equals, line for line, a quiet export taken just before it at the same revision.
 */
let t: TestService;
const ENV = 'cap';
let f: string;
let s: string;
const PAUSE_MS = 2500;

async function ok(method: string, path: string, body?: unknown) {
  const res = await t.call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

const grant = (user: string, role: string, instance: string) => ({ user, role, tenant: 'default', resource_instance: instance });

beforeAll(async () => {
  t = await startTestService();
  f = `/v2/facts/${t.proj}/${ENV}`;
  s = `/v2/schema/${t.proj}/${ENV}`;
  await ok('POST', `/v2/projects/${t.proj}/envs`, { key: ENV, name: ENV });
  await ok('POST', `${s}/resources`, { key: 'doc', name: 'Doc', actions: { read: {}, write: {} } });
  await ok('POST', `${s}/resources/doc/roles`, { key: 'reader', name: 'Reader', permissions: ['read'] });
  await ok('POST', `${s}/resources/doc/roles`, { key: 'editor', name: 'Editor', permissions: ['read', 'write'] });
  await ok('POST', `${s}/resources/__user/attributes`, { key: 'level', type: 'number' });
  await ok('POST', `${f}/resource_instances/bulk`, {
    operations: Array.from({ length: 8 }, (_, i) => ({ key: `d${i}`, resource: 'doc', tenant: 'default' })),
  });
  await ok('POST', `${s}/groups/bulk`, {
    operations: ['g0', 'g1', 'g2', 'g3'].map((g) => ({ group_instance_key: g, group_tenant: 'default' })),
  });
  for (let i = 0; i < 4; i++) {
    await ok('POST', `${s}/groups/g${i}/roles`, { resource: 'doc', resource_instance: `d${i}`, role: 'reader', tenant: 'default' });
  }
  await ok('PUT', `${s}/groups/g1/assign_group`, { group_instance_key: 'g0' });
  await ok('PUT', `${s}/groups/g2/assign_group`, { group_instance_key: 'g1' });
  await ok('POST', `${f}/users/bulk`, { operations: Array.from({ length: 16 }, (_, i) => ({ key: `u${i}`, attributes: { level: i } })) });
  await ok(
    'POST',
    `${f}/role_assignments/bulk`,
    Array.from({ length: 16 }, (_, i) => grant(`u${i}`, i % 2 ? 'editor' : 'reader', `doc:d${i % 8}`)).concat(
      Array.from({ length: 16 }, (_, i) => grant(`u${i}`, 'member', `group:g${i % 4}`)),
    ),
  );
  // Each kind of write once before the export (Neo4j plans a statement the first time it runs):
  // the writes during the export then take what they take on a warm service.
  await ok('POST', `${f}/users`, { key: 'warm', attributes: { level: 1 } });
  await ok('PATCH', `${f}/users/warm`, { attributes: { level: 2 } });
  await ok('POST', `${f}/role_assignments`, grant('warm', 'reader', 'doc:d7'));
  await ok('DELETE', `${f}/role_assignments`, grant('warm', 'reader', 'doc:d7'));
  await ok('POST', `${f}/role_assignments`, grant('warm', 'member', 'group:g3'));
  await ok('DELETE', `${f}/role_assignments`, grant('warm', 'member', 'group:g3'));
  await ok('DELETE', `${f}/users/warm`);
  await ok('PUT', `${s}/groups/g3/assign_group`, { group_instance_key: 'g0' });
  await ok('DELETE', `${s}/groups/g3/assign_group`, { group_instance_key: 'g0' });
  await ok('DELETE', `${f}/resource_instances/doc:d7`);
}, 120_000);
afterAll(async () => t?.close());

/** A line as a comparable string: a record's labels (sorted) and properties, or a link, keys sorted. */
function canonical(line: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v;
  return JSON.stringify(sort(line));
}

function fromExport(text: string): { revision: number; lines: string[] } {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const body = lines
    .slice(1, -1)
    .map((l) => (l.type === 'node' ? canonical({ labels: [...l.labels].sort(), props: l.props }) : canonical(l)));
  return { revision: lines[0].revision, lines: body.sort() };
}

async function exportText(): Promise<string> {
  const res = await fetch(`${t.url}/v2/export/${t.proj}/${ENV}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
  expect(res.status).toBe(200);
  return res.text();
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('reads every record and link as it was at its revision while writes of every kind land during the read', async () => {
  const quiet = fromExport(await exportText());
  const envId = (await ok('GET', `/v2/projects/${t.proj}/envs/${ENV}`)).body.id as string;

  const started = Date.now();
  let returnedAt = 0;
  const read = runCypher(
    t,
    'CALL graphauthz.exportParts($env, 2048, 10000, $pause) YIELD revision, heldMs, section, part, lines RETURN revision, heldMs, section, part, lines',
    { env: envId, pause: PAUSE_MS },
  ).then((rows) => {
    returnedAt = Date.now();
    return rows;
  });
  // The call is running (the capture opens as it starts): the first pause.
  for (;;) {
    const running = await runCypher(
      t,
      "SHOW TRANSACTIONS YIELD currentQuery WHERE currentQuery CONTAINS 'exportParts' AND NOT currentQuery CONTAINS 'SHOW' RETURN count(*) AS n",
    );
    if (Number(running[0].n) > 0) break;
    await wait(20);
  }
  await wait(200);
  const writesAt: number[] = [];
  const write = async (method: string, path: string, body?: unknown) => {
    await ok(method, path, body);
    writesAt.push(Date.now());
  };
  // Before anything is read: a user created, deleted (with its grants), changed; a grant and a
  // revoke; a membership and its removal; nesting removed and added.
  await write('POST', `${f}/users`, { key: 'new1', attributes: { level: 99 } });
  await write('DELETE', `${f}/users/u1`);
  await write('PATCH', `${f}/users/u2`, { attributes: { level: 42 } });
  await write('POST', `${f}/role_assignments`, grant('u3', 'reader', 'doc:d5'));
  await write('DELETE', `${f}/role_assignments`, grant('u4', 'reader', 'doc:d4'));
  await write('POST', `${f}/role_assignments`, grant('u5', 'member', 'group:g3'));
  await write('DELETE', `${f}/role_assignments`, grant('u6', 'member', 'group:g2'));
  await write('DELETE', `${s}/groups/g2/assign_group`, { group_instance_key: 'g1' });
  await write('PUT', `${s}/groups/g3/assign_group`, { group_instance_key: 'g2' });
  const firstWindow = Date.now() - started;
  // Past the first pause and the records' read: the second pause, before the links are read.
  await wait(Math.max(0, PAUSE_MS + 300 - (Date.now() - started)));
  await write('DELETE', `${f}/users/u7`);
  await write('PATCH', `${f}/users/u8`, { attributes: { level: 7 } });
  await write('POST', `${f}/role_assignments`, grant('u9', 'reader', 'doc:d3'));
  await write('DELETE', `${f}/role_assignments`, grant('u10', 'reader', 'doc:d2'));
  await write('DELETE', `${f}/role_assignments`, grant('u12', 'member', 'group:g0'));
  await write('DELETE', `${f}/resource_instances/doc:d6`);
  await write('POST', `${f}/users`, { key: 'new2' });
  const secondWindow = Date.now() - started;

  const rows = await read;
  // Each write completed while the export was still reading: no writer was held for its read.
  expect(writesAt.every((at) => at < returnedAt)).toBe(true);
  expect(firstWindow).toBeLessThan(PAUSE_MS);
  expect(secondWindow).toBeLessThan(2 * PAUSE_MS);
  expect(rows.length).toBeGreaterThan(2);
  // The writers waited only for the lock's two short holds, not for the pauses nor the read.
  expect(Number(rows[0].heldMs)).toBeLessThan(PAUSE_MS / 2);
  expect(Number(rows[0].revision)).toBe(quiet.revision);

  const captured = rows
    .flatMap((r) =>
      r.section === 'nodes'
        ? (r.part as string).split('\n').map((l) => {
            const tab = l.indexOf('\t');
            return canonical({ labels: (JSON.parse(l.slice(0, tab)) as string[]).sort(), props: JSON.parse(l.slice(tab + 1)) });
          })
        : r.section === 'relationships'
          ? (r.part as string).split('\n').map((l) => canonical(JSON.parse(l)))
          : [],
    )
    .sort();
  expect(captured).toEqual(quiet.lines);

  // The writes did land: the environment now differs from what was exported.
  const after = fromExport(await exportText());
  expect(after.revision).toBe(quiet.revision + 16);
  expect(after.lines).not.toEqual(quiet.lines);
}, 120_000);
