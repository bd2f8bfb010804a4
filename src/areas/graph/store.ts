import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';

/** The records of graph/neighbourhood (its `// @row` header). */
export type GraphNode = StatementRows['graph/neighbourhood']['nodes'][number];
export type GraphEdge = StatementRows['graph/neighbourhood']['edges'][number];

/** Read-only views of the stored graph for admins. */
export class GraphStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ neighbourhood: 'graph/neighbourhood' });
  }

  async neighbourhood(
    env: string,
    p: { focusType: string | null; focusKey: string | null; tenant: string | null; depth: number; limit: number },
  ) {
    const [row] = await this.db.readRows(this.q.neighbourhood, { env, ...p, nowMs: Date.now() });
    return row;
  }
}
