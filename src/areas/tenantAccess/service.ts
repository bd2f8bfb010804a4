import type { Scope } from '../../auth/types';
import { fromJson } from '../../util/json';
import type { CheckQuery, DecisionService } from '../decisions/service';
import type { TenantAccessStore } from './store';

export interface TenantView {
  key: string;
  attributes: Record<string, unknown>;
}
export type UserRef = string | { key: string; attributes?: Record<string, unknown> | null };

const keyOf = (u: UserRef) => (typeof u === 'string' ? u : u.key);
/** One bulk decision call takes at most this many questions (the decisions area's limit). */
const CHECKS_PER_CALL = 100;

/**
 * Permit's "which tenants" questions, on top of the decision service: the tenants a user
 * belongs to, and those among them where the user may do an action (one check per tenant,
 * asked in bulk), so the answers are exactly what `/allowed` would say tenant by tenant.
 */
export class TenantAccessService {
  constructor(
    private readonly store: TenantAccessStore,
    private readonly decisions: DecisionService,
  ) {}

  async userTenants(scope: Scope, user: UserRef): Promise<TenantView[]> {
    const rows = await this.store.userTenants(scope.envId, keyOf(user));
    return rows.map((r) => ({ key: r.key, attributes: fromJson(r.attributes_json) }));
  }

  async allowedTenants(
    scope: Scope,
    q: { user: UserRef; action: string; resource: { type: string; key?: string | null }; context?: Record<string, unknown> | null },
  ) {
    const tenants = await this.userTenants(scope, q.user);
    const checks: CheckQuery[] = tenants.map((t) => ({
      // A user object's `attributes` go with it: set rules read them (CONTRACT section 17).
      user: typeof q.user === 'string' ? q.user : { key: q.user.key, attributes: q.user.attributes ?? null },
      context: q.context ?? null,
      action: q.action,
      resource: { type: q.resource.type, key: q.resource.key ?? null, tenant: t.key },
    }));
    const allowed: boolean[] = [];
    for (let i = 0; i < checks.length; i += CHECKS_PER_CALL) {
      const { allow } = await this.decisions.allowedBulk(scope, checks.slice(i, i + CHECKS_PER_CALL));
      allowed.push(...allow.map((a) => a.allow));
    }
    const answer = tenants.filter((_, i) => allowed[i]).map((tenant) => ({ allow: true, tenant }));
    // `allowedTenants`: the name permitio 2.7.6's checkAllTenants reads (Permit's PDP answers allowed_tenants).
    return { allowed_tenants: answer, allowedTenants: answer };
  }
}
