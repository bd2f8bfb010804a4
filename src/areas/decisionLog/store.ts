import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';

/**
 * One environment's entries as one `:DecisionLogBatch` (src/areas/decisionLog/log.ts packs it): its
 * id, time span (ISO), count, and the entries as gzip'd JSON text (base64).
 */
export interface PackedBatch {
  env: string;
  id: string;
  n: number;
  first_at: string;
  last_at: string;
  data: string;
}

/** A stored batch as the reader gets it: packed (`data`), or the parallel lists of a batch written before packing. */
export type Batch = StatementRows['decisionLog/listDecisionLogs']['batch'];

/** The decision log's batches: written off the request path, read back by time. */
export class DecisionLogStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      insert: 'decisionLog/insertDecisionLogs',
      list: 'decisionLog/listDecisionLogs',
      batchOf: 'decisionLog/getDecisionLogBatch',
    });
  }

  /** Every batch in one write transaction. */
  async insert(batches: PackedBatch[]): Promise<void> {
    await this.db.writeRows(this.q.insert, { batches });
  }

  /** The batches of the environment whose time span meets [from, to] (ISO instants; null: open). */
  async batches(env: string, from: string | null, to: string | null): Promise<Batch[]> {
    const rows = await this.db.readRows(this.q.list, { env, from, to });
    return rows.map((r) => r.batch);
  }

  /** The batches of the environment that may hold entry `logId` (by its batch's id, or listed in an unpacked batch). */
  async batchesOf(env: string, logId: string): Promise<Batch[]> {
    const dash = logId.lastIndexOf('-');
    const batchId = dash > 0 ? logId.slice(0, dash) : logId;
    const rows = await this.db.readRows(this.q.batchOf, { env, logId, batchId });
    return rows.map((r) => r.batch);
  }
}
