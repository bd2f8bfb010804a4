import type { Db } from '../../db/db';

/** What a retention sweep deletes: change events, audit events, decision logs. */
export type Swept = 'changes' | 'audit' | 'decisions';

/** Deletes records older than an instant, one bounded batch (one short write transaction) at a time. */
export class RetentionStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      changes: 'changes/sweepChanges',
      audit: 'changes/sweepAuditEvents',
      decisions: 'decisionLog/sweepDecisionLogs',
    });
  }

  /**
   * One batch of `what` older than `before` (of one environment when `env` is given): `deleted`
   * nodes, and the records they held (`events`: a ChangeSet holds a revision's events).
   */
  async sweepBatch(what: Swept, env: string | null, before: string, batch: number): Promise<{ deleted: number; events: number }> {
    // A ChangeSet holds a revision's events (`events`); an audit event or a decision-log batch is one.
    const [row]: { deleted: number; events?: number }[] = await this.db.writeRows(this.q[what], { env, before, batch });
    const deleted = row?.deleted ?? 0;
    return { deleted, events: row?.events ?? deleted };
  }
}
