import type { TestService } from '../support/testService';
import { ATTRIBUTES, generateWorld, type Question, type World } from './conditionWorlds';
import { mulberry32 } from './graphs';

/**
 * One answer per question, whatever the endpoint (docs/decisions.md): on random worlds with set
 * rules, two tenants, tenant roles, instance roles, a group and attributes stored and sent, every
 * question is asked through `/allowed` and through every other endpoint that can answer it
 * (bulk, all-tenants, user-permissions, authorized users, list-objects in pages), and they must
 * agree. `/allowed` itself is checked against SpiceDB by the other oracles; here it is the
 * reference. Each function answers the disagreements and how many comparisons it made.
 */
export const TENANTS = ['default', 't2'] as const;

export interface AgreementWorld extends World {
  /** Each document's tenant. */
  tenantOf: Record<string, string>;
  /** Tenant roles: [user, role, tenant]. */
  tenantRoles: [string, string, string][];
  /** Instance roles: [user, role, doc]. */
  instanceRoles: [string, string, string][];
  /** A group holding `reader` on one document, with some users as members. */
  group: { key: string; doc: string; members: string[] };
}

export function agreementWorld(seed: number, index: number): AgreementWorld {
  const w = generateWorld(seed, index);
  const rnd = mulberry32(seed * 104729 + index);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const tenantOf = Object.fromEntries(w.docs.map((d) => [d.key, pick(TENANTS)]));
  // The world's tenant roles, each in a tenant of its own choosing.
  const tenantRoles = w.users.flatMap((u) => u.roles.map((role): [string, string, string] => [u.key, role, pick(TENANTS)]));
  const instanceRoles = w.users.flatMap((u) =>
    w.docs.filter(() => rnd() < 0.12).map((d): [string, string, string] => [u.key, pick(['reader', 'editor']), d.key]),
  );
  const doc = pick(w.docs).key;
  return {
    ...w,
    tenantOf,
    tenantRoles,
    instanceRoles,
    group: { key: `w${index}_g`, doc, members: w.users.filter(() => rnd() < 0.3).map((u) => u.key) },
  };
}

/** Writes a world into a new environment of the test project; answers the environment's key. */
export async function loadAgreementWorld(t: TestService, w: AgreementWorld): Promise<string> {
  const env = `agree${w.index}`;
  await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
  const schema = `/v2/schema/${t.proj}/${env}`;
  const facts = `/v2/facts/${t.proj}/${env}`;
  await t.ok('POST', `${schema}/resources`, {
    key: 'doc',
    name: 'Document',
    actions: { read: {}, write: {} },
    roles: { reader: { name: 'reader', permissions: ['read'] }, editor: { name: 'editor', permissions: ['read', 'write'] } },
  });
  for (const a of ATTRIBUTES.filter((x) => x.scope !== 'context')) {
    await t.ok('POST', `${schema}/resources/${a.scope === 'user' ? '__user' : 'doc'}/attributes`, { key: a.key, type: a.type });
  }
  await t.ok('POST', `${schema}/roles`, { key: 'reader', name: 'Reader', permissions: ['doc:read'] });
  await t.ok('POST', `${schema}/roles`, { key: 'editor', name: 'Editor', permissions: ['doc:read', 'doc:write'] });
  await t.ok('POST', `${schema}/roles`, { key: 'lead', name: 'Lead', permissions: [], extends: ['reader'] });
  const ids = new Map<string, string>();
  for (const s of w.sets) {
    const made = await t.ok('POST', `${schema}/condition_sets`, {
      key: s.key,
      name: s.key,
      type: s.type,
      ...(s.type === 'resourceset' ? { resource_id: 'doc' } : {}),
      ...(s.parent ? { parent_id: ids.get(s.parent) } : {}),
      conditions: s.conditions,
    });
    ids.set(s.key, made.id);
  }
  for (const r of w.rules) {
    await t.ok('POST', `${facts}/set_rules`, {
      user_set: r.user_set,
      permission: `doc:${r.action}`,
      resource_set: r.resource_set,
      ...(r.is_role ? { is_role: true } : {}),
    });
  }
  await t.ok('POST', `${facts}/tenants`, { key: 't2', name: 't2' });
  await t.ok('POST', `${facts}/users/bulk`, { operations: w.users.map((u) => ({ key: u.key, attributes: u.attributes })) });
  await t.ok('POST', `${facts}/resource_instances/bulk`, {
    operations: w.docs.map((d) => ({ key: d.key, resource: 'doc', tenant: w.tenantOf[d.key], attributes: d.attributes })),
  });
  const roles = [
    ...w.tenantRoles.map(([user, role, tenant]) => ({ user, role, tenant })),
    ...w.instanceRoles.map(([user, role, doc]) => ({ user, role, tenant: w.tenantOf[doc], resource_instance: `doc:${doc}` })),
  ];
  if (roles.length) await t.ok('POST', `${facts}/role_assignments/bulk`, roles);
  const g = w.group;
  await t.ok('POST', `${schema}/groups`, { group_instance_key: g.key, group_tenant: w.tenantOf[g.doc] });
  await t.ok('POST', `${schema}/groups/${g.key}/roles`, {
    resource: 'doc',
    resource_instance: g.doc,
    role: 'reader',
    tenant: w.tenantOf[g.doc],
  });
  for (const m of g.members) await t.ok('PUT', `${schema}/groups/${g.key}/users/${m}`, { tenant: w.tenantOf[g.doc] });
  return env;
}

export interface Outcome {
  compared: number;
  problems: string[];
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

/** A question of the world as `/allowed` takes it (what it sent included). */
export function bodyOf(q: Question, withTenant = false, tenant?: string) {
  return {
    user: q.userAttributes ? { key: q.user, attributes: q.userAttributes } : q.user,
    action: q.action,
    resource: {
      type: 'doc',
      key: q.doc,
      ...(withTenant ? { tenant } : {}),
      ...(q.resourceAttributes ? { attributes: q.resourceAttributes } : {}),
    },
    ...(q.context ? { context: q.context } : {}),
  };
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Every question of the world (with what it sends, and plainly): `/allowed`, then the bulk of the
 * same questions, all-tenants for the same user, action and resource (the document's tenant
 * listed exactly when allowed), and the type-level question with the document's attributes sent
 * (`/allowed` per tenant against all-tenants).
 */
export async function checkQuestions(
  t: TestService,
  env: string,
  w: AgreementWorld,
): Promise<{ outcome: Outcome; answers: Map<string, boolean> }> {
  const base = `/v2/allowed/${t.proj}/${env}`;
  const out: Outcome = { compared: 0, problems: [] };
  const answers = new Map<string, boolean>();
  const asked = [...w.questions, ...w.plain];
  await inBatches(asked, 8, async (q) => {
    const single = (await t.ok('POST', base, bodyOf(q))).allow as boolean;
    if (!q.userAttributes && !q.resourceAttributes && !q.context) answers.set(`${q.user}|${q.action}|${q.doc}`, single);
    const tenants = await t.ok('POST', `${base}/all-tenants`, bodyOf(q));
    const listed: string[] = tenants.allowed_tenants.map((x: { tenant: { key: string } }) => x.tenant.key);
    out.compared++;
    if (listed.join() !== (single ? [w.tenantOf[q.doc]] : []).join()) {
      out.problems.push(`all-tenants ${JSON.stringify(bodyOf(q))}: ${JSON.stringify(listed)}, /allowed ${single}`);
    }
  });
  for (let i = 0; i < asked.length; i += 100) {
    const chunk = asked.slice(i, i + 100);
    const [bulk, singles] = await Promise.all([
      t.ok(
        'POST',
        `${base}/bulk`,
        chunk.map((q) => bodyOf(q)),
      ),
      Promise.all(chunk.map(async (q) => (await t.ok('POST', base, bodyOf(q))).allow as boolean)),
    ]);
    chunk.forEach((q, j) => {
      out.compared++;
      if (bulk.allow[j].allow !== singles[j])
        out.problems.push(`bulk ${JSON.stringify(bodyOf(q))}: ${bulk.allow[j].allow}, /allowed ${singles[j]}`);
    });
  }
  // Type-level questions: the document's attributes sent with the type alone.
  const typeLevel = w.questions.filter((_, i) => i % 5 === 0);
  await inBatches(typeLevel, 8, async (q) => {
    const doc = w.docs.find((d) => d.key === q.doc)!;
    const question = { ...bodyOf(q), resource: { type: 'doc', attributes: { ...doc.attributes, ...(q.resourceAttributes ?? {}) } } };
    const perTenant = await Promise.all(
      TENANTS.map(
        async (tenant) => (await t.ok('POST', base, { ...question, resource: { ...question.resource, tenant } })).allow as boolean,
      ),
    );
    const expected = TENANTS.filter((_, k) => perTenant[k]);
    const listed = sorted(
      (await t.ok('POST', `${base}/all-tenants`, question)).allowed_tenants.map((x: { tenant: { key: string } }) => x.tenant.key),
    );
    out.compared++;
    if (listed.join() !== sorted(expected).join()) {
      out.problems.push(`all-tenants (type level) ${JSON.stringify(question)}: ${JSON.stringify(listed)}, /allowed per tenant ${expected}`);
    }
  });
  return { outcome: out, answers };
}

/**
 * The lists against `/allowed`: user-permissions (per user), authorized users (per document and
 * action) and list-objects (per user and action, in pages of 3), each plainly (stored attributes)
 * and with a context sent (the conditions on the context read it on every one of them).
 */
export async function checkLists(t: TestService, env: string, w: AgreementWorld, contexts: Record<string, unknown>[]): Promise<Outcome> {
  const base = `/v2/allowed/${t.proj}/${env}`;
  const out: Outcome = { compared: 0, problems: [] };
  for (const context of [undefined, ...contexts]) {
    const sent = context ? { context } : {};
    const allowed = new Map<string, boolean>();
    const keyOf = (user: string, action: string, doc: string) => `${user}|${action}|${doc}`;
    await inBatches(w.plain, 8, async (q) => {
      allowed.set(keyOf(q.user, q.action, q.doc), (await t.ok('POST', base, { ...bodyOf(q), ...sent })).allow);
    });
    await inBatches(w.users, 4, async (u) => {
      const perms = await t.ok('POST', `${base}/user-permissions`, { user: u.key, ...sent });
      for (const d of w.docs) {
        for (const action of ['read', 'write']) {
          // Permit's shape: what a tenant role gives is listed under its tenant (`__tenant:t`), not per instance.
          const given = [...(perms[`doc:${d.key}`]?.permissions ?? []), ...(perms[`__tenant:${w.tenantOf[d.key]}`]?.permissions ?? [])];
          const ours = given.includes(`doc:${action}`);
          out.compared++;
          if (ours !== allowed.get(keyOf(u.key, action, d.key))) {
            out.problems.push(`user-permissions ${u.key} doc:${d.key} ${action} ${JSON.stringify(sent)}: ${ours}, /allowed ${!ours}`);
          }
        }
      }
      for (const action of ['read', 'write']) {
        const listed: string[] = [];
        let token: string | null = null;
        do {
          const page: { objects: { key: string }[]; continuation_token: string | null } = await t.ok('POST', `${base}/list-objects`, {
            user: u.key,
            action,
            resource_type: 'doc',
            page_size: 3,
            ...sent,
            ...(token ? { continuation_token: token } : {}),
          });
          listed.push(...page.objects.map((o) => o.key));
          token = page.continuation_token;
        } while (token !== null && listed.length <= w.docs.length);
        const expected = w.docs.filter((d) => allowed.get(keyOf(u.key, action, d.key))).map((d) => d.key);
        out.compared++;
        if (listed.join() !== sorted(expected).join()) {
          out.problems.push(`list-objects ${u.key} ${action} ${JSON.stringify(sent)}: ${listed}, /allowed ${sorted(expected)}`);
        }
      }
    });
    await inBatches(
      w.docs.flatMap((d) => ['read', 'write'].map((action) => ({ d, action }))),
      8,
      async ({ d, action }) => {
        const res = await t.ok('POST', `${base}/authorized_users`, { action, resource: { type: 'doc', key: d.key }, ...sent });
        const expected = w.users.filter((u) => allowed.get(keyOf(u.key, action, d.key))).map((u) => u.key);
        out.compared++;
        if (sorted(Object.keys(res.users)).join() !== sorted(expected).join()) {
          out.problems.push(
            `authorized_users ${action} doc:${d.key} ${JSON.stringify(sent)}: ${sorted(Object.keys(res.users))}, /allowed ${sorted(expected)}`,
          );
        }
      },
    );
  }
  return out;
}

/** user-tenants: the tenants each user belongs to (a tenant role, an instance role or a membership there). */
export async function checkUserTenants(t: TestService, env: string, w: AgreementWorld): Promise<Outcome> {
  const out: Outcome = { compared: 0, problems: [] };
  for (const u of w.users) {
    const expected = new Set<string>([
      ...w.tenantRoles.filter(([user]) => user === u.key).map(([, , tenant]) => tenant),
      ...w.instanceRoles.filter(([user]) => user === u.key).map(([, , doc]) => w.tenantOf[doc]),
      ...(w.group.members.includes(u.key) ? [w.tenantOf[w.group.doc]] : []),
    ]);
    const res = await t.ok('POST', `/v2/allowed/${t.proj}/${env}/user-tenants`, { user: { key: u.key, attributes: u.attributes } });
    const listed = sorted(res.map((x: { key: string }) => x.key));
    out.compared++;
    if (listed.join() !== sorted(expected).join()) out.problems.push(`user-tenants ${u.key}: ${listed}, the world's ${sorted(expected)}`);
  }
  return out;
}

/** A question of the world as an AuthZEN evaluation takes it (docs/authzen.md: the mapping). */
function authzenOf(q: Question) {
  return {
    subject: { type: 'user', id: q.user, ...(q.userAttributes ? { properties: q.userAttributes } : {}) },
    action: { name: q.action },
    resource: { type: 'doc', id: q.doc, ...(q.resourceAttributes ? { properties: q.resourceAttributes } : {}) },
    ...(q.context ? { context: q.context } : {}),
  };
}

/**
 * The AuthZEN endpoints (docs/authzen.md) against `/allowed`: every question as an evaluation and
 * in evaluations batches of up to 100, and the plain questions through the subject search (per
 * document and action) and the resource search (per user and action, in pages of 3).
 */
export async function checkAuthzen(t: TestService, env: string, w: AgreementWorld): Promise<Outcome> {
  const base = `/v2/allowed/${t.proj}/${env}`;
  const out: Outcome = { compared: 0, problems: [] };
  const { secret: key } = await t.ok('POST', `/v2/api-key/${t.proj}/${env}`, { name: 'authzen-oracle' });
  const post = async (path: string, body: unknown) => {
    const res = await t.call('POST', path, body, { key });
    if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const asked = [...w.questions, ...w.plain];
  const single = new Map<Question, boolean>();
  await inBatches(asked, 8, async (q) => {
    single.set(q, (await t.ok('POST', base, bodyOf(q))).allow as boolean);
    const decision = (await post('/access/v1/evaluation', authzenOf(q))).decision;
    out.compared++;
    if (decision !== single.get(q))
      out.problems.push(`authzen-evaluation ${JSON.stringify(authzenOf(q))}: ${decision}, /allowed ${single.get(q)}`);
  });
  for (let i = 0; i < asked.length; i += 100) {
    const chunk = asked.slice(i, i + 100);
    const batch = await post('/access/v1/evaluations', { evaluations: chunk.map(authzenOf) });
    chunk.forEach((q, j) => {
      out.compared++;
      if (batch.evaluations[j].decision !== single.get(q))
        out.problems.push(
          `authzen-evaluations ${JSON.stringify(authzenOf(q))}: ${batch.evaluations[j].decision}, /allowed ${single.get(q)}`,
        );
    });
  }
  const allowed = new Map(w.plain.map((q) => [`${q.user}|${q.action}|${q.doc}`, single.get(q)]));
  for (const d of w.docs) {
    for (const action of ['read', 'write']) {
      const found = await post('/access/v1/search/subject', {
        subject: { type: 'user' },
        action: { name: action },
        resource: { type: 'doc', id: d.key },
      });
      const listed = sorted(found.results.map((r: { id: string }) => r.id));
      const expected = sorted(w.users.filter((u) => allowed.get(`${u.key}|${action}|${d.key}`)).map((u) => u.key));
      out.compared++;
      if (listed.join() !== expected.join())
        out.problems.push(`authzen-subject-search ${action} doc:${d.key}: ${listed}, /allowed ${expected}`);
    }
  }
  for (const u of w.users) {
    for (const action of ['read', 'write']) {
      const listed: string[] = [];
      let token = '';
      do {
        const page = await post('/access/v1/search/resource', {
          subject: { type: 'user', id: u.key },
          action: { name: action },
          resource: { type: 'doc' },
          page: { limit: 3, ...(token ? { token } : {}) },
        });
        listed.push(...page.results.map((r: { id: string }) => r.id));
        token = page.page.next_token;
      } while (token && listed.length <= w.docs.length);
      const expected = sorted(w.docs.filter((d) => allowed.get(`${u.key}|${action}|${d.key}`)).map((d) => d.key));
      out.compared++;
      if (listed.join() !== expected.join())
        out.problems.push(`authzen-resource-search ${u.key} ${action}: ${listed}, /allowed ${expected}`);
    }
  }
  return out;
}
