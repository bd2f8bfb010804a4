import type { Scope } from '../../auth/types';
import type { DecisionObserver } from '../../metrics/metrics';
import { LruCache } from '../../util/lruCache';
import { type CompiledRules, type RuleQuestion, type RuleVerdict, SetRules } from '../conditions/rules';
import type { Revisions } from './revisions';
import type { AuthorizedAssignment, Decision, DecisionStore, NormalizedCheck } from './store';

/**
 * Without `consistency` (and with `fully_consistent` or `{at_least}`) an answer includes every
 * write acknowledged by any replica before the question arrived (read-your-revoke, CONTRACT
 * section 9). `minimize_latency`, only when asked for, may answer from a state up to
 * REVISION_POLL_MS old. `fully_consistent` never uses the cache.
 */
export type Consistency = 'minimize_latency' | 'fully_consistent' | { at_least: string };

type Bag = Record<string, unknown>;
export interface CheckQuery {
  /** A user object may carry `attributes`: they overlay the stored ones for set rules (CONTRACT section 17). */
  user: string | { key: string; attributes?: Bag | null };
  action: string;
  /** `id` is Permit's other name for the instance's key (its SDKs send either). */
  resource: {
    type: string;
    key?: string | null;
    id?: string | null;
    tenant?: string | null;
    attributes?: Bag | null;
    context?: Bag | null;
  };
  context?: Bag | null;
  explain?: boolean;
  consistency?: Consistency;
}

/** A check as the set rules see it: with the attributes and context it sent. */
export function ruleQuestionOf(q: CheckQuery): RuleQuestion {
  const c = normalizeCheck(q);
  return {
    ...c,
    userAttributes: typeof q.user === 'object' ? (q.user.attributes ?? null) : null,
    resourceAttributes: q.resource.attributes ?? null,
    context: { ...(q.resource.context ?? {}), ...(q.context ?? {}) },
  };
}

/** A set rule's verdict as explain shows it: the rule, its sets, and each condition with the value found. */
const verdictView = (v: RuleVerdict) => ({
  rule: v.rule,
  permission: v.permission,
  user_set: v.user_set,
  resource_set: v.resource_set,
  granted: v.granted,
  sets: v.sets.map((s) => ({
    set: s.set,
    kind: s.kind,
    held: s.held,
    conditions: s.conditions.map((l) => ({
      condition: l.path,
      attribute: l.attribute,
      operator: l.operator,
      value: l.value,
      found: l.actual ?? null,
      held: l.held,
    })),
  })),
});

export interface UserPermissionsQuery {
  user: string | { key: string; attributes?: Bag | null };
  context?: Bag | null;
  /** null means not sent (CONTRACT section 14). */
  tenants?: string[] | null;
  resources?: string[] | null;
  resource_types?: string[] | null;
}

/** The instance a decision names: by `key`, else by `id` (Permit's PDP takes either). */
export const instanceKeyOf = (resource: { key?: string | null; id?: string | null }): string | null => resource.key ?? resource.id ?? null;

export interface Explanation {
  paths: string[];
  reason: string;
  granting_roles: string[];
  tenant: string;
  states_visited: number;
  /** The set rules on the permission asked, with each set and condition (CONTRACT section 17); absent without rules. */
  set_rules?: ReturnType<typeof verdictView>[];
}

export function normalizeCheck(q: CheckQuery): NormalizedCheck {
  return {
    user: typeof q.user === 'string' ? q.user : q.user.key,
    action: q.action,
    type: q.resource.type,
    key: instanceKeyOf(q.resource),
    tenant: q.resource.tenant ?? null,
  };
}

/**
 * Decisions (CONTRACT section 5). Unknown users, resources or actions answer false, not an
 * error: the traversal simply finds no granting path.
 */
export class DecisionService {
  private readonly cache?: LruCache<{ allow: boolean; depthLimited: boolean; rev: number; validUntil?: number | null }>;

  constructor(
    private readonly store: DecisionStore,
    private readonly maxDepth: number,
    private readonly revisions?: Revisions,
    cacheSize = 0,
    /** Told each answer and cache lookup (the `authz_decision*` metrics, the decision log). */
    private readonly observer?: DecisionObserver,
    /** Set rules (CONTRACT section 17): asked only in environments that have some. */
    private readonly rules?: SetRules,
  ) {
    if (revisions && cacheSize > 0) this.cache = new LruCache(cacheSize);
  }

  /** `depthLimited`: MAX_DERIVATION_DEPTH cut the walk; the answer is false and its explanation names the limit. */
  async allowed(
    scope: Scope,
    q: CheckQuery,
    explain = false,
  ): Promise<{ allow: boolean; explanation?: Partial<Explanation>; depthLimited?: true }> {
    const check = normalizeCheck(q);
    if (!(explain || q.explain)) {
      const {
        decisions: [graph],
        rev,
      } = await this.decide(scope, [check], q.consistency);
      const byRule = !graph.allow && !this.noRulesAt(scope, rev) && (await this.byRules(scope, [q], q.consistency, rev))[0];
      const allow = graph.allow || byRule;
      this.observer?.decided(scope.envId, [check], [allow]);
      return graph.depthLimited && !allow
        ? { allow, explanation: { paths: [], reason: this.depthLimitReason(check) }, depthLimited: true }
        : { allow };
    }
    const floor = await this.floor(scope);
    const [decision] = await this.store.explain(scope.envId, [check], floor);
    const explanation = this.explanationOf(check, decision);
    const compiled = await this.rulesAt(scope, q.consistency);
    if (compiled && SetRules.grantsOn(compiled, check.type, check.action)) {
      const [verdicts] = await this.rules!.decide(scope.envId, compiled, [ruleQuestionOf(q)], floor, true);
      explanation.set_rules = verdicts.map(verdictView);
      const granted = verdicts.filter((v) => v.granted);
      if (granted.length && !decision.allow) {
        decision.allow = true;
        decision.depthLimited = false;
        explanation.reason = `The set rule(s) ${granted.map((v) => JSON.stringify(v.rule)).join(', ')} grant "${check.action}" on ${check.type}${check.key === null ? '' : `:${check.key}`}.`;
      }
    }
    this.observer?.decided(scope.envId, [check], [decision.allow], [explanation.reason]);
    return decision.depthLimited ? { allow: decision.allow, explanation, depthLimited: true } : { allow: decision.allow, explanation };
  }

  private depthLimitReason(c: NormalizedCheck): string {
    const target = c.key === null ? `${c.type} (type level)` : `${c.type}:${c.key}`;
    return (
      `The search for a path from the user to ${target} reached MAX_DERIVATION_DEPTH (${this.maxDepth} hops) without an answer; ` +
      'paths longer than that are not followed, so the answer is false.'
    );
  }

  /** Permit's user-permissions: `"type:key"` / `"__tenant:t"` -> {tenant, resource, permissions, roles}. */
  async userPermissions(scope: Scope, q: UserPermissionsQuery) {
    const user = typeof q.user === 'string' ? q.user : q.user.key;
    const wanted = [...(q.resources ?? []), ...(q.resource_types ?? [])];
    const types = wanted.length ? [...new Set(wanted.map((r) => r.split(':')[0]))] : null;
    const instances = new Set(wanted.filter((r) => r.includes(':')));
    const typesWhole = new Set(wanted.filter((r) => !r.includes(':')));
    const rows = await this.store.userPermissions(scope.envId, user, q.tenants?.length ? q.tenants : null, types, await this.floor(scope));
    const out: Record<string, unknown> = {};
    for (const t of rows?.tenants ?? []) {
      out[t.key] = { tenant: { key: t.tenant, attributes: {} }, resource: null, permissions: t.permissions, roles: t.roles };
    }
    for (const i of rows?.instances ?? []) {
      if (instances.size && !instances.has(i.key) && !typesWhole.has(i.type)) continue;
      out[i.key] = {
        tenant: { key: i.tenant, attributes: {} },
        resource: { type: i.type, key: i.resource_key, attributes: {} },
        permissions: i.permissions,
        roles: i.roles,
      };
    }
    await this.userPermissionsByRules(scope, q, user, types, instances, typesWhole, out);
    return out;
  }

  /**
   * Adds what set rules grant: for each type some rule grants an action on, every instance of it
   * (in the tenants asked) whose resource set holds it, with the user's stored attributes overlaid
   * by the ones sent.
   */
  private async userPermissionsByRules(
    scope: Scope,
    q: UserPermissionsQuery,
    user: string,
    types: string[] | null,
    instances: Set<string>,
    typesWhole: Set<string>,
    out: Record<string, unknown>,
  ): Promise<void> {
    const compiled = await this.rulesAt(scope);
    if (!compiled?.rules) return;
    const ruleTypes = [...new Set([...compiled.byPermission.keys()].map((p) => p.split(':')[0]))].filter(
      (t) => !types || types.includes(t),
    );
    if (!ruleTypes.length) return;
    const floor = await this.floor(scope);
    const [stored, candidates] = await Promise.all([
      this.rules!.storedUser(scope.envId, user, floor),
      this.rules!.candidateInstances(scope.envId, ruleTypes, q.tenants?.length ? q.tenants : null),
    ]);
    const userAttributes = typeof q.user === 'object' ? (q.user.attributes ?? null) : null;
    for (const i of candidates) {
      const ref = `${i.type}:${i.key}`;
      if (instances.size && !instances.has(ref) && !typesWhole.has(i.type)) continue;
      const granted = SetRules.actionsOn(compiled, i.type).filter((action) =>
        this.rules!.verdicts(
          compiled,
          { user, action, type: i.type, key: i.key, tenant: null, userAttributes, context: q.context ?? {} },
          stored,
          i,
        ).some((v) => v.granted),
      );
      if (!granted.length) continue;
      const entry = (out[ref] ??= {
        tenant: { key: i.tenant, attributes: {} },
        resource: { type: i.type, key: i.key, attributes: {} },
        permissions: [],
        roles: [],
      }) as { permissions: string[] };
      entry.permissions = [...new Set([...entry.permissions, ...granted.map((a) => `${i.type}:${a}`)])];
    }
  }

  /** Permit's authorized_users: every user allowed `action` on the resource, with the assignments that grant it. */
  async authorizedUsers(scope: Scope, q: { action: string; resource: CheckQuery['resource']; context?: Bag | null }) {
    const key = instanceKeyOf(q.resource);
    const { tenant, assignments } = await this.store.authorizedUsers(
      scope.envId,
      {
        action: q.action,
        type: q.resource.type,
        key,
        tenant: q.resource.tenant ?? null,
      },
      await this.floor(scope),
    );
    // Null prototype: a user keyed `constructor` or `__proto__` is a plain key here.
    const users: Record<string, AuthorizedAssignment[]> = Object.create(null);
    for (const a of assignments) (users[a.user] ??= []).push(a);
    // Set rules (CONTRACT section 17): every user of the environment whose user set holds, with their stored attributes.
    const compiled = await this.rulesAt(scope);
    if (compiled && SetRules.grantsOn(compiled, q.resource.type, q.action)) {
      const floor = await this.floor(scope);
      const question = ruleQuestionOf({ user: '', action: q.action, resource: q.resource, context: q.context });
      const [candidates, instance] = await Promise.all([
        this.rules!.candidateUsers(scope.envId),
        key === null ? undefined : this.rules!.instanceOf(scope.envId, q.resource.type, key, floor),
      ]);
      const resource = key === null ? `${q.resource.type}:*` : `${q.resource.type}:${key}`;
      for (const u of candidates) {
        const verdict = this.rules!.verdicts(compiled, { ...question, user: u.key }, u, instance).find((v) => v.granted);
        if (verdict) (users[u.key] ??= []).push({ user: u.key, tenant: instance?.tenant ?? tenant, resource, role: verdict.user_set });
      }
    }
    return { resource: key === null ? `${q.resource.type}:*` : `${q.resource.type}:${key}`, tenant, users };
  }

  /** Every granting path as readable hops, or why nothing grants. */
  private explanationOf(c: NormalizedCheck, d: Decision): Explanation {
    const t = d.trace!;
    const target = c.key === null ? `${c.type} (type level)` : `${c.type}:${c.key}`;
    let reason: string;
    if (d.allow) reason = `${t.paths.length} path(s) grant "${c.action}" on ${target}.`;
    else if (!t.user_found) reason = `User ${JSON.stringify(c.user)} is unknown in this environment.`;
    else if (c.tenant !== null && c.tenant !== t.tenant)
      reason = `${target} belongs to tenant ${JSON.stringify(t.tenant)}, not ${JSON.stringify(c.tenant)}.`;
    else if (t.granting_roles.length === 0 && !t.tenant_role_grant)
      reason = `No role grants "${c.action}" on resource type ${JSON.stringify(c.type)}.`;
    else if (c.key !== null && !t.searched) reason = `Resource instance ${target} does not exist.`;
    else if (d.depthLimited) reason = this.depthLimitReason(c);
    else
      reason =
        `No tenant role in ${JSON.stringify(t.tenant)} and no path of at most ${this.maxDepth} hops from the user to ` +
        `${target} with one of the roles [${t.granting_roles.join(', ')}] (${t.states_visited} states visited).`;
    return { paths: t.paths, reason, granting_roles: t.granting_roles, tenant: t.tenant, states_visited: t.states_visited };
  }

  async allowedBulk(scope: Scope, qs: CheckQuery[]): Promise<{ allow: { allow: boolean }[]; depthLimited?: true }> {
    // The largest `at_least` token: the answers include every write any of the questions has seen.
    const tokens = qs
      .flatMap((q) => (typeof q.consistency === 'object' ? [q.consistency] : []))
      .sort((a, b) => (Number(b.at_least) || 0) - (Number(a.at_least) || 0));
    const strictest = qs.find((q) => q.consistency === 'fully_consistent')?.consistency ?? tokens[0];
    const checks = qs.map(normalizeCheck);
    const decided = await this.decide(scope, checks, strictest);
    const answers = decided.decisions.map((a) => ({ ...a }));
    const denied = answers.flatMap((a, i) => (a.allow ? [] : [i]));
    if (denied.length && !this.noRulesAt(scope, decided.rev)) {
      const byRule = await this.byRules(
        scope,
        denied.map((i) => qs[i]),
        strictest,
        decided.rev,
      );
      denied.forEach((i, j) => {
        if (byRule[j]) answers[i] = { ...answers[i], allow: true, depthLimited: false };
      });
    }
    this.observer?.decided(
      scope.envId,
      checks,
      answers.map((a) => a.allow),
    );
    const allow = answers.map((a) => ({ allow: a.allow }));
    return answers.some((a) => a.depthLimited) ? { allow, depthLimited: true } : { allow };
  }

  /**
   * Answers from the cache where the entry was computed at the environment's revision; asks the
   * graph for the rest (one query). Unless the caller opted into `minimize_latency`, that
   * revision comes from a read started after the question arrived (shared by the questions
   * waiting with it), so a revoke acknowledged by any replica has already moved it past every
   * older entry. The key lookup of the request made that read already when it carries
   * `scope.revision` (src/http/authenticator.ts): no second round trip then.
   * On a cluster every traversal must include that revision (a secondary may lag: Db.readOnce).
   * `rev`: the revision it read for the cache (undefined when it read none), for the set rules of
   * the same questions (byRules), which then read no revision again.
   */
  private async decide(
    scope: Scope,
    checks: NormalizedCheck[],
    consistency?: Consistency,
  ): Promise<{ decisions: Decision[]; rev?: number }> {
    const env = scope.envId;
    if (!this.cache) return { decisions: await this.store.allowed(env, checks, await this.floor(scope)) };
    if (consistency === 'fully_consistent') {
      // Never answered from the cache; but the answers fill it, at the revision known before the
      // traversal started (the traversal saw at least that state, so later questions at that
      // revision may use them).
      const known = this.revisions!.known(env);
      // On a cluster the traversal includes at least that revision too, or the answer it fills in
      // could be older than the revision it is kept at.
      const floor = await this.floor(scope);
      const fresh = await this.store.allowed(env, checks, floor === undefined ? undefined : Math.max(floor, known ?? 0));
      if (known !== undefined) fresh.forEach((d, i) => this.remember(this.cacheKey(env, checks[i]), d, known));
      return { decisions: fresh };
    }
    const rev = consistency === 'minimize_latency' ? await this.revisions!.current(env) : await this.latest(scope);
    const keys = checks.map((c) => this.cacheKey(env, c));
    const out: (Decision | undefined)[] = keys.map((k) => {
      const hit = this.cache!.get(k);
      // An entry whose granting path has an expiring edge is not served from that instant on.
      return hit && hit.rev === rev && (hit.validUntil == null || Date.now() < hit.validUntil) ? hit : undefined;
    });
    const missing = out.flatMap((a, i) => (a === undefined ? [i] : []));
    this.observer?.cacheLookups(checks.length - missing.length, missing.length);
    if (missing.length) {
      const fresh = await this.store.allowed(
        env,
        missing.map((i) => checks[i]),
        rev,
      );
      missing.forEach((i, j) => {
        out[i] = fresh[j];
        this.remember(keys[i], fresh[j], rev);
      });
    }
    return { decisions: out as Decision[], rev };
  }

  private cacheKey(env: string, c: NormalizedCheck): string {
    return JSON.stringify([env, c.user, c.action, c.type, c.key, c.tenant]);
  }

  private remember(key: string, d: Decision, rev: number): void {
    this.cache!.set(key, { allow: d.allow, depthLimited: d.depthLimited, rev, validUntil: d.validUntil });
  }

  /**
   * The environment's set rules at the revision a question is answered at (kept per revision, so
   * an environment without rules reads nothing more per check); null without a rules engine.
   * `known`: that revision when the caller has read it already (the graph part's, decide).
   */
  private async rulesAt(scope: Scope, consistency?: Consistency, known?: number): Promise<CompiledRules | null> {
    if (!this.rules) return null;
    const rev =
      known ??
      (!this.revisions
        ? undefined
        : consistency === 'minimize_latency'
          ? await this.revisions.current(scope.envId)
          : await this.latest(scope));
    return this.rules.at(scope.envId, rev, await this.floor(scope));
  }

  /** No rules engine, or the environment has no set rules at `rev` (known without a read). */
  private noRulesAt(scope: Scope, rev: number | undefined): boolean {
    return !this.rules || this.rules.noneAt(scope.envId, rev);
  }

  /**
   * Whether a set rule grants each question (false where none is on its permission). `rev`: the
   * revision the graph part of the same questions was answered at (decide), read once for both.
   */
  private async byRules(scope: Scope, qs: CheckQuery[], consistency?: Consistency, rev?: number): Promise<boolean[]> {
    const compiled = await this.rulesAt(scope, consistency, rev);
    if (!compiled?.rules) return qs.map(() => false);
    const verdicts = await this.rules!.decide(scope.envId, compiled, qs.map(ruleQuestionOf), await this.floor(scope));
    return verdicts.map((v) => v.some((x) => x.granted));
  }

  /** Whether some set rule of the environment grants `action` (on any type): the approvals' reviewer pre-filter asks it. */
  async rulesMayGrant(scope: Scope, action: string): Promise<boolean> {
    const compiled = await this.rulesAt(scope);
    return !!compiled?.rules && [...compiled.byPermission.keys()].some((p) => p.endsWith(`:${action}`));
  }

  /**
   * The revision a read must include on a cluster (none on one Neo4j, or without a revision
   * ledger): also for the reads of other areas that decide access (the approvals' reviewers).
   */
  floor(scope: Scope): Promise<number | undefined> | undefined {
    return this.revisions?.floorFor(scope);
  }

  private latest(scope: Scope): Promise<number> {
    if (scope.revision === undefined) return this.revisions!.latest(scope.envId);
    this.revisions!.learn(scope.envId, scope.revision);
    return Promise.resolve(scope.revision);
  }
}
