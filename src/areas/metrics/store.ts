import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';
import type { EnvRevision } from '../decisions/revisionsStore';

/** What the gauges of GET /metrics read from the graph (src/areas/metrics/gauges.ts). */
export class MetricsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ counts: 'metrics/operatorCounts', revisions: 'revisions/readRevisions' });
  }

  /** Live sessions (`sessions`) and approvals by status (`approvals`: `{status, n}`) at `now` (ISO). */
  async counts(now: string): Promise<StatementRows['metrics/operatorCounts'] | undefined> {
    const [counts] = await this.db.readRows(this.q.counts, { nowIso: now });
    return counts;
  }

  /** Every environment's revision, from the leader. */
  async revisions(): Promise<EnvRevision[]> {
    return this.db.readLatestRows(this.q.revisions, { envId: null });
  }
}
