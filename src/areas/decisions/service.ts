import type { Scope } from '../../auth/types';
import { DecisionStore, NormalizedCheck } from './store';

export interface CheckQuery {
  user: string | { key: string };
  action: string;
  resource: { type: string; key?: string | null; tenant?: string | null };
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
  constructor(private readonly store: DecisionStore) {}

  async allowed(scope: Scope, q: CheckQuery): Promise<{ allow: boolean }> {
    const [allow] = await this.store.allowed(scope.envId, [normalizeCheck(q)]);
    return { allow };
  }

  async allowedBulk(scope: Scope, qs: CheckQuery[]): Promise<{ allow: { allow: boolean }[] }> {
    const answers = await this.store.allowed(scope.envId, qs.map(normalizeCheck));
    return { allow: answers.map((allow) => ({ allow })) };
  }
}
