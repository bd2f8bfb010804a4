import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';
import type { WalkSelection } from '../../db/walkSelection';
import { viaWalk } from '../decisions/walkStatements';

/** The records of graph/neighbourhood and graph/effectiveRoles (their `// @row` headers). */
export type GraphNode = StatementRows['graph/neighbourhood']['nodes'][number];
export type GraphEdge = StatementRows['graph/neighbourhood']['edges'][number];
export type EffectiveRole = StatementRows['graph/effectiveRoles']['roles'][number];

/** Read-only views of the stored graph for admins. */
export class GraphStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly maxDepth: number,
    /** Which walk answers (src/db/walkSelection.ts); none: the Cypher walk. */
    private readonly walk?: WalkSelection,
  ) {
    this.q = this.db.statements({
      neighbourhood: 'graph/neighbourhood',
      effectiveRoles: 'graph/effectiveRoles',
      walkEffectiveRoles: 'walk/effectiveRoles',
    });
  }

  async neighbourhood(
    env: string,
    p: { focusType: string | null; focusKey: string | null; tenant: string | null; depth: number; limit: number },
  ) {
    const [row] = await this.db.readRows(this.q.neighbourhood, { env, ...p, nowMs: Date.now() });
    return row;
  }

  async effectiveRoles(env: string, user: string, tenant: string | null): Promise<EffectiveRole[] | undefined> {
    const params = { env, user, tenant, depth: this.maxDepth, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkEffectiveRoles, this.q.effectiveRoles, (stmt) => this.db.readRows(stmt, params));
    return row?.roles;
  }
}
