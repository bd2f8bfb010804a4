import type { Scope } from '../../auth/types';
import { Decision, DecisionStore, NormalizedCheck } from './store';

export interface CheckQuery {
  user: string | { key: string };
  action: string;
  resource: { type: string; key?: string | null; tenant?: string | null };
  explain?: boolean;
}

export interface Explanation {
  paths: string[];
  reason: string;
  granting_roles: string[];
  tenant: string;
  states_visited: number;
}

export function normalizeCheck(q: CheckQuery): NormalizedCheck {
  return {
    user: typeof q.user === 'string' ? q.user : q.user.key,
    action: q.action,
    type: q.resource.type,
    key: q.resource.key ?? null,
    tenant: q.resource.tenant ?? null,
  };
}

/**
 * Decisions (CONTRACT section 5). Unknown users, resources or actions answer false, not an
 * error: the traversal simply finds no granting path.
 */
export class DecisionService {
  constructor(
    private readonly store: DecisionStore,
    private readonly maxDepth: number,
  ) {}

  async allowed(scope: Scope, q: CheckQuery, explain = false): Promise<{ allow: boolean; explanation?: Explanation }> {
    const check = normalizeCheck(q);
    if (!(explain || q.explain)) {
      const [allow] = await this.store.allowed(scope.envId, [check]);
      return { allow };
    }
    const [decision] = await this.store.explain(scope.envId, [check]);
    return { allow: decision.allow, explanation: this.explanationOf(check, decision) };
  }

  /** Every granting path as readable hops, or why nothing grants. */
  private explanationOf(c: NormalizedCheck, d: Decision): Explanation {
    const t = d.trace!;
    const target = c.key === null ? `${c.type} (type level)` : `${c.type}:${c.key}`;
    let reason: string;
    if (d.allow) reason = `${t.paths.length} path(s) grant "${c.action}" on ${target}.`;
    else if (!t.user_found) reason = `User ${JSON.stringify(c.user)} is unknown in this environment.`;
    else if (c.tenant !== null && c.tenant !== t.tenant) reason = `${target} belongs to tenant ${JSON.stringify(t.tenant)}, not ${JSON.stringify(c.tenant)}.`;
    else if (t.granting_roles.length === 0 && !t.tenant_role_grant) reason = `No role grants "${c.action}" on resource type ${JSON.stringify(c.type)}.`;
    else if (c.key !== null && !t.searched) reason = `Resource instance ${target} does not exist.`;
    else
      reason =
        `No tenant role in ${JSON.stringify(t.tenant)} and no path of at most ${this.maxDepth} hops from the user to ` +
        `${target} with one of the roles [${t.granting_roles.join(', ')}] (${t.states_visited} states visited).`;
    return { paths: t.paths, reason, granting_roles: t.granting_roles, tenant: t.tenant, states_visited: t.states_visited };
  }

  async allowedBulk(scope: Scope, qs: CheckQuery[]): Promise<{ allow: { allow: boolean }[] }> {
    const answers = await this.store.allowed(scope.envId, qs.map(normalizeCheck));
    return { allow: answers.map((allow) => ({ allow })) };
  }
}
