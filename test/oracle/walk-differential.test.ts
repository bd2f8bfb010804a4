import { packChecks } from '../../src/areas/decisions/packedChecks';
import { objectsOfRow } from '../../src/areas/decisions/packedPage';
import type { StatementRows } from '../../src/db/statements.generated';
import type { Statement } from '../../src/db/db';
import { startTestService, type TestService } from '../support/testService';
import { type Assignment, generateGraph, type Graph, mulberry32, SERVICE_SCHEMA } from './graphs';

/**
 * The two walks, asked the same questions (docs/walk-extension.md): random graphs written
 * through the HTTP API (test/oracle/graphs.ts, plus tenant roles with a hierarchy, groups nested
 * in groups with roles on instances, a resource group, and grants that expire later, so that
 * answers carry a validUntil), then every question asked of the Cypher statement
 * (cypher/decisions/allowed.cypher) and of the extension's (cypher/walk/allowed.cypher) with the
 * same parameters, at depth 25 and at depth 2 (so that the limit cuts walks), with and without
 * explain. allow, validUntil and depthLimited must be equal, and the environment's revision read
 * by both (not older in the second); explain's paths equal as sets (the other fields of the
 * explanation too, but states_visited: explain walks every path in both, the count of states is
 * compared as well). Reproduce with WALK_SEED=<seed> WALK_GRAPHS=<n>.
 */
const SEED = Number(process.env.WALK_SEED ?? 20261127);
const COUNT = Number(process.env.WALK_GRAPHS ?? 16);

let t: TestService;
let envId: string;
const schema = () => `/v2/schema/${t.proj}/${t.env}`;
const facts = () => `/v2/facts/${t.proj}/${t.env}`;
const ok = (method: string, path: string, body?: unknown, status?: number) => t.ok(method, path, body, status);

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/** Far enough ahead that nothing expires during the test; distinct per edge, so the earliest one is known. */
let nextExpiry = Math.ceil((Date.now() + 3_600_000) / 1000) * 1000;
const later = () => new Date((nextExpiry += 60_000)).toISOString();

/** The rule's features the base graphs lack, drawn per graph from its own seed. */
interface Extras {
  tenantRoles: { user: string; role: string; tenant: string; expires_at?: string }[];
  expiring: (Assignment & { expires_at: string })[];
  groups: { key: string; into?: string; members: { user: string; expires_at?: string }[]; roles: { instance: string; role: string }[] }[];
  /** A doc-typed group grouping docs: a role held on it is held on each of them (GROUPS). */
  resourceGroup: { key: string; docs: string[]; holders: { user: string; role: string }[] };
}

function extrasOf(g: Graph): Extras {
  const rnd = mulberry32(SEED * 7919 + g.index);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const folders = g.instances.filter((i) => i.startsWith('folder:'));
  const docs = g.instances.filter((i) => i.startsWith('doc:'));
  const tenantRoles = g.users
    .filter(() => rnd() < 0.3)
    .map((user) => ({
      user,
      role: pick(['auditor', 'chief']),
      tenant: rnd() < 0.6 ? 'default' : 't2',
      ...(rnd() < 0.5 ? { expires_at: later() } : {}),
    }));
  const taken = new Set(g.assignments.map((a) => `${a.user}|${a.role}|${a.instance}`));
  const expiring: Extras['expiring'] = [];
  for (const user of g.users) {
    if (rnd() < 0.5) continue;
    const instance = pick([...folders, ...docs]);
    const role = pick(instance.startsWith('folder:') ? ['viewer', 'editor', 'manager'] : ['reader', 'writer']);
    if (!taken.has(`${user}|${role}|${instance}`)) expiring.push({ user, role, instance, expires_at: later() });
  }
  const p = `g${g.index}_`;
  const member = () => ({ user: pick(g.users), ...(rnd() < 0.4 ? { expires_at: later() } : {}) });
  const groups: Extras['groups'] = [
    { key: `${p}G0`, into: `${p}G1`, members: [member(), member()], roles: [{ instance: pick(docs), role: pick(['reader', 'writer']) }] },
    { key: `${p}G1`, members: [member()], roles: [{ instance: pick(folders), role: pick(['viewer', 'editor', 'manager']) }] },
  ];
  const resourceGroup = {
    key: `${p}D0`,
    docs: [...new Set([pick(docs), pick(docs)])],
    holders: [{ user: pick(g.users), role: pick(['reader', 'writer']) }],
  };
  return { tenantRoles, expiring, groups, resourceGroup };
}

async function loadSchema() {
  for (const r of SERVICE_SCHEMA.resources) await ok('POST', `${schema()}/resources`, r);
  for (const [res, role] of SERVICE_SCHEMA.roles) await ok('POST', `${schema()}/resources/${res}/roles`, role);
  for (const [res, rel] of SERVICE_SCHEMA.relations) await ok('POST', `${schema()}/resources/${res}/relations`, rel);
  for (const [res, role, d] of SERVICE_SCHEMA.derivations)
    await ok('POST', `${schema()}/resources/${res}/roles/${role}/implicit_grants`, d);
  // Tenant roles with a hierarchy: a chief has the auditor's permissions too.
  await ok('POST', `${schema()}/roles`, { key: 'auditor', name: 'Auditor', permissions: ['doc:read'] });
  await ok('POST', `${schema()}/roles`, { key: 'chief', name: 'Chief', permissions: ['folder:write'], extends: ['auditor'] });
  await ok('POST', `${facts()}/tenants`, { key: 't2', name: 'T2' });
}

async function loadGraph(g: Graph) {
  const x = extrasOf(g);
  await ok('POST', `${facts()}/users/bulk`, { operations: g.users.map((key) => ({ key })) });
  await ok('POST', `${facts()}/resource_instances/bulk`, {
    operations: g.instances.map((ref) => {
      const [resource, key] = ref.split(':');
      return { key, resource, tenant: 'default' };
    }),
  });
  if (g.tuples.length)
    await ok('POST', `${facts()}/relationship_tuples/bulk`, { operations: g.tuples.map((tu) => ({ ...tu, tenant: 'default' })) });
  const assignments = [
    ...g.assignments.map((a) => ({ user: a.user, role: a.role, tenant: 'default', resource_instance: a.instance })),
    ...x.expiring.map((a) => ({ user: a.user, role: a.role, tenant: 'default', resource_instance: a.instance, expires_at: a.expires_at })),
    ...x.tenantRoles,
  ];
  if (assignments.length) await ok('POST', `${facts()}/role_assignments/bulk`, assignments);
  for (const group of x.groups) {
    await ok('POST', `${schema()}/groups`, { group_instance_key: group.key, group_tenant: 'default' });
  }
  for (const group of x.groups) {
    if (group.into) await ok('PUT', `${schema()}/groups/${group.key}/assign_group`, { group_instance_key: group.into });
    for (const m of group.members) {
      await ok('PUT', `${schema()}/groups/${group.key}/users/${m.user}`, {
        tenant: 'default',
        ...(m.expires_at ? { expires_at: m.expires_at } : {}),
      });
    }
    for (const r of group.roles) {
      const [resource, key] = r.instance.split(':');
      await ok('POST', `${schema()}/groups/${group.key}/roles`, { resource, resource_instance: key, role: r.role, tenant: 'default' });
    }
  }
  const rg = x.resourceGroup;
  await ok('POST', `${schema()}/groups`, { group_instance_key: rg.key, group_resource_type_key: 'doc', group_tenant: 'default' });
  for (const doc of rg.docs) {
    await ok('PUT', `${schema()}/groups/${rg.key}/resource_instances`, {
      resource: 'doc',
      resource_instance: doc.split(':')[1],
      tenant: 'default',
    });
  }
  await ok(
    'POST',
    `${facts()}/role_assignments/bulk`,
    rg.holders.map((h) => ({ user: h.user, role: h.role, tenant: 'default', resource_instance: `doc:${rg.key}` })),
  );
  // Edges that expire a few seconds after they are written: by the questions they grant nothing.
  // Each write takes its own instant (on a loaded box the first may take longer than the margin).
  const soon = () => {
    const at = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000).toISOString();
    expiredBy = Math.max(expiredBy, Date.parse(at));
    return at;
  };
  if (g.expired.tuples.length) {
    const at = soon();
    await ok('POST', `${facts()}/relationship_tuples/bulk`, {
      operations: g.expired.tuples.map((tu) => ({ ...tu, tenant: 'default', expires_at: at })),
    });
  }
  if (g.expired.assignments.length) {
    const at = soon();
    await ok(
      'POST',
      `${facts()}/role_assignments/bulk`,
      g.expired.assignments.map((a) => ({ user: a.user, role: a.role, tenant: 'default', resource_instance: a.instance, expires_at: at })),
    );
  }
}
let expiredBy = 0;

interface Check {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  stored?: true;
}

function checksOf(g: Graph): Check[] {
  const x = extrasOf(g);
  const objects = [...g.instances.filter((i) => !i.startsWith('team:')), `doc:${x.resourceGroup.key}`];
  const out: Check[] = [];
  for (const user of [...g.users, `g${g.index}_nobody`]) {
    for (const instance of objects) {
      const [type, key] = instance.split(':');
      for (const action of ['read', 'write']) out.push({ user, action, type, key, tenant: null });
    }
    // Without an instance: the tenant roles alone, in the default tenant and in t2; and a tenant that is not the instance's.
    for (const tenant of [null, 't2']) for (const type of ['doc', 'folder']) out.push({ user, action: 'read', type, key: null, tenant });
    out.push({ user, action: 'read', type: 'doc', key: objects[objects.length - 1].split(':')[1], tenant: 't2' });
  }
  return out;
}

/** JSON with each object's keys sorted: a map's key order means nothing (Cypher's maps have none). */
const canon = (value: unknown): string =>
  JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

/**
 * Both rows read the environment's revision (the revision ledger learns it from each), the second
 * not older (the expiry sweep may move it between the two asks).
 */
const revisionsAgree = (a: { revision: number | null }, b: { revision: number | null }): boolean =>
  a.revision !== null && b.revision !== null && b.revision >= a.revision;

type CypherList = StatementRows['decisions/listObjects'];
type PackedList = StatementRows['walk/listObjects'];

/** A list row as the objects it lists (key and tenant, in order), read as the service reads either walk's row. */
const objectsOf = (r: CypherList | PackedList) => objectsOfRow(r, 'any').map((o) => [o.key, o.tenant]);

/** Two list rows are the same list (the same objects in the same order, validUntil) and their revisions agree. */
const sameList = (a: CypherList, b: PackedList): boolean =>
  canon({ objects: objectsOf(a), validUntil: a.validUntil }) === canon({ objects: objectsOf(b), validUntil: b.validUntil }) &&
  revisionsAgree(a, b);

type Row = {
  idx: number;
  allow: boolean;
  validUntil: number | null;
  depthLimited: boolean;
  explanation: { paths: string[]; states_visited: number; granting_roles: string[] } & Record<string, unknown>;
  stored: { user: { tenant_roles: { tenant: string; role: string }[] } | null; instance: unknown } | null;
  revision: number | null;
};

/** What a row answers of the user and instance (the set rules' attributes), its tenant roles as a set. */
const storedOf = (r: Row) =>
  canon(
    r.stored && {
      ...r.stored,
      user: r.stored.user && { ...r.stored.user, tenant_roles: r.stored.user.tenant_roles.map((x) => `${x.tenant}|${x.role}`).sort() },
    },
  );

async function ask(stmt: Statement<Row>, checks: Check[] | string, depth: number, explain: boolean, nowMs: number): Promise<Row[]> {
  return t.service.db.readRows(stmt, { env: envId, checks, depth, defaultTenant: 'default', explain, nowMs });
}

beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

it('the service answers with the walk extension (a silent fallback to Cypher fails here)', async () => {
  const ready = await t.call('GET', '/readyz', undefined, { key: null });
  expect(ready.status).toBe(200);
  expect({ walk: ready.body.walk, reason: ready.body.walk_reason }).toEqual({ walk: 'extension', reason: 'version_matches' });
});

it(`the extension's statements answer as the Cypher ones on ${COUNT} random graphs (seed ${SEED})`, async () => {
  const graphs = Array.from({ length: COUNT }, (_, i) => generateGraph(SEED, i));
  await loadSchema();
  // The statements take the environment's id, as the decision store passes it.
  envId = (await ok('GET', `/v2/projects/${t.proj}/envs/${t.env}`)).id;
  await inBatches(graphs, 2, loadGraph);
  await new Promise((r) => setTimeout(r, Math.max(0, expiredBy - Date.now() + 50)));
  const cypher = t.service.db.statement('decisions/allowed') as unknown as Statement<Row>;
  const extension = t.service.db.statement('walk/allowed') as unknown as Statement<Row>;
  const checks = graphs.flatMap(checksOf);
  const nowMs = Date.now();
  let compared = 0;
  let allowed = 0;
  let limited = 0;
  let withUntil = 0;
  let withTenantRoles = 0;
  const problems: string[] = [];
  for (const depth of [25, 2]) {
    for (const explain of [false, true]) {
      for (let i = 0; i < checks.length; i += 100) {
        // Every other question also asks what the set rules read of its user and instance.
        const batch = checks.slice(i, i + 100).map((c, k) => (k % 2 ? { ...c, stored: true as const } : c));
        // The extension is asked as the service asks it: the checks packed into one string.
        const [a, b] = [await ask(cypher, batch, depth, explain, nowMs), await ask(extension, packChecks(batch), depth, explain, nowMs)];
        expect(b.map((r) => r.idx)).toEqual(a.map((r) => r.idx));
        // The same checks as a list of maps (what the procedure also takes) answer the same rows; the
        // revision each read may differ as with the Cypher rows (revisionsAgree: the expiry sweep).
        if (i === 0) {
          const maps = await ask(extension, batch, depth, explain, nowMs);
          expect(maps.map((r) => ({ ...r, revision: null }))).toEqual(b.map((r) => ({ ...r, revision: null })));
          expect(maps.filter((r, j) => !revisionsAgree(b[j], r))).toEqual([]);
        }
        a.forEach((ra, j) => {
          const rb = b[j];
          compared++;
          if (ra.allow) allowed++;
          if (ra.depthLimited) limited++;
          if (ra.validUntil !== null) withUntil++;
          if (ra.stored?.user?.tenant_roles.length) withTenantRoles++;
          const same =
            ra.allow === rb.allow &&
            ra.validUntil === rb.validUntil &&
            ra.depthLimited === rb.depthLimited &&
            revisionsAgree(ra, rb) &&
            storedOf(ra) === storedOf(rb) &&
            (!explain ||
              (JSON.stringify([...ra.explanation.paths].sort()) === JSON.stringify([...rb.explanation.paths].sort()) &&
                JSON.stringify({ ...ra.explanation, paths: null, granting_roles: [...ra.explanation.granting_roles].sort() }) ===
                  JSON.stringify({ ...rb.explanation, paths: null, granting_roles: [...rb.explanation.granting_roles].sort() })));
          if (!same) {
            problems.push(
              `depth ${depth}, explain ${explain}: ${JSON.stringify(batch[j])}\n  cypher    ${JSON.stringify(ra)}\n  extension ${JSON.stringify(rb)}`,
            );
          }
        });
      }
    }
  }
  expect({ count: problems.length, first: problems.slice(0, 3) }).toEqual({ count: 0, first: [] });
  // The comparison means something only when each kind of answer occurs.
  expect(allowed).toBeGreaterThan(compared * 0.05);
  expect(allowed).toBeLessThan(compared * 0.95);
  expect(limited).toBeGreaterThan(0);
  expect(withUntil).toBeGreaterThan(0);
  expect(withTenantRoles).toBeGreaterThan(0);
  // list-objects: every user, both types and actions, a whole list and a page after its first key.
  const list = t.service.db.statement('decisions/listObjects');
  const listExt = t.service.db.statement('walk/listObjects');
  let lists = 0;
  let listed = 0;
  /** Lists whose validUntil (the earliest expiry they depend on) is a time: compared like the objects. */
  let listsWithUntil = 0;
  for (const g of graphs) {
    for (const user of g.users) {
      for (const type of ['doc', 'folder']) {
        for (const action of ['read', 'write']) {
          for (const tenant of [null, 't2']) {
            const params = { env: envId, user, action, type, tenant, after: null, limit: 1000, depth: 25, nowMs };
            const [a] = await t.service.db.readRows(list, params);
            const [b] = await t.service.db.readRows(listExt, params);
            lists++;
            listed += a.keys.length;
            if (a.validUntil !== null) listsWithUntil++;
            if (!sameList(a, b))
              problems.push(`list ${JSON.stringify(params)}
  cypher ${JSON.stringify(a)}
  extension ${JSON.stringify(b)}`);
            if (a.keys.length < 2) continue;
            const page = { ...params, after: a.keys[0], limit: 2, depth: 2 };
            const [pa] = await t.service.db.readRows(list, page);
            const [pb] = await t.service.db.readRows(listExt, page);
            if (!sameList(pa, pb))
              problems.push(`page ${JSON.stringify(page)}
  cypher ${JSON.stringify(pa)}
  extension ${JSON.stringify(pb)}`);
          }
        }
      }
    }
  }
  // authorized users: every object of every graph, both actions; and the type alone in each tenant.
  const authorized = t.service.db.statement('decisions/authorizedUsers');
  const authorizedExt = t.service.db.statement('walk/authorizedUsers');
  let authorizedCompared = 0;
  let authorizedFound = 0;
  for (const g of graphs) {
    const objects = [...g.instances.filter((i) => !i.startsWith('team:')), `doc:${extrasOf(g).resourceGroup.key}`];
    const asked = [
      ...objects.map((o) => ({ type: o.split(':')[0], key: o.split(':')[1] as string | null, tenant: null as string | null })),
      { type: 'doc', key: null, tenant: 't2' },
    ];
    for (const q of asked) {
      for (const action of ['read', 'write']) {
        for (const depth of [25, 2]) {
          const params = { env: envId, action, ...q, depth, defaultTenant: 'default', nowMs };
          const [a] = await t.service.db.readRows(authorized, params);
          const [b] = await t.service.db.readRows(authorizedExt, params);
          authorizedCompared++;
          authorizedFound += a.assignments.length;
          if (canon(a) !== canon(b))
            problems.push(`authorized ${JSON.stringify(params)}\n  cypher ${JSON.stringify(a)}\n  extension ${JSON.stringify(b)}`);
        }
      }
    }
  }
  // user-permissions: every user, everything and narrowed (instances compared by key: the service keys them).
  const perms = t.service.db.statement('decisions/userPermissions');
  const permsExt = t.service.db.statement('walk/userPermissions');
  const byKey = (row: { instances: { key: string }[] } | undefined) =>
    row && { ...row, instances: [...row.instances].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)) };
  const effective = t.service.db.statement('decisions/effectiveRoles');
  const effectiveExt = t.service.db.statement('walk/effectiveRoles');
  let permissionViews = 0;
  for (const g of graphs) {
    for (const user of [...g.users, `g${g.index}_nobody`]) {
      for (const [tenants, types] of [
        [null, null],
        [['default'], ['doc']],
        [['t2'], null],
      ] as const) {
        const params = { env: envId, user, tenants, types, depth: 25, nowMs };
        const roleParams = { env: envId, user, tenant: tenants?.[0] ?? null, depth: types ? 2 : 25, nowMs };
        const [ra] = await t.service.db.readRows(effective, roleParams);
        const [rb] = await t.service.db.readRows(effectiveExt, roleParams);
        if (canon(ra) !== canon(rb))
          problems.push(`effective roles ${JSON.stringify(roleParams)}\n  cypher ${JSON.stringify(ra)}\n  extension ${JSON.stringify(rb)}`);
        const [a] = await t.service.db.readRows(perms, params);
        const [b] = await t.service.db.readRows(permsExt, params);
        permissionViews++;
        if (canon(byKey(a)) !== canon(byKey(b)))
          problems.push(`user-permissions ${JSON.stringify(params)}\n  cypher ${JSON.stringify(a)}\n  extension ${JSON.stringify(b)}`);
      }
    }
  }
  expect({ count: problems.length, first: problems.slice(0, 3) }).toEqual({ count: 0, first: [] });
  expect(listed).toBeGreaterThan(lists);
  expect(listsWithUntil).toBeGreaterThan(0);
  expect(authorizedFound).toBeGreaterThan(authorizedCompared);
  console.log(
    `walk differential: ${permissionViews} user-permissions views and effective roles compared; ${authorizedCompared} authorized-users answers compared (${authorizedFound} assignments); ${lists} lists compared (${listed} objects, ${listsWithUntil} with a validUntil); ${graphs.length} graphs, ${compared} answers compared (${allowed} allowed, ${limited} depth-limited, ${withUntil} with a validUntil)`,
  );
}, 600_000);
