import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { OPERATORS } from '../../src/areas/conditions/evaluate';
import { cellValue, conditionsTable } from '../support/conditionsTable';
import { startTestService, type TestService } from '../support/testService';
import { ATTRIBUTES, generateWorld, type Question, type SpiceWorld, spicedbWorld, truthTableWorld, type World } from './conditionWorlds';

/**
 * Conditions oracle (docs/behaviour.md section 17): random ABAC worlds (test/oracle/conditionWorlds.ts:
 * attribute schemas, user sets and resource sets with nested allOf / anyOf / not groups and
 * parent sets, set rules (is_role ones too), tenant roles beside them (one extending another),
 * random attributes with some missing) are
 * written through our Permit-shaped API, each into an environment of its own, and into SpiceDB
 * as caveats over the same attributes. Every check (bulk, with attributes and context sent on
 * some questions) must agree, and so must list-objects and authorized users (stored attributes,
 * no context). Reproduce with CONDITIONS_SEED=<seed> CONDITIONS_WORLDS=<n>.
 */
const SEED = Number(process.env.CONDITIONS_SEED ?? 20261126);
const COUNT = Number(process.env.CONDITIONS_WORLDS ?? 12);

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

/** SpiceDB's answers to each world (test/oracle/spicedb-caveats.mjs). */
function reference(worlds: SpiceWorld[]): Promise<(boolean | string)[][]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'spicedb-caveats.mjs')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`SpiceDB (caveats) failed (${code}): ${err}`))));
    child.stdin.end(JSON.stringify(worlds));
  });
}

/** Writes a world into a new environment of the test project; answers the environment's key. */
async function load(w: World): Promise<string> {
  const env = `cond${w.index}`;
  await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: env, name: env });
  const schema = `/v2/schema/${t.proj}/${env}`;
  const facts = `/v2/facts/${t.proj}/${env}`;
  await t.ok('POST', `${schema}/resources`, { key: 'doc', name: 'Document', actions: { read: {}, write: {} } });
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
  await t.ok('POST', `${facts}/users/bulk`, { operations: w.users.map((u) => ({ key: u.key, attributes: u.attributes })) });
  const roles = w.users.flatMap((u) => u.roles.map((role) => ({ user: u.key, role, tenant: 'default' })));
  if (roles.length) await t.ok('POST', `${facts}/role_assignments/bulk`, roles);
  await t.ok('POST', `${facts}/resource_instances/bulk`, {
    operations: w.docs.map((d) => ({ key: d.key, resource: 'doc', tenant: 'default', attributes: d.attributes })),
  });
  return env;
}

async function ask(env: string, questions: Question[]): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (let i = 0; i < questions.length; i += 100) {
    const res = await t.ok(
      'POST',
      `/v2/allowed/${t.proj}/${env}/bulk`,
      questions.slice(i, i + 100).map((q) => ({
        user: q.userAttributes ? { key: q.user, attributes: q.userAttributes } : q.user,
        action: q.action,
        resource: { type: 'doc', key: q.doc, tenant: 'default', ...(q.resourceAttributes ? { attributes: q.resourceAttributes } : {}) },
        ...(q.context ? { context: q.context } : {}),
      })),
    );
    answers.push(...res.allow.map((a: { allow: boolean }) => a.allow));
  }
  return answers;
}

it("SpiceDB's caveats answer the truth table of docs/conditions.md as the table says, row by row", async () => {
  // The same rows the evaluator's tests read (test/unit/conditions.test.ts): a row changed in the
  // document moves both. Every row CEL can say (test/oracle/conditionWorlds.ts, celOfRow) is asked.
  const table = conditionsTable('truth-table');
  const { rows, world } = truthTableWorld(table, cellValue);
  const [answers] = await reference([world]);
  const wrong = rows.flatMap((r, i) =>
    answers[i] === r.result
      ? []
      : [`${r.op} ${JSON.stringify(r.attribute)} ${JSON.stringify(r.value)}: table ${r.result}, SpiceDB ${answers[i]}`],
  );
  expect(wrong).toEqual([]);
  // Every operator has rows CEL can say, a missing attribute among them.
  for (const op of OPERATORS) expect(rows.some((r) => r.op === op && r.attribute === undefined)).toBe(true);
  expect(rows.length).toBeGreaterThan(table.length * 0.8);
  console.log(`conditions oracle: ${rows.length} of ${table.length} truth-table rows asked of SpiceDB's caveats, 0 wrong`);
});

it(`agrees with SpiceDB's caveats on ${COUNT} random ABAC worlds (seed ${SEED})`, async () => {
  const worlds = Array.from({ length: COUNT }, (_, i) => generateWorld(SEED, i));
  const references = await reference(worlds.map(spicedbWorld));
  const problems: string[] = [];
  let compared = 0;
  let granted = 0;
  let byRuleOnly = 0;
  for (const [n, w] of worlds.entries()) {
    const env = await load(w);
    const ref = references[n];
    const questions = [...w.questions, ...w.plain];
    expect(ref.filter((r) => typeof r === 'string').slice(0, 3)).toEqual([]);
    const ours = await ask(env, questions);
    questions.forEach((q, i) => {
      compared++;
      if (ours[i]) granted++;
      const holder = w.users.find((u) => u.key === q.user)!;
      if (ours[i] && holder.roles.length === 0) byRuleOnly++;
      if (ours[i] !== ref[i]) problems.push(`world ${w.index}: ${JSON.stringify(q)} ours ${ours[i]} SpiceDB ${ref[i]}`);
    });

    // Lists: stored attributes, no context; the plain questions are their reference.
    const plainRef = (user: string, action: string, doc: string) =>
      ref[w.questions.length + w.plain.findIndex((q) => q.user === user && q.action === action && q.doc === doc)];
    for (const u of w.users) {
      for (const action of ['read', 'write']) {
        const res = await t.ok('POST', `/v2/allowed/${t.proj}/${env}/list-objects`, {
          user: u.key,
          action,
          resource_type: 'doc',
          page_size: 100,
        });
        const listed = res.objects.map((o: { key: string }) => o.key).sort();
        const expected = w.docs
          .filter((d) => plainRef(u.key, action, d.key) === true)
          .map((d) => d.key)
          .sort();
        compared++;
        if (listed.join() !== expected.join())
          problems.push(`world ${w.index}: list-objects ${u.key} ${action}: ${listed} (SpiceDB ${expected})`);
      }
    }
    for (const d of w.docs) {
      for (const action of ['read', 'write']) {
        const res = await t.ok('POST', `/v2/allowed/${t.proj}/${env}/authorized_users`, {
          action,
          resource: { type: 'doc', key: d.key, tenant: 'default' },
        });
        const users = Object.keys(res.users).sort();
        const expected = w.users
          .filter((u) => plainRef(u.key, action, d.key) === true)
          .map((u) => u.key)
          .sort();
        compared++;
        if (users.join() !== expected.join())
          problems.push(`world ${w.index}: authorized_users ${action} ${d.key}: ${users} (SpiceDB ${expected})`);
      }
    }
  }
  expect({ wrong: problems.length, first: problems.slice(0, 5) }).toEqual({ wrong: 0, first: [] });
  // The comparison means something only if rules grant, and deny, often.
  const checks = worlds.reduce((n, w) => n + w.questions.length + w.plain.length, 0);
  expect(granted).toBeGreaterThan(checks * 0.1);
  expect(granted).toBeLessThan(checks * 0.9);
  expect(byRuleOnly).toBeGreaterThan(checks * 0.05);
  console.log(
    `conditions oracle: ${COUNT} worlds, ${compared} answers compared (${granted} checks allowed, ${byRuleOnly} by a rule alone), 0 wrong`,
  );
}, 900_000);
