import type { Db } from '../../db/db';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';

export interface QueuedApproval {
  id: string;
  config_id: string;
  config_key: string | null;
  tenant: string;
  resource: string;
  resource_instance: string;
  requesting_user_id: string;
  reason: string | null;
  status: string | null;
  reviewer_user_id?: string | null;
  reviewed_at?: string | null;
  reviewer_comment?: string | null;
  created_at: string;
}

/** The approvals of every elements config of an environment, read-only, for the admin console. */
export class ApprovalsQueueStore {
  private readonly q;
  constructor(private readonly db: Db) {
    this.q = this.db.statements({ approvalsQueue: 'console/approvalsQueue' });
  }

  async list(env: string, filter: { config: string | null; status: string | null }, page: Page) {
    return listOf<QueuedApproval>(await this.db.readRows(this.q.approvalsQueue, { env, ...filter, skip: page.skip, limit: page.perPage }));
  }
}
