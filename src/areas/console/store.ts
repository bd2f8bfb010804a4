import type { Db } from '../../db/db';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { StatementRows } from '../../db/statements.generated';

/** An approval of the queue (console/approvalsQueue's rows), with the key of its elements config. */
export type QueuedApproval = StatementRows['console/approvalsQueue']['data'][number];

/** The approvals and access requests of every elements config of an environment, for the admin console. */
export class ApprovalsQueueStore {
  private readonly q;
  constructor(private readonly db: Db) {
    this.q = this.db.statements({ approvalsQueue: 'console/approvalsQueue' });
  }

  async list(env: string, filter: { config: string | null; status: string | null; type: string | null }, page: Page) {
    return listOf(await this.db.readRows(this.q.approvalsQueue, { env, ...filter, skip: page.skip, limit: page.perPage }));
  }
}
