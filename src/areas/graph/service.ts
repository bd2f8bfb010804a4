import type { Scope } from '../../auth/types';
import { invalidInput, notFound } from '../../errors';
import type { DecisionEngine } from '../decisions/engine';
import type { GraphStore } from './store';

export const MAX_GRAPH_NODES = 500;

/** Graph inspection (issue: decisions for real clients, item 2). */
export class GraphService {
  constructor(
    private readonly store: GraphStore,
    /** Effective roles are the decision engine's `roles` enumeration (the walk from the user). */
    private readonly engine: DecisionEngine,
  ) {}

  async neighbourhood(scope: Scope, q: { focus?: string; tenant?: string; depth?: number; limit?: number }) {
    let focusType: string | null = null;
    let focusKey: string | null = null;
    if (q.focus !== undefined) {
      const at = q.focus.indexOf(':');
      if (at <= 0 || at === q.focus.length - 1) {
        throw invalidInput('focus must be "type:key" or "user:key".', [{ path: '/query/focus', message: 'must look like type:key' }]);
      }
      focusType = q.focus.slice(0, at);
      focusKey = q.focus.slice(at + 1);
    }
    const limit = q.limit ?? 200;
    const res = await this.store.neighbourhood(scope.envId, { focusType, focusKey, tenant: q.tenant ?? null, depth: q.depth ?? 2, limit });
    if (focusType !== null && !res.found) throw notFound(focusType === 'user' ? 'User' : 'Resource instance', q.focus);
    return { nodes: res.nodes, edges: res.edges, truncated: res.truncated, limit };
  }

  async effectiveRoles(scope: Scope, user: string, tenant?: string) {
    const roles = await this.engine.enumerate({ scope }, { kind: 'roles', user, tenant: tenant ?? null });
    if (roles === undefined) throw notFound('User', user);
    return { user, roles };
  }
}
