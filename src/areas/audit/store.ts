import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';

/** A filter of the audit log, as the statement takes it (instants already checked). */
export interface AuditFilter {
  kinds: string[];
  /** The console's actor: its revisions are audited whatever their kinds. */
  consoleKind: string;
  consoleId: string;
  actor: string | null;
  kind: string | null;
  from: string | null;
  to: string | null;
  skip: number;
  limit: number;
}

/** The audit log: change events of the audited kinds, and key and session events. */
export class AuditStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({ list: 'audit/listAudit' });
  }

  /** One page (`page`) and the `total`; undefined when nothing matched. */
  async list(env: string, f: AuditFilter): Promise<StatementRows['audit/listAudit'] | undefined> {
    const [row] = await this.db.readRows(this.q.list, { env, ...f });
    return row;
  }
}
