import { dirname, resolve } from 'node:path';
import { type Api, CliError, errorOf } from './api';
import { readDataFile } from './files';

/**
 * Test files (docs/behaviour.md section 16): a policy (inline, or a path relative to the file) and ordered
 * steps: writes, each answering the status it states (any 2xx when it states none), and
 * assertions. docs/policy-as-code.md describes every step with an example.
 */
// biome-ignore lint/suspicious/noExplicitAny: a test file is YAML of any shape, checked by its JSON Schema
type Obj = Record<string, any>;

export interface Failure {
  step: number;
  what: string;
  expected: unknown;
  got: unknown;
}
export interface FileResult {
  file: string;
  name: string;
  passed: number;
  failed: number;
  failures: Failure[];
}
export interface RunOptions {
  /** Also ask every instance check through the bulk endpoint, user-permissions and authorized users (tests of the service itself). */
  crossCheck?: boolean;
}

const ref = (r: string | Obj): { type: string; key?: string; tenant?: string } => {
  if (typeof r !== 'string') return r as { type: string; key?: string; tenant?: string };
  const at = r.indexOf(':');
  return at < 0 ? { type: r } : { type: r.slice(0, at), key: r.slice(at + 1) };
};
const text = (r: string | Obj) => (typeof r === 'string' ? r : `${r.type}${r.key ? `:${r.key}` : ''}`);
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const usersOf = (v: unknown): Obj[] => list(v as Obj | Obj[] | string).map((u) => (typeof u === 'string' ? { key: u } : u));

/** A write step's API calls: [method, path under the environment (area/rest), body]. */
function callsOf(step: Obj, tenant: string): [string, string, unknown][] {
  const t = (x: Obj) => x.tenant ?? tenant;
  const enc = encodeURIComponent;
  const out: [string, string, unknown][] = [];
  for (const x of list<string | Obj>(step.tenants))
    out.push(['POST', 'facts/tenants', typeof x === 'string' ? { key: x, name: x } : { name: x.key, ...x }]);
  for (const x of usersOf(step.users)) out.push(['POST', 'facts/users', x]);
  for (const x of list<string | Obj>(step.instances)) {
    const o = typeof x === 'string' ? { ref: x } : x;
    const r = ref(o.ref ?? `${o.resource}:${o.key}`);
    out.push([
      'POST',
      'facts/resource_instances',
      { key: r.key, resource: r.type, tenant: t(o), ...(o.attributes ? { attributes: o.attributes } : {}) },
    ]);
  }
  for (const x of list<Obj>(step.tuples)) out.push(['POST', 'facts/relationship_tuples', x]);
  for (const x of list<Obj>(step.role_assignments)) {
    const { on, ...rest } = x;
    out.push(['POST', 'facts/role_assignments', { ...rest, tenant: t(x), ...(on ? { resource_instance: on } : {}) }]);
  }
  for (const x of list<string | Obj>(step.groups)) {
    const o = typeof x === 'string' ? { key: x } : x;
    out.push([
      'POST',
      'schema/groups',
      {
        group_instance_key: o.key,
        group_tenant: t(o),
        ...(o.type ? { group_resource_type_key: o.type } : {}),
        ...(o.name ? { name: o.name } : {}),
      },
    ]);
  }
  for (const x of list<Obj>(step.group_roles)) {
    const r = ref(x.on);
    out.push([
      'POST',
      `schema/groups/${enc(x.group)}/roles`,
      { resource: r.type, resource_instance: r.key, role: x.role, tenant: t(x), ...(x.expires_at ? { expires_at: x.expires_at } : {}) },
    ]);
  }
  for (const x of list<Obj>(step.members)) {
    for (const u of list<string>(x.users ?? x.user))
      out.push([
        'PUT',
        `schema/groups/${enc(x.group)}/users/${enc(u)}`,
        { tenant: t(x), ...(x.expires_at ? { expires_at: x.expires_at } : {}) },
      ]);
  }
  for (const x of list<Obj>(step.group_parents))
    out.push(['PUT', `schema/groups/${enc(x.group)}/assign_group`, { group_instance_key: x.parent }]);
  for (const x of list<Obj>(step.group_instances)) {
    const r = ref(x.instance);
    out.push(['PUT', `schema/groups/${enc(x.group)}/resource_instances`, { resource: r.type, resource_instance: r.key, tenant: t(x) }]);
  }
  for (const x of list<Obj>(step.delete)) out.push(...deletionsOf(x, tenant));
  if (step.call) {
    const [method, path, body] = step.call as [string, string, unknown];
    out.push([method, path, body]);
  }
  return out;
}

function deletionsOf(x: Obj, tenant: string): [string, string, unknown][] {
  const enc = encodeURIComponent;
  const t = x.tenant ?? tenant;
  if (x.user !== undefined && x.group === undefined && x.role === undefined) return [['DELETE', `facts/users/${enc(x.user)}`, undefined]];
  if (x.tenant !== undefined && Object.keys(x).length === 1) return [['DELETE', `facts/tenants/${enc(x.tenant)}`, undefined]];
  if (x.instance !== undefined && x.group === undefined) return [['DELETE', `facts/resource_instances/${enc(x.instance)}`, undefined]];
  if (x.tuple !== undefined) return [['DELETE', 'facts/relationship_tuples', x.tuple]];
  if (x.role_assignment !== undefined) {
    const { on, ...rest } = x.role_assignment;
    return [['DELETE', 'facts/role_assignments', { ...rest, tenant: rest.tenant ?? tenant, ...(on ? { resource_instance: on } : {}) }]];
  }
  if (x.group !== undefined && x.user !== undefined)
    return [['DELETE', `schema/groups/${enc(x.group)}/users/${enc(x.user)}`, { tenant: t }]];
  if (x.group !== undefined && x.role !== undefined) {
    const r = ref(x.on);
    return [['DELETE', `schema/groups/${enc(x.group)}/roles`, { resource: r.type, resource_instance: r.key, role: x.role, tenant: t }]];
  }
  if (x.group !== undefined && x.parent !== undefined)
    return [['DELETE', `schema/groups/${enc(x.group)}/assign_group`, { group_instance_key: x.parent }]];
  if (x.group !== undefined && x.instance !== undefined) {
    const r = ref(x.instance);
    return [['DELETE', `schema/groups/${enc(x.group)}/resource_instances`, { resource: r.type, resource_instance: r.key, tenant: t }]];
  }
  if (x.group !== undefined) return [['DELETE', `schema/groups/${enc(x.group)}`, undefined]];
  throw new CliError(
    `a delete names nothing it knows: ${JSON.stringify(x)} (user, tenant, instance, tuple, role_assignment, group with user/role/parent/instance)`,
    2,
  );
}

const WRITE_KINDS = [
  'tenants',
  'users',
  'instances',
  'tuples',
  'role_assignments',
  'groups',
  'group_roles',
  'members',
  'group_parents',
  'group_instances',
  'delete',
  'call',
];
const ASSERT_KINDS = ['check', 'checks', 'list_objects', 'authorized_users', 'explain'];

/** Runs one test file's steps in the environment `env` of `project` (empty, with the file's policy applied first). */
export async function runTestFile(api: Api, file: string, project: string, env: string, opts: RunOptions = {}): Promise<FileResult> {
  const doc = readDataFile(file) as Obj;
  const steps = list<Obj>(doc.steps);
  const result: FileResult = { file, name: doc.name ?? file, passed: 0, failed: 0, failures: [] };
  const envPath = (p: string) =>
    p.startsWith('/')
      ? p
      : `/v2/${p.split('/')[0]}/${encodeURIComponent(project)}/${encodeURIComponent(env)}/${p.split('/').slice(1).join('/')}`.replace(
          /\/$/,
          '',
        );
  const fail = (step: number, what: string, expected: unknown, got: unknown) => {
    result.failed++;
    result.failures.push({ step, what, expected, got });
  };
  const pass = () => result.passed++;
  const tenant = doc.tenant ?? 'default';

  const policy = typeof doc.policy === 'string' ? readDataFile(resolve(dirname(file), doc.policy)) : doc.policy;
  if (policy) {
    const res = await api.call('PUT', envPath('schema/policy'), policy);
    if (res.status >= 300) {
      fail(0, 'apply the policy', 'applied', errorOf('PUT', 'policy', res).message);
      return result;
    }
  }
  for (const [i, step] of steps.entries()) {
    const n = i + 1;
    const kinds = Object.keys(step).filter((k) => k !== 'status' && k !== 'name');
    const unknown = kinds.filter((k) => !WRITE_KINDS.includes(k) && !ASSERT_KINDS.includes(k));
    if (unknown.length)
      throw new CliError(
        `${file}: step ${n} has unknown field(s) ${unknown.join(', ')}; writes: ${WRITE_KINDS.join(', ')}; assertions: ${ASSERT_KINDS.join(', ')}`,
        2,
      );
    if (kinds.some((k) => WRITE_KINDS.includes(k))) {
      for (const [method, path, body] of callsOf(step, tenant)) {
        const res = await api.call(method, envPath(path), body);
        const ok = step.status === undefined ? res.status >= 200 && res.status < 300 : res.status === step.status;
        if (!ok) {
          fail(n, `${method} ${path}`, step.status ?? '2xx', `${res.status} ${(res.body as Obj | undefined)?.message ?? ''}`.trim());
          return result; // later steps build on this one
        }
      }
      pass();
    }
    for (const c of [...list<Obj>(step.check), ...list<Obj | unknown[]>(step.checks)]) {
      const q = Array.isArray(c) ? { user: c[0], action: c[1], resource: c[2], allow: c[3] } : c;
      await assertCheck(api, envPath, n, q as Obj, opts, pass, fail);
    }
    if (step.list_objects) {
      const q = step.list_objects as Obj;
      const got: string[] = [];
      let token: string | null = null;
      do {
        const page: { objects: { type: string; key: string }[]; continuation_token: string | null } = await api.ok(
          'POST',
          envPath('allowed/list-objects'),
          {
            user: q.user,
            action: q.action,
            resource_type: q.resource_type,
            ...(q.tenant ? { tenant: q.tenant } : {}),
            page_size: 1000,
            ...(token ? { continuation_token: token } : {}),
          },
        );
        got.push(...page.objects.map((o) => `${o.type}:${o.key}`));
        token = page.continuation_token;
      } while (token);
      const want = list<string>(q.equals)
        .map((x) => (x.includes(':') ? x : `${q.resource_type}:${x}`))
        .sort();
      if (JSON.stringify(got.sort()) === JSON.stringify(want)) pass();
      else fail(n, `list_objects ${q.user} ${q.action} ${q.resource_type}`, want, got);
    }
    if (step.authorized_users) {
      const q = step.authorized_users as Obj;
      const res = await api.ok('POST', envPath('allowed/authorized_users'), {
        action: q.action,
        resource: { ...ref(q.resource), ...(q.tenant ? { tenant: q.tenant } : {}) },
      });
      const got = Object.keys(res.users ?? {}).sort();
      const want = list<string>(q.equals).sort();
      if (JSON.stringify(got) === JSON.stringify(want)) pass();
      else fail(n, `authorized_users ${q.action} ${text(q.resource)}`, want, got);
    }
    if (step.explain) {
      const q = step.explain as Obj;
      const res = await api.ok('POST', envPath('allowed'), {
        user: q.user,
        action: q.action,
        resource: { ...ref(q.resource), ...(q.tenant ? { tenant: q.tenant } : {}) },
        explain: true,
      });
      const paths: string[] = res.explanation?.paths ?? [];
      const missing = list<string>(q.contains).filter((s) => !paths.some((p) => p.includes(s)));
      const allowOk = q.allow === undefined || res.allow === q.allow;
      if (!missing.length && allowOk) pass();
      else
        fail(
          n,
          `explain ${q.user} ${q.action} ${text(q.resource)}`,
          { ...(q.allow === undefined ? {} : { allow: q.allow }), paths_containing: list(q.contains) },
          { allow: res.allow, paths },
        );
    }
  }
  return result;
}

async function assertCheck(
  api: Api,
  envPath: (p: string) => string,
  n: number,
  q: Obj,
  opts: RunOptions,
  pass: () => void,
  fail: (n: number, what: string, e: unknown, g: unknown) => void,
) {
  const resource = {
    ...ref(q.resource),
    ...(q.tenant ? { tenant: q.tenant } : {}),
    ...(q.resource_attributes ? { attributes: q.resource_attributes } : {}),
  };
  // Conditions (docs/behaviour.md section 17): attributes sent with the question overlay the stored ones; `context` is the question's.
  const sent = q.user_attributes !== undefined || q.resource_attributes !== undefined || q.context !== undefined;
  const query = {
    user: q.user_attributes ? { key: q.user, attributes: q.user_attributes } : q.user,
    action: q.action,
    resource,
    ...(q.context ? { context: q.context } : {}),
  };
  const what = `check ${q.user} ${q.action} ${text(q.resource)}${q.tenant ? ` (tenant ${q.tenant})` : ''}${
    q.context ? ` with context ${JSON.stringify(q.context)}` : ''
  }`;
  const word = (b: boolean) => (b ? 'allowed' : 'denied');
  const res = await api.ok('POST', envPath('allowed'), query);
  if (res.allow !== q.allow) return fail(n, what, word(q.allow), word(res.allow));
  if (opts.crossCheck) {
    const bulk = await api.ok('POST', envPath('allowed/bulk'), [query]);
    if (bulk.allow[0].allow !== q.allow) return fail(n, `${what} (bulk)`, word(q.allow), word(bulk.allow[0].allow));
    // user-permissions and authorized users read stored attributes and no context: only for questions that send none.
    if (resource.key && !q.tenant && !sent) {
      const perms = await api.ok('POST', envPath('allowed/user-permissions'), { user: q.user });
      const wanted = `${resource.type}:${q.action}`;
      const ref = `${resource.type}:${resource.key}`;
      let viaPerms = perms[ref]?.permissions.includes(wanted) ?? false;
      const tenantGrants = Object.entries(perms as Obj).filter(([k, v]) => k.startsWith('__tenant:') && v.permissions.includes(wanted));
      if (!viaPerms && tenantGrants.length) {
        const inst = await api.call('GET', envPath(`facts/resource_instances/${encodeURIComponent(ref)}`));
        viaPerms = inst.status === 200 && tenantGrants.some(([, v]) => v.tenant.key === inst.body.tenant);
      }
      if (viaPerms !== q.allow) return fail(n, `${what} (user-permissions)`, word(q.allow), word(viaPerms));
      const users = await api.ok('POST', envPath('allowed/authorized_users'), { action: q.action, resource });
      if (q.user in users.users !== q.allow) return fail(n, `${what} (authorized_users)`, word(q.allow), word(q.user in users.users));
    }
  }
  pass();
}
