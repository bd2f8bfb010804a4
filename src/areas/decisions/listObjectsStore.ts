import { type Db, floorOf } from '../../db/db';
import type { WalkSelection } from '../../db/walkSelection';
import { viaWalk } from './walkStatements';
import type { RuleSettings } from './store';

/** An instance on which the user may do the action. */
export interface ListedObject {
  type: string;
  key: string;
  tenant: string;
}

/** One page of list-objects: one forward walk from the user (cypher/decisions/listObjects). */
export class ListObjectsStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly rule: RuleSettings,
    /** Which walk answers (src/db/walkSelection.ts); none: the Cypher walk. */
    private readonly walk?: WalkSelection,
  ) {
    this.q = this.db.statements({ listObjects: 'decisions/listObjects', walkListObjects: 'walk/listObjects' });
  }

  /** `floor`: the revision of `env` the page must include (a cluster's secondary may lag; Db.readOnce). */
  async page(
    env: string,
    p: { user: string; action: string; type: string; tenant: string | null; after: string | null; limit: number },
    floor?: number,
  ): Promise<ListedObject[]> {
    const params = { env, ...p, depth: this.rule.maxDepth, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkListObjects, this.q.listObjects, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return (row?.objects ?? []).map(([type, key, tenant]) => ({ type, key, tenant }));
  }
}
