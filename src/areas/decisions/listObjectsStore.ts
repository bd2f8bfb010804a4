import { type Db, floorOf } from '../../db/db';
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
  ) {
    this.q = this.db.statements({ listObjects: 'decisions/listObjects' });
  }

  /** `floor`: the revision of `env` the page must include (a cluster's secondary may lag; Db.readOnce). */
  async page(
    env: string,
    p: { user: string; action: string; type: string; tenant: string | null; after: string | null; limit: number },
    floor?: number,
  ): Promise<ListedObject[]> {
    const [row] = await this.db.readOnce(
      this.q.listObjects,
      { env, ...p, depth: this.rule.maxDepth, nowMs: Date.now() },
      'read',
      floorOf(env, floor),
    );
    return (row?.objects ?? []).map(([type, key, tenant]) => ({ type, key, tenant }));
  }
}
