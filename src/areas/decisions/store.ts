import { Db } from '../../db/db';

export interface NormalizedCheck {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
}

/** Permission questions are answered by one named traversal query per batch. */
export class DecisionStore {
  private readonly q = this.db.statements({ allowed: 'decisions/allowed' });

  constructor(
    private readonly db: Db,
    private readonly maxDepth: number,
  ) {}

  async allowed(env: string, checks: NormalizedCheck[]): Promise<boolean[]> {
    if (checks.length === 0) return [];
    const rows = await this.db.readRows(this.q.allowed, { env, checks, depth: this.maxDepth });
    const out = new Array<boolean>(checks.length).fill(false);
    for (const row of rows) out[row.idx as number] = row.allow === true;
    return out;
  }
}
