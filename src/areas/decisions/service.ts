import type { Scope } from '../../auth/types';
import type { DecisionObserver } from '../../metrics/metrics';
import type { RuleVerdict } from '../conditions/rules';
import type { Answer, DecisionEngine } from './engine';
import type { Consistency, PermissionsQuery, Question, UsersQuery } from './question';
import type { AuthorizedAssignment } from './walk';

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

export interface Explanation {
  paths: string[];
  reason: string;
  granting_roles: string[];
  tenant: string;
  states_visited: number;
  /** The set rules on the permission asked, with each set and condition (docs/conditions.md); absent without rules. */
  set_rules?: ReturnType<typeof verdictView>[];
}

/**
 * The decision endpoints' answers (docs/decisions.md), in Permit's shapes: each asks the decision
 * engine once, at one reading of the environment, and shapes what it answers. Unknown users,
 * resources or actions answer false, not an error: the walk simply finds no granting path.
 */
export class DecisionService {
  constructor(
    private readonly engine: DecisionEngine,
    private readonly maxDepth: number,
    /** Told each answer (the `authz_decision*` metrics, the decision log). */
    private readonly observer?: Pick<DecisionObserver, 'decided'>,
  ) {}

  /** `depthLimited`: MAX_DERIVATION_DEPTH cut the walk; the answer is false and its explanation names the limit. */
  async allowed(
    scope: Scope,
    q: Question,
    opts: { explain?: boolean; consistency?: Consistency } = {},
  ): Promise<{ allow: boolean; explanation?: Partial<Explanation>; depthLimited?: true }> {
    const [a] = await this.engine.decide({ scope, consistency: opts.consistency }, [q], { explain: opts.explain });
    if (!opts.explain) {
      this.observer?.decided(scope.envId, [q], [a.allow]);
      return a.depthLimited
        ? { allow: false, explanation: { paths: [], reason: this.depthLimitReason(q) }, depthLimited: true }
        : { allow: a.allow };
    }
    const explanation = this.explanationOf(q, a);
    this.observer?.decided(scope.envId, [q], [a.allow], [explanation.reason]);
    return a.depthLimited ? { allow: a.allow, explanation, depthLimited: true } : { allow: a.allow, explanation };
  }

  async allowedBulk(
    scope: Scope,
    qs: Question[],
    consistency?: Consistency,
  ): Promise<{ allow: { allow: boolean }[]; depthLimited?: true }> {
    const { allow, depthLimited } = await this.allowedMany(scope, qs, consistency);
    const shaped = allow.map((a) => ({ allow: a }));
    return depthLimited ? { allow: shaped, depthLimited } : { allow: shaped };
  }

  /** The bulk check's answers as booleans, in order (AuthZEN's evaluations shape them its own way). */
  async allowedMany(scope: Scope, qs: Question[], consistency?: Consistency): Promise<{ allow: boolean[]; depthLimited?: true }> {
    const answers = await this.engine.decide({ scope, consistency }, qs);
    const allow = new Array<boolean>(answers.length);
    let depthLimited = false;
    for (let i = 0; i < answers.length; i++) {
      allow[i] = answers[i].allow;
      if (answers[i].depthLimited) depthLimited = true;
    }
    this.observer?.decided(scope.envId, qs, allow);
    return depthLimited ? { allow, depthLimited } : { allow };
  }

  /** Permit's user-permissions: `"type:key"` / `"__tenant:t"` -> {tenant, resource, permissions, roles}. */
  async userPermissions(scope: Scope, q: PermissionsQuery, consistency?: Consistency) {
    const { tenants, instances } = await this.engine.enumerate({ scope, consistency }, { kind: 'permissions', ...q });
    const out: Record<string, unknown> = {};
    for (const t of tenants) {
      out[`__tenant:${t.tenant}`] = {
        tenant: { key: t.tenant, attributes: {} },
        resource: null,
        permissions: t.permissions,
        roles: t.roles,
      };
    }
    for (const i of instances) {
      out[`${i.type}:${i.key}`] = {
        tenant: { key: i.tenant, attributes: {} },
        resource: { type: i.type, key: i.key, attributes: {} },
        permissions: i.permissions,
        roles: i.roles,
      };
    }
    return out;
  }

  /** Permit's authorized_users: every user allowed `action` on the resource, with the assignments that grant it. */
  async authorizedUsers(
    scope: Scope,
    q: UsersQuery,
    consistency?: Consistency,
  ): Promise<{ resource: string; tenant: string; users: Record<string, AuthorizedAssignment[]> }> {
    const { tenant, users } = await this.engine.enumerate({ scope, consistency }, { kind: 'users', ...q });
    return { resource: q.key === null ? `${q.type}:*` : `${q.type}:${q.key}`, tenant, users };
  }

  private depthLimitReason(c: Question): string {
    const target = c.key === null ? `${c.type} (type level)` : `${c.type}:${c.key}`;
    return (
      `The search for a path from the user to ${target} reached MAX_DERIVATION_DEPTH (${this.maxDepth} hops) without an answer; ` +
      'paths longer than that are not followed, so the answer is false.'
    );
  }

  /** Every granting path as readable hops, or why nothing grants; the set rules with what they found. */
  private explanationOf(c: Question, a: Answer): Explanation {
    const t = a.trace!;
    const target = c.key === null ? `${c.type} (type level)` : `${c.type}:${c.key}`;
    const byRules = (a.verdicts ?? []).filter((v) => v.granted);
    let reason: string;
    if (t.paths.length > 0 || (a.allow && !byRules.length)) reason = `${t.paths.length} path(s) grant "${c.action}" on ${target}.`;
    else if (byRules.length)
      reason = `The set rule(s) ${byRules.map((v) => JSON.stringify(v.rule)).join(', ')} grant "${c.action}" on ${target}.`;
    else if (!t.user_found) reason = `User ${JSON.stringify(c.user)} is unknown in this environment.`;
    else if (c.tenant !== null && c.tenant !== t.tenant)
      reason = `${target} belongs to tenant ${JSON.stringify(t.tenant)}, not ${JSON.stringify(c.tenant)}.`;
    else if (t.granting_roles.length === 0 && !t.tenant_role_grant)
      reason = `No role grants "${c.action}" on resource type ${JSON.stringify(c.type)}.`;
    else if (c.key !== null && !t.searched) reason = `Resource instance ${target} does not exist.`;
    else if (a.depthLimited) reason = this.depthLimitReason(c);
    else
      reason =
        `No tenant role in ${JSON.stringify(t.tenant)} and no path of at most ${this.maxDepth} hops from the user to ` +
        `${target} with one of the roles [${t.granting_roles.join(', ')}] (${t.states_visited} states visited).`;
    const explanation: Explanation = {
      paths: t.paths,
      reason,
      granting_roles: t.granting_roles,
      tenant: t.tenant,
      states_visited: t.states_visited,
    };
    if (a.verdicts) explanation.set_rules = a.verdicts.map(verdictView);
    return explanation;
  }
}
