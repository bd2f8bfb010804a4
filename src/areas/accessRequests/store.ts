import type { Db } from '../../db/db';
import { NotFound } from '../../db/storeErrors';
import type { Announce, ApprovalNode, ApprovalPlace, ApprovalStore } from '../approvals/store';
import type { StatementRows } from '../../db/statements.generated';

/** What a role names for an access request: a tenant role, a resource role of the resource, the instance's tenant. */
/** accessRequests/roleTarget's row (its `// @row` header). */
export type RoleTarget = StatementRows['accessRequests/roleTarget'];

/** Creating access requests; every other step is the approvals store's (they share the node and its transitions). */
export class AccessRequestStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    /** Its `admitRequest`: the hourly bound of requests per user and config, shared with operation approvals. */
    private readonly approvals: ApprovalStore,
  ) {
    this.q = this.db.statements({
      createAccessRequest: 'accessRequests/createAccessRequest',
      roleTarget: 'accessRequests/roleTarget',
    });
  }

  async roleTarget(env: string, role: string, resource: string | null, instance: string | null): Promise<RoleTarget> {
    const [row] = await this.db.readRows(this.q.roleTarget, { env, role, resource, instance });
    return row;
  }

  async create(
    p: ApprovalPlace,
    r: { id: string; user: string; role: string; resource: string | null; instance: string | null; reason: string; nowIso: string },
    announce: Announce,
  ): Promise<ApprovalNode> {
    return this.db.write(async (tx) => {
      await this.approvals.admitRequest(tx, p, r.user, r.nowIso);
      const row = await tx.one(this.q.createAccessRequest, { ...p, ...r });
      // The requester, or the instance, went away between the checks and this write.
      if (!row) throw r.instance ? new NotFound('Resource instance', `${r.resource}:${r.instance}`) : new NotFound('User', r.user);
      await announce(tx, row.approval);
      return row.approval;
    });
  }
}
