import { Db } from '../../db/db';

export interface GraphNode {
  id: string;
  labels: string[];
  key: string;
  resource: string | null;
  tenant: string | null;
  email: string | null;
}
export interface GraphEdge {
  id: string;
  type: string;
  from: string;
  to: string;
  role: string | null;
  relation: string | null;
}
export interface EffectiveRole {
  resource: string;
  tenant: string;
  role: string;
  path: string;
}

/** Read-only views of the stored graph for admins. */
export class GraphStore {
  private readonly q = this.db.statements({
    neighbourhood: 'graph/neighbourhood',
    effectiveRoles: 'graph/effectiveRoles',
  });

  constructor(
    private readonly db: Db,
    private readonly maxDepth: number,
  ) {}

  async neighbourhood(env: string, p: { focusType: string | null; focusKey: string | null; tenant: string | null; depth: number; limit: number }) {
    const [row] = await this.db.readRows(this.q.neighbourhood, { env, ...p, nowMs: Date.now() });
    return row as unknown as { found: boolean; truncated: boolean; nodes: GraphNode[]; edges: GraphEdge[] };
  }

  async effectiveRoles(env: string, user: string, tenant: string | null): Promise<EffectiveRole[] | undefined> {
    const [row] = await this.db.readRows(this.q.effectiveRoles, { env, user, tenant, depth: this.maxDepth, nowMs: Date.now() });
    return row?.roles as EffectiveRole[] | undefined;
  }
}
