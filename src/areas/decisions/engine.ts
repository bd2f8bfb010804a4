import type { Scope } from '../../auth/types';
import type { DecisionObserver } from '../../metrics/metrics';
import { compareCodePoints } from '../../util/codePoints';
import { LruCache } from '../../util/lruCache';
import { type CompiledRules, type RuleQuestion, type RuleVerdict, SetRules } from '../conditions/rules';
import type { Asker, Bag, Consistency, ObjectsQuery, PermissionsQuery, Question, UsersQuery } from './question';
import type { Revisions } from './revisions';
import type { AuthorizedAssignment, Decision, EffectiveRole, GraphCheck, ListedObject, TenantRow, Trace, Walk } from './walk';

/**
 * The revision a request is answered at, resolved once per request (DecisionEngine.reading) and
 * passed to every operation of that request: nothing below reads it again (docs/consistency.md).
 */
export interface Reading {
  env: string;
  /** The revision answers are cached and set rules kept at (undefined without a revision ledger). */
  rev?: number;
  /** The revision every read must include on a cluster (a floor: Neo4j reads are read-committed); undefined on one Neo4j. */
  floor?: number;
  /** Whether a cached answer may be served (not under `fully_consistent`). */
  cached: boolean;
  /** The environment's set rules at `rev`, read at most once for the request. */
  rules?: Promise<CompiledRules | null>;
}

/** Where an operation reads: a request's reading, or the scope and consistency to resolve one from. */
export type At = Reading | { scope: Scope; consistency?: Consistency };

/** One answer of `decide`. */
export interface Answer extends Decision {
  /** With `explain`: every set rule on the permission asked, with its sets and conditions (absent: none). */
  verdicts?: RuleVerdict[];
}

export interface PermittedInstance {
  type: string;
  key: string;
  tenant: string;
  roles: string[];
  permissions: string[];
}
export interface PermittedTenant {
  tenant: string;
  roles: string[];
  permissions: string[];
}

/** What `enumerate` answers for each kind of query. */
export interface Enumerations {
  users: { query: UsersQuery; result: { tenant: string; users: Record<string, AuthorizedAssignment[]> } };
  objects: { query: ObjectsQuery; result: ListedObject[] };
  permissions: { query: PermissionsQuery; result: { tenants: PermittedTenant[]; instances: PermittedInstance[] } };
  /** The tenants where a question is allowed (all-tenants): each candidate tenant asked through `decide`. */
  tenants: { query: { question: Question }; result: TenantRow[] };
  /** The tenants a user belongs to (user-tenants). */
  userTenants: { query: { user: string }; result: TenantRow[] };
  /** Each role a user holds, with its path (the console's effective roles); undefined: no such user. */
  roles: { query: { user: string; tenant: string | null }; result: EffectiveRole[] | undefined };
}
export type Enumeration = { [K in keyof Enumerations]: { kind: K } & Enumerations[K]['query'] }[keyof Enumerations];

interface Cached {
  allow: boolean;
  depthLimited: boolean;
  rev: number;
  validUntil?: number | null;
}

/**
 * A list-objects walk reads at most this many objects from the page's start (the largest page);
 * they are kept for the next pages (a longer list walks again after them). A first page reads this
 * many instead of its page size: a millisecond more for a user with a thousand objects, a walk
 * saved on each page after it.
 */
export const LISTED_PER_WALK = 1000;

/** A list kept at a revision: its objects after `from` (null: from the first), all of them when `complete`. */
interface KeptList {
  rev: number;
  validUntil: number | null;
  from: string | null;
  objects: ListedObject[];
  complete: boolean;
}

/** The list a query names: everything that decides its objects but the page. */
const listKey = (env: string, q: ObjectsQuery): string =>
  JSON.stringify([env, q.user, q.userAttributes, q.action, q.type, q.tenant, q.context]);

/**
 * The page after `after` (at most `limit`) from a kept list, or undefined when the list does not
 * hold it: it starts after `after`, or it was cut and has fewer than `limit` objects after `after`.
 */
function pageFrom(kept: KeptList, after: string | null, limit: number): ListedObject[] | undefined {
  if (kept.from !== null && (after === null || compareCodePoints(after, kept.from) < 0)) return undefined;
  let i = 0;
  if (after !== null) while (i < kept.objects.length && compareCodePoints(kept.objects[i].key, after) <= 0) i++;
  const page = kept.objects.slice(i, i + limit);
  return page.length === limit || kept.complete ? page : undefined;
}

/** Whether a kept answer or list holds at revision `rev` at `now`: computed at it, and no expiry it depends on has passed. */
const current = (kept: { rev: number; validUntil?: number | null }, rev: number, now: number): boolean =>
  kept.rev === rev && (kept.validUntil == null || now < kept.validUntil);

/** A bulk decision takes at most this many questions; all-tenants asks its candidates in such chunks. */
const QUESTIONS_PER_CALL = 100;

const graphCheckOf = (q: Question): GraphCheck => ({ user: q.user, action: q.action, type: q.type, key: q.key, tenant: q.tenant });
/** A check that also answers what the set rules read of its user and instance (a rule may decide it). */
const withStored = (q: Question): GraphCheck => ({
  user: q.user,
  action: q.action,
  type: q.type,
  key: q.key,
  tenant: q.tenant,
  stored: true,
});

/**
 * The decision engine (docs/decisions.md): the one place that answers permission questions.
 * `decide` answers questions, `enumerate` lists what the rule allows (users, objects, a user's
 * permissions, tenants, roles). Both combine the walk (the graph: roles, groups, derivations,
 * tenant roles; a backend behind `Walk`) with the set rules (conditions on attributes) in one
 * place, at one revision. The decision cache wraps `decide`: an answer is kept at the revision it
 * was computed at, keyed by the whole question, attributes and context included.
 */
export class DecisionEngine {
  private readonly cache?: LruCache<Cached>;
  /** List-objects' lists, kept for their next pages (LIST_CACHE_SIZE lists). */
  private readonly lists?: LruCache<KeptList>;

  constructor(
    private readonly walk: Walk,
    private readonly revisions?: Revisions,
    /** Set rules (docs/conditions.md): asked only in environments that have some. */
    private readonly rules?: SetRules,
    cacheSize = 0,
    /** Told each cache lookup (the `authz_decision_cache*` metrics) and each list-objects page (`authz_list_pages_total`). */
    private readonly observer?: Pick<DecisionObserver, 'cacheLookups' | 'listPages'>,
    listCacheSize = 0,
  ) {
    if (revisions && cacheSize > 0) this.cache = new LruCache(cacheSize);
    if (revisions && listCacheSize > 0) this.lists = new LruCache(listCacheSize);
  }

  /**
   * The revision a request is answered at. Unless the caller opted into `minimize_latency`, it
   * comes from a read started after the request arrived (shared by the requests waiting with it),
   * or from the key lookup of the request when that read it already (`scope.revision`,
   * src/http/authenticator.ts), so a revoke acknowledged by any replica has moved it past every
   * older cache entry. `minimize_latency` takes the locally known revision (REVISION_POLL_MS old
   * at most). On a cluster every read of the request includes that revision (its floor).
   */
  async reading(scope: Scope, consistency?: Consistency): Promise<Reading> {
    const env = scope.envId;
    const rv = this.revisions;
    if (!rv) return { env, cached: false };
    const rev = consistency === 'minimize_latency' ? await rv.current(env) : await this.latest(scope, rv);
    return { env, rev, floor: rv.routing ? rev : undefined, cached: consistency !== 'fully_consistent' };
  }

  private latest(scope: Scope, rv: Revisions): Promise<number> {
    if (scope.revision === undefined) return rv.latest(scope.envId);
    rv.learn(scope.envId, scope.revision);
    return Promise.resolve(scope.revision);
  }

  /** `at`: a request's reading, or its scope and consistency (then read here, once). */
  private async readingOf(at: At): Promise<Reading> {
    return 'cached' in at ? at : this.reading(at.scope, at.consistency);
  }

  /**
   * Answers questions at `at`: allowed when the walk finds a granting path or a set rule grants.
   * Without `explain`, from the cache where an entry was computed at `r.rev` (and is still valid:
   * an expiring edge on its path ends it), the rest in one walk; with `explain`, every granting
   * path and every set rule on the permission, never cached.
   */
  async decide(at: At, qs: Question[], opts: { explain?: boolean } = {}): Promise<Answer[]> {
    if (qs.length === 0) return [];
    const r = await this.readingOf(at);
    if (opts.explain) return this.explained(r, qs);
    const cache = this.cache && r.rev !== undefined ? this.cache : undefined;
    const keys = cache ? qs.map((q) => cacheKey(r.env, q)) : undefined;
    const out: (Answer | undefined)[] = new Array(qs.length);
    if (cache && keys && r.cached) {
      const now = Date.now();
      for (let i = 0; i < keys.length; i++) {
        const hit = cache.get(keys[i]);
        if (hit && current(hit, r.rev!, now)) out[i] = hit;
      }
    }
    const missing: number[] = [];
    for (let i = 0; i < qs.length; i++) if (out[i] === undefined) missing.push(i);
    if (cache && r.cached) this.observer?.cacheLookups(qs.length - missing.length, missing.length);
    if (missing.length) {
      const fresh = await this.answer(
        r,
        missing.map((i) => qs[i]),
      );
      missing.forEach((i, j) => {
        out[i] = fresh[j].answer;
        if (cache && keys && fresh[j].keep) {
          const a = fresh[j].answer;
          cache.set(keys[i], { allow: a.allow, depthLimited: a.depthLimited, rev: r.rev!, validUntil: a.validUntil });
        }
      });
    }
    return out as Answer[];
  }

  /**
   * The walk, then the set rules for the questions it denies (none read in an environment known to
   * have no rules at `r.rev`). `keep`: whether the answer may be cached at `r.rev` (not when a rule
   * on held tenant roles granted it: such a role may lapse by expiry within a revision).
   */
  private async answer(r: Reading, qs: Question[]): Promise<{ answer: Answer; keep: boolean }[]> {
    // The rules first (kept per revision: no read but the first of a revision), so that the walk
    // answers, for each question a rule may decide, what the rules read of its user and instance.
    const compiled = this.noRulesAt(r) ? null : await this.rulesAt(r);
    const ruled = compiled?.rules ? qs.map((q) => SetRules.grantsOn(compiled, q.type, q.action)) : null;
    const checks = qs.map((q, i) => (ruled?.[i] ? withStored(q) : graphCheckOf(q)));
    const graph = await this.walk.check(r.env, checks, { explain: false, floor: r.floor });
    const out = graph.map((d) => ({ answer: { allow: d.allow, depthLimited: d.depthLimited, validUntil: d.validUntil }, keep: true }));
    const denied: number[] = [];
    for (let i = 0; i < graph.length; i++) if (!graph[i].allow && ruled?.[i]) denied.push(i);
    if (!denied.length || !compiled) return out;
    const verdicts = await this.rules!.decide(
      r.env,
      compiled,
      denied.map((i) => qs[i]),
      r.floor,
      false,
      denied.map((i) => graph[i].stored),
    );
    denied.forEach((i, j) => {
      if (verdicts[j].some((v) => v.granted))
        out[i] = { answer: { allow: true, depthLimited: false, validUntil: null }, keep: !compiled.isRole };
    });
    return out;
  }

  private async explained(r: Reading, qs: Question[]): Promise<Answer[]> {
    const graph = await this.walk.check(r.env, qs.map(graphCheckOf), { explain: true, floor: r.floor });
    const compiled = await this.rulesAt(r);
    const onRules = qs.map((q) => !!compiled && SetRules.grantsOn(compiled, q.type, q.action));
    const verdicts = compiled && onRules.some(Boolean) ? await this.rules!.decide(r.env, compiled, qs, r.floor, true) : undefined;
    return graph.map((d, i) => {
      if (!onRules[i] || !verdicts) return d;
      const allow = d.allow || verdicts[i].some((v) => v.granted);
      return { ...d, allow, depthLimited: d.depthLimited && !allow, verdicts: verdicts[i] };
    });
  }

  /** Lists what the rule allows (see Enumerations), the walk and the set rules combined, at `r`. */
  async enumerate<Q extends Enumeration>(at: At, q: Q): Promise<Enumerations[Q['kind']]['result']> {
    type K = Q['kind'];
    const e: Enumeration = q;
    const r = await this.readingOf(at);
    switch (e.kind) {
      case 'users':
        return (await this.users(r, e)) as Enumerations[K]['result'];
      case 'objects':
        return (await this.objects(r, e)) as Enumerations[K]['result'];
      case 'permissions':
        return (await this.permissions(r, e)) as Enumerations[K]['result'];
      case 'tenants':
        return (await this.tenants(r, e.question)) as Enumerations[K]['result'];
      case 'userTenants':
        return (await this.walk.userTenants(r.env, e.user, r.floor)) as Enumerations[K]['result'];
      case 'roles':
        return (await this.walk.effectiveRoles(r.env, e.user, e.tenant, r.floor)) as Enumerations[K]['result'];
    }
  }

  /**
   * The walk's users, then, where a set rule grants the permission, every user of the environment
   * whose user set holds with their stored attributes, on the resource with its stored
   * attributes overlaid by the ones sent.
   */
  private async users(r: Reading, q: UsersQuery): Promise<Enumerations['users']['result']> {
    const { tenant, assignments } = await this.walk.authorizedUsers(
      r.env,
      { action: q.action, type: q.type, key: q.key, tenant: q.tenant },
      r.floor,
    );
    // Null prototype: a user keyed `constructor` or `__proto__` is a plain key here.
    const users: Record<string, AuthorizedAssignment[]> = Object.create(null);
    for (const a of assignments) (users[a.user] ??= []).push(a);
    const compiled = await this.rulesFor(r, q.type, q.action);
    if (compiled) {
      const [candidates, instance] = await Promise.all([
        this.rules!.candidateUsers(r.env),
        q.key === null ? undefined : this.rules!.instanceOf(r.env, q.type, q.key, r.floor),
      ]);
      const resource = q.key === null ? `${q.type}:*` : `${q.type}:${q.key}`;
      for (const u of candidates) {
        const verdict = this.rules!.verdicts(compiled, Object.assign({}, q, { user: u.key, userAttributes: null }), u, instance).find(
          (v) => v.granted,
        );
        if (verdict) (users[u.key] ??= []).push({ user: u.key, tenant: instance?.tenant ?? tenant, resource, role: verdict.user_set });
      }
    }
    return { tenant, users };
  }

  /**
   * One page of list-objects. Outside `fully_consistent`, the list from the page's start on (up to
   * LISTED_PER_WALK objects) is kept at `r.rev` until the earliest expiry it depends on, so the
   * pages after it are read from it (docs/decisions.md, "Pages"): a page after the first
   * costs what reading that page costs, not a walk. A write moves the revision; an expiring grant
   * on a listed path ends the entry (its `validUntil`); either way the next page walks again.
   */
  private async objects(r: Reading, q: ObjectsQuery): Promise<ListedObject[]> {
    const lists = this.lists && r.cached && r.rev !== undefined ? this.lists : undefined;
    if (!lists) return (await this.listed(r, q, q.limit)).objects;
    const key = listKey(r.env, q);
    const hit = lists.get(key);
    if (hit && current(hit, r.rev!, Date.now())) {
      const page = pageFrom(hit, q.after, q.limit);
      if (page) {
        this.observer?.listPages(true);
        return page;
      }
    }
    this.observer?.listPages(false);
    const found = await this.listed(r, q, Math.max(q.limit, LISTED_PER_WALK + 1));
    const complete = found.objects.length <= LISTED_PER_WALK;
    if (found.keep)
      lists.set(key, {
        rev: r.rev!,
        validUntil: found.validUntil,
        from: q.after,
        objects: complete ? found.objects : found.objects.slice(0, LISTED_PER_WALK),
        complete,
      });
    return found.objects.slice(0, q.limit);
  }

  /**
   * The walk's instances after `q.after`, merged in key order, each once, with those a set rule
   * grants (each candidate of the type with its stored attributes, the user's overlaid by the ones
   * sent); at most `limit`. `keep`: whether the list may be kept at `r.rev` until `validUntil` (not
   * when a set rule on held tenant roles applies: such a role may lapse by expiry within a revision).
   */
  private async listed(
    r: Reading,
    q: ObjectsQuery,
    limit: number,
  ): Promise<{ objects: ListedObject[]; validUntil: number | null; keep: boolean }> {
    const after = q.after;
    const graph = await this.walk.listObjects(
      r.env,
      { user: q.user, action: q.action, type: q.type, tenant: q.tenant, after, limit },
      r.floor,
    );
    const compiled = await this.rulesFor(r, q.type, q.action);
    if (!compiled) return { objects: graph.objects, validUntil: graph.validUntil, keep: true };
    const [user, candidates] = await Promise.all([
      this.rules!.storedUser(r.env, q.user, r.floor),
      this.rules!.candidateInstances(r.env, [q.type], q.tenant === null ? null : [q.tenant]),
    ]);
    const byKey = new Map(graph.objects.map((o) => [o.key, o]));
    for (const i of candidates) {
      if ((after !== null && compareCodePoints(i.key, after) <= 0) || byKey.has(i.key)) continue;
      const verdicts = this.rules!.verdicts(compiled, ruleQuestion(q, q.action, i.type, i.key), user, i);
      if (verdicts.some((v) => v.granted)) byKey.set(i.key, { type: i.type, key: i.key, tenant: i.tenant });
    }
    const objects = [...byKey.values()].sort((a, b) => compareCodePoints(a.key, b.key)).slice(0, limit);
    return { objects, validUntil: graph.validUntil, keep: !compiled.isRole };
  }

  /**
   * The walk's permissions per instance and tenant, plus what set rules grant: for each type some
   * rule grants an action on, every instance of it (in the tenants asked) whose resource set holds it.
   */
  private async permissions(r: Reading, q: PermissionsQuery): Promise<Enumerations['permissions']['result']> {
    const wanted = q.resources ?? [];
    const types = wanted.length ? [...new Set(wanted.map((x) => x.split(':')[0]))] : null;
    const named = new Set(wanted.filter((x) => x.includes(':')));
    const whole = new Set(wanted.filter((x) => !x.includes(':')));
    const asked = (type: string, key: string) => !named.size || named.has(`${type}:${key}`) || whole.has(type);
    const tenants = q.tenants?.length ? q.tenants : null;
    const rows = await this.walk.userPermissions(r.env, q.user, tenants, types, r.floor);
    const instances = new Map<string, PermittedInstance>();
    for (const i of rows.instances) {
      if (asked(i.type, i.resource_key))
        instances.set(i.key, { type: i.type, key: i.resource_key, tenant: i.tenant, roles: i.roles, permissions: i.permissions });
    }
    const compiled = this.noRulesAt(r) ? null : await this.rulesAt(r);
    const ruleTypes = compiled?.rules
      ? [...new Set([...compiled.byPermission.keys()].map((p) => p.split(':')[0]))].filter((t) => !types || types.includes(t))
      : [];
    if (compiled && ruleTypes.length) {
      const [stored, candidates] = await Promise.all([
        this.rules!.storedUser(r.env, q.user, r.floor),
        this.rules!.candidateInstances(r.env, ruleTypes, tenants),
      ]);
      for (const i of candidates) {
        if (!asked(i.type, i.key)) continue;
        const granted = SetRules.actionsOn(compiled, i.type).filter((action) =>
          this.rules!.verdicts(compiled, ruleQuestion(q, action, i.type, i.key), stored, i).some((v) => v.granted),
        );
        if (!granted.length) continue;
        const ref = `${i.type}:${i.key}`;
        const entry = instances.get(ref) ?? { type: i.type, key: i.key, tenant: i.tenant, roles: [], permissions: [] };
        entry.permissions = [...new Set([...entry.permissions, ...granted.map((a) => `${i.type}:${a}`)])];
        instances.set(ref, entry);
      }
    }
    return {
      tenants: rows.tenants.map((t) => ({ tenant: t.tenant, roles: t.roles, permissions: t.permissions })),
      instances: [...instances.values()],
    };
  }

  /**
   * The tenants where the question is allowed: its candidates (the instance's tenant for a stored
   * instance; otherwise the user's tenants and, when a set rule can grant the permission, every
   * tenant of the environment), each asked as the question in that tenant.
   */
  private async tenants(r: Reading, question: Question): Promise<TenantRow[]> {
    const everyTenant = !!(await this.rulesFor(r, question.type, question.action));
    const candidates = (
      await this.walk.candidateTenants(r.env, { user: question.user, type: question.type, key: question.key, everyTenant }, r.floor)
    ).filter((t) => question.tenant === null || t.key === question.tenant);
    const allowed: TenantRow[] = [];
    for (let i = 0; i < candidates.length; i += QUESTIONS_PER_CALL) {
      const chunk = candidates.slice(i, i + QUESTIONS_PER_CALL);
      const answers = await this.decide(
        r,
        chunk.map((t) => Object.assign({}, question, { tenant: t.key })),
      );
      chunk.forEach((t, j) => {
        if (answers[j].allow) allowed.push(t);
      });
    }
    return allowed;
  }

  /** Whether the user holds one of `roles` as a live tenant role in the tenant (the approvals' LEVEL reviewers). */
  holdsTenantRole(r: Reading, user: string, tenant: string, roles: string[]): Promise<boolean> {
    return this.walk.holdsTenantRole(r.env, user, tenant, roles, r.floor);
  }

  /**
   * Whether some question of the user on an instance of the tenant could be allowed `action`: the
   * walk has a live grant to start from, or a set rule grants the action. False means every such
   * check would deny (the approvals' reviewer pre-filter skips them).
   */
  async mayGrantIn(r: Reading, user: string, tenant: string, action: string): Promise<boolean> {
    if (await this.walk.mayGrantIn(r.env, user, tenant, r.floor)) return true;
    const compiled = this.noRulesAt(r) ? null : await this.rulesAt(r);
    return !!compiled?.rules && [...compiled.byPermission.keys()].some((p) => p.endsWith(`:${action}`));
  }

  /** The environment's set rules at `r.rev`, read once for the request; null without a rules engine. */
  private rulesAt(r: Reading): Promise<CompiledRules | null> {
    if (!this.rules) return Promise.resolve(null);
    r.rules ??= this.rules.at(r.env, r.rev, r.floor);
    return r.rules;
  }

  /** The rules when some rule grants `action` on `type`, else null (known without a read in an environment without rules). */
  private async rulesFor(r: Reading, type: string, action: string): Promise<CompiledRules | null> {
    if (this.noRulesAt(r)) return null;
    const compiled = await this.rulesAt(r);
    return compiled && SetRules.grantsOn(compiled, type, action) ? compiled : null;
  }

  /** No rules engine, or the environment is known to have no set rules at `r.rev` (no read, no await). */
  private noRulesAt(r: Reading): boolean {
    return !this.rules || this.rules.noneAt(r.env, r.rev);
  }
}

/** A candidate of an enumeration as the set rules see it: its stored attributes only (no resource attributes sent). */
const ruleQuestion = (q: Asker & { context: Bag }, action: string, type: string, key: string): RuleQuestion => ({
  user: q.user,
  userAttributes: q.userAttributes,
  action,
  type,
  key,
  tenant: null,
  resourceAttributes: null,
  context: q.context,
});

/** The whole question: an answer granted by sent attributes or context is never served to a question that sent others. */
function cacheKey(env: string, q: Question): string {
  const plain = q.userAttributes === null && q.resourceAttributes === null && Object.keys(q.context).length === 0;
  // A plain question's key is its parts length-prefixed (`~` for none): unambiguous, and a fifth of
  // the CPU of JSON.stringify on an array (a cached bulk of 100 makes 100 keys). Other keys are JSON:
  // they start with `[`, which no length-prefixed key does.
  return plain
    ? part(env) + part(q.user) + part(q.action) + part(q.type) + part(q.key) + part(q.tenant)
    : JSON.stringify([env, q.user, q.action, q.type, q.key, q.tenant, q.userAttributes, q.resourceAttributes, q.context]);
}
const part = (v: string | null): string => (v === null ? '~' : `${v.length}:${v}`);

export type { Trace };
