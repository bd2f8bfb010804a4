import type { Scope } from '../../auth/types';
import { fromJson } from '../../util/json';
import type { DecisionEngine } from '../decisions/engine';
import type { Asker, Consistency, Question } from '../decisions/question';
import type { TenantRow } from '../decisions/walk';

export interface TenantView {
  key: string;
  attributes: Record<string, unknown>;
}

const viewOf = (r: TenantRow): TenantView => ({ key: r.key, attributes: fromJson(r.attributes_json) });

/**
 * Permit's "which tenants" questions (docs/decisions.md), on the decision engine: the tenants a
 * user belongs to, and the tenants where a question is allowed (the engine's `tenants`
 * enumeration: each candidate asked as `/allowed` would ask it, so the answers agree).
 */
export class TenantAccessService {
  constructor(private readonly engine: DecisionEngine) {}

  async userTenants(scope: Scope, asker: Asker, consistency?: Consistency): Promise<TenantView[]> {
    return (await this.engine.enumerate({ scope, consistency }, { kind: 'userTenants', user: asker.user })).map(viewOf);
  }

  async allowedTenants(scope: Scope, question: Question, consistency?: Consistency) {
    const answer = (await this.engine.enumerate({ scope, consistency }, { kind: 'tenants', question })).map((t) => ({
      allow: true,
      tenant: viewOf(t),
    }));
    // `allowedTenants`: the name permitio 2.7.6's checkAllTenants reads (Permit's PDP answers allowed_tenants).
    return { allowed_tenants: answer, allowedTenants: answer };
  }
}
