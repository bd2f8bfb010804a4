import type { TestService } from '../support/testService';
import { ANCESTORS, type Graph, ROLES, SERVICE_SCHEMA } from './graphs';

/**
 * The decision endpoints besides `allowed/bulk`, each compared with SpiceDB's answers on the
 * differential test's random graphs: `allowed` with explain, user-permissions, authorized users,
 * effective roles (graph area) and list-objects. A question SpiceDB could not answer (none since
 * cycles reach it in an acyclic form; the differential test fails on one) leaves out every
 * comparison it is part of. Each function answers the list of
 * disagreements (empty: all agree) and how many comparisons it made.
 */
export type Answer = boolean | string;
/** SpiceDB's answer: does `user` have `permission` (an action or a role name) on `instance`? */
export type Reference = (user: string, permission: string, instance: string) => Answer | undefined;
export interface Outcome {
  compared: number;
  problems: string[];
}

const ACTIONS = ['read', 'write'];
const ACTIONS_OF_ROLE: Record<string, string[]> = Object.fromEntries(
  SERVICE_SCHEMA.roles.map(([resource, role]) => [`${resource}#${role.key}`, [...role.permissions]]),
);
const typeOf = (instance: string) => instance.split(':')[0];
const sorted = (xs: Iterable<string>) => [...xs].sort();

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * Whether `path` ("user:u -member-> team:t -viewers-> folder:f#viewer") is a real way through the
 * graph: the user holds the first role on the first node, every later hop is a stored tuple whose
 * derivation turns the role held on the subject into the role on the object (a derivation with
 * `no_direct_roles_on_object` only onto an object the user holds no direct role on), or an
 * `extends` hop on one node ("folder:f#manager -extends-> folder:f#editor") from the held role to
 * a role it extends, and it ends with `role` on `instance`.
 */
export function isRealPath(g: Graph, path: string, user: string, instance: string, role: string): boolean {
  const tokens = path.split(' ');
  if (tokens.length < 3 || tokens.length % 2 === 0 || tokens[0] !== `user:${user}`) return false;
  const [lastNode, lastRole] = tokens[tokens.length - 1].split('#');
  if (lastNode !== instance || lastRole !== role) return false;
  const hop = (i: number) => /^-(.+)->$/.exec(tokens[i])?.[1];
  const nodeAt = (i: number) => tokens[i].split('#')[0];
  let held = hop(1);
  if (!g.assignments.some((a) => a.user === user && a.role === held && a.instance === nodeAt(2))) return false;
  for (let i = 3; i < tokens.length; i += 2) {
    const relation = hop(i);
    const [subject, object] = [nodeAt(i - 1), nodeAt(i + 1)];
    if (relation === 'extends') {
      const [from, to] = [tokens[i - 1].split('#')[1], tokens[i + 1].split('#')[1]];
      if (subject !== object || from !== held || !(ANCESTORS[`${typeOf(subject)}#${held}`] ?? []).includes(to)) return false;
      held = to;
      continue;
    }
    if (!g.tuples.some((x) => x.subject === subject && x.relation === relation && x.object === object)) return false;
    const derived = SERVICE_SCHEMA.derivations.find(
      ([resource, , d]) =>
        resource === typeOf(object) && d.on_resource === typeOf(subject) && d.linked_by_relation === relation && d.role === held,
    );
    if (!derived) return false;
    if ('when' in derived[2] && g.assignments.some((a) => a.user === user && a.instance === object)) return false;
    held = derived[1];
  }
  return held === role;
}

/** `allowed?explain=true` on every `every`-th question: the same answer, and only real granting paths. */
export async function checkExplain(t: TestService, graphs: Graph[], ref: Reference, every: number): Promise<Outcome> {
  const asked = graphs.flatMap((g) => g.questions.filter((_, i) => i % every === 0).map((q) => ({ g, q })));
  const out: Outcome = { compared: 0, problems: [] };
  await inBatches(asked, 8, async ({ g, q }) => {
    const expected = ref(q.user, q.action, q.instance);
    if (typeof expected !== 'boolean') return;
    const [type, key] = q.instance.split(':');
    const res = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}?explain=true`, {
      user: q.user,
      action: q.action,
      resource: { type, key },
    });
    const paths: string[] = res.explanation.paths;
    const wrongPaths = paths.filter((p) => {
      const role = p.split('#').pop()!;
      return !(ACTIONS_OF_ROLE[`${type}#${role}`] ?? []).includes(q.action) || !isRealPath(g, p, q.user, q.instance, role);
    });
    out.compared++;
    if (res.allow !== expected || (expected ? paths.length === 0 : paths.length > 0) || wrongPaths.length) {
      out.problems.push(`explain ${JSON.stringify(q)}: allow ${res.allow} (SpiceDB ${expected}), paths ${JSON.stringify(paths)}`);
    }
  });
  return out;
}

/** user-permissions and effective roles, one call each per user. */
export async function checkUserViews(t: TestService, graphs: Graph[], ref: Reference): Promise<Outcome> {
  const out: Outcome = { compared: 0, problems: [] };
  const users = graphs.flatMap((g) => g.users.map((user) => ({ g, user })));
  await inBatches(users, 8, async ({ g, user }) => {
    const perms = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}/user-permissions`, { user });
    const effective = await t.ok('GET', `/v2/graph/${t.proj}/${t.env}/users/${encodeURIComponent(user)}/effective_roles`);
    const roles: { resource: string; role: string; path: string }[] = effective.roles;
    for (const instance of g.instances) {
      const type = typeOf(instance);
      const granted = ACTIONS.filter((a) => type !== 'team' && ref(user, a, instance) === true);
      const heldRoles = ROLES[type].filter((r) => ref(user, r, instance) === true);
      const knownActions = type === 'team' || ACTIONS.every((a) => typeof ref(user, a, instance) === 'boolean');
      const knownRoles = ROLES[type].every((r) => typeof ref(user, r, instance) === 'boolean');
      const entry = perms[instance] as { permissions: string[]; roles: string[] } | undefined;
      if (knownActions && type !== 'team') {
        out.compared++;
        const ours = sorted((entry?.permissions ?? []).map((p) => p.split(':')[1]));
        if (ours.join() !== sorted(granted).join()) out.problems.push(`user-permissions ${user} ${instance}: ${ours} (SpiceDB ${granted})`);
      }
      if (knownRoles) {
        out.compared += 2;
        const viaPerms = sorted(new Set(entry?.roles ?? []));
        const viaGraph = roles.filter((r) => r.resource === instance);
        if (viaPerms.join() !== sorted(heldRoles).join())
          out.problems.push(`user-permissions roles ${user} ${instance}: ${viaPerms} (SpiceDB ${heldRoles})`);
        if (sorted(viaGraph.map((r) => r.role)).join() !== sorted(heldRoles).join()) {
          out.problems.push(`effective roles ${user} ${instance}: ${viaGraph.map((r) => r.role)} (SpiceDB ${heldRoles})`);
        }
      }
    }
    for (const r of roles) {
      if (!isRealPath(g, r.path, user, r.resource, r.role)) out.problems.push(`effective roles ${user}: not a real path: ${r.path}`);
    }
  });
  return out;
}

/** authorized users of each folder and document, for each action. */
export async function checkAuthorizedUsers(t: TestService, graphs: Graph[], ref: Reference): Promise<Outcome> {
  const out: Outcome = { compared: 0, problems: [] };
  const asked = graphs.flatMap((g) =>
    g.instances.filter((i) => typeOf(i) !== 'team').flatMap((instance) => ACTIONS.map((action) => ({ g, instance, action }))),
  );
  await inBatches(asked, 8, async ({ g, instance, action }) => {
    const answers = g.users.map((user) => ref(user, action, instance));
    if (!answers.every((a) => typeof a === 'boolean')) return;
    const [type, key] = instance.split(':');
    const res = await t.ok('POST', `/v2/allowed/${t.proj}/${t.env}/authorized_users`, { action, resource: { type, key } });
    const expected = g.users.filter((_, i) => answers[i] === true);
    out.compared++;
    if (sorted(Object.keys(res.users)).join() !== sorted(expected).join()) {
      out.problems.push(`authorized_users ${action} ${instance}: ${Object.keys(res.users)} (SpiceDB ${expected})`);
    }
  });
  return out;
}

/** list-objects for each user, action and type, read in pages of `pageSize`. */
export async function checkListObjects(t: TestService, graphs: Graph[], ref: Reference, pageSize: number): Promise<Outcome> {
  const out: Outcome = { compared: 0, problems: [] };
  const asked = graphs.flatMap((g) =>
    g.users.flatMap((user) => ['folder', 'doc'].flatMap((type) => ACTIONS.map((action) => ({ g, user, type, action })))),
  );
  await inBatches(asked, 8, async ({ g, user, type, action }) => {
    const instances = g.instances.filter((i) => typeOf(i) === type);
    const answers = instances.map((i) => ref(user, action, i));
    if (!answers.every((a) => typeof a === 'boolean')) return;
    const expected = instances
      .filter((_, i) => answers[i] === true)
      .map((i) => i.split(':')[1])
      .sort();
    const listed: string[] = [];
    let token: string | null = null;
    do {
      const res: { objects: { type: string; key: string }[]; continuation_token: string | null } = await t.ok(
        'POST',
        `/v2/allowed/${t.proj}/${t.env}/list-objects`,
        { user, action, resource_type: type, page_size: pageSize, ...(token ? { continuation_token: token } : {}) },
      );
      listed.push(...res.objects.map((o) => o.key));
      token = res.continuation_token;
    } while (token !== null && listed.length <= instances.length);
    out.compared++;
    if (listed.join() !== expected.join()) out.problems.push(`list-objects ${user} ${action} ${type}: ${listed} (SpiceDB ${expected})`);
  });
  return out;
}
