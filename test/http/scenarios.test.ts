import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/testService';

/**
 * Authorization scenarios as data (test/scenarios/*.json): those that need two environments,
 * and the seed's worked example (the console's browser test loads it too). Every other scenario
 * is a test file of the `graph-authz` command (test/policy/*.test.yaml, run by
 * test/cli/graph-authz.test.ts). Each phase makes graph changes
 * through the public API, then asks permission questions with expected answers. Every
 * question is asked through the single and the bulk endpoint; both must agree.
 */
type Step = [method: string, path: string, body?: unknown, status?: number | null, env?: string];
type Check =
  | [user: string, action: string, resource: string, allow: boolean]
  | {
      user: string;
      action: string;
      resource: string;
      tenant?: string;
      allow: boolean;
      env?: string;
    };
interface Scenario {
  description: string;
  phases: { do: Step[]; expect: Check[] }[];
}

const dir = join(__dirname, '..', 'scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

/** Each scenario works in environments of its own inside the test project. */
async function envFor(scenario: string, name: string, made: Set<string>): Promise<string> {
  const key = `${scenario}-${name}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
  if (!made.has(key)) {
    const res = await t.call('POST', `/v2/projects/${t.proj}/envs`, { key, name: key });
    if (res.status !== 200) throw new Error(`env ${key}: ${JSON.stringify(res.body)}`);
    made.add(key);
  }
  return key;
}

function toQuery(c: Check) {
  const o = Array.isArray(c) ? { user: c[0], action: c[1], resource: c[2], allow: c[3] } : c;
  const at = o.resource.indexOf(':');
  const [type, key] = at < 0 ? [o.resource, undefined] : [o.resource.slice(0, at), o.resource.slice(at + 1)];
  const env = Array.isArray(c) ? undefined : c.env;
  const tenant = Array.isArray(c) ? undefined : c.tenant;
  return { env, allow: o.allow, query: { user: o.user, action: o.action, resource: { type, key, ...(tenant ? { tenant } : {}) } } };
}

/** user-permissions and authorized_users must agree with allowed on every instance question. */
async function expectViewsAgree(env: string, qs: { allow: boolean; query: ReturnType<typeof toQuery>['query'] }[]) {
  const base = `/v2/allowed/${t.proj}/${env}`;
  for (const { allow, query } of qs) {
    if (!query.resource.key || query.resource.tenant) continue;
    const ref = `${query.resource.type}:${query.resource.key}`;
    const perms = await t.call('POST', `${base}/user-permissions`, { user: query.user });
    expect(perms.status).toBe(200);
    const wanted = `${query.resource.type}:${query.action}`;
    const entries = perms.body as Record<string, { tenant: { key: string }; permissions: string[] }>;
    let viaPerms = entries[ref]?.permissions.includes(wanted) ?? false;
    const tenantGrants = Object.entries(entries).filter(([k, v]) => k.startsWith('__tenant:') && v.permissions.includes(wanted));
    if (!viaPerms && tenantGrants.length) {
      const inst = await t.call('GET', `/v2/facts/${t.proj}/${env}/resource_instances/${encodeURIComponent(ref)}`);
      viaPerms = inst.status === 200 && tenantGrants.some(([, v]) => v.tenant.key === inst.body.tenant);
    }
    const users = await t.call('POST', `${base}/authorized_users`, { action: query.action, resource: query.resource });
    expect(users.status).toBe(200);
    const viaUsers = query.user in users.body.users;
    expect({ q: `${ref} ${query.user} ${query.action}`, viaPerms, viaUsers }).toEqual({
      q: `${ref} ${query.user} ${query.action}`,
      viaPerms: allow,
      viaUsers: allow,
    });
  }
}

describe.each(files)('scenario %s', (file) => {
  const scenario: Scenario = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const name = file.replace(/\.json$/, '');

  it(scenario.description, async () => {
    const made = new Set<string>();
    for (const [i, phase] of scenario.phases.entries()) {
      for (const [method, path, body, status, envName] of phase.do) {
        const env = await envFor(name, envName ?? 'main', made);
        const [area, ...rest] = path.split('/');
        const res = await t.call(method, `/v2/${area}/${t.proj}/${env}/${rest.join('/')}`, body ?? undefined);
        const expected = status ?? undefined;
        const ok = expected === undefined ? res.status >= 200 && res.status < 300 : res.status === expected;
        if (!ok) throw new Error(`phase ${i}: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      const byEnv = new Map<string, { allow: boolean; query: ReturnType<typeof toQuery>['query'] }[]>();
      for (const c of phase.expect) {
        const q = toQuery(c);
        const env = await envFor(name, q.env ?? 'main', made);
        byEnv.set(env, [...(byEnv.get(env) ?? []), q]);
      }
      for (const [env, qs] of byEnv) {
        const bulk = await t.call(
          'POST',
          `/v2/allowed/${t.proj}/${env}/bulk`,
          qs.map((q) => q.query),
        );
        expect(bulk.status).toBe(200);
        const single = await Promise.all(qs.map((q) => t.call('POST', `/v2/allowed/${t.proj}/${env}`, q.query)));
        const got = qs.map((q, k) => ({ q: JSON.stringify(q.query), single: single[k].body.allow, bulk: bulk.body.allow[k].allow }));
        const want = qs.map((q) => ({ q: JSON.stringify(q.query), single: q.allow, bulk: q.allow }));
        expect({ phase: i, answers: got }).toEqual({ phase: i, answers: want });
        await expectViewsAgree(env, qs);
      }
    }
  });
});
