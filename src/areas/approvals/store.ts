import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/db';
import { NotFound, StoreError } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { ApprovalNode, ApprovalStatus } from '../../db/records';

export type { ApprovalItemNode, ApprovalNode, ApprovalStatus } from '../../db/records';

const HOUR_MS = 3_600_000;

export interface ApprovalFilter {
  status: 'pending' | ApprovalStatus | null;
  resource: string | null;
  instance: string | null;
}
/** Runs in the transaction that wrote `a` (the webhook outbox: the event exists exactly when the change does). */
export type Announce = (tx: Tx, a: ApprovalNode) => Promise<void>;
/** Where an approval lives: env, config and the tenant of the caller's session. */
export interface ApprovalPlace {
  env: string;
  config: string;
  tenant: string;
}
/** What an approval grants the requester: `role` on the request's instance, or in its tenant when it has none. */
export interface Grant {
  role: string;
  expiresAt: string | null;
}
export interface Transition {
  status: ApprovalStatus;
  grant?: Grant;
  reviewer: string | null;
  comment?: string | null;
  cancelReason?: string | null;
  nowIso: string;
}

/** Operation approvals in the graph; transitions are single conditional updates. */
/**
 * A user reached ELEMENTS_REQUESTS_PER_HOUR requests of an elements config within the hour;
 * `seconds`: until the oldest of them leaves the hour (the services answer 429, reviewFlow.ts).
 */
export class RequestLimitReached extends StoreError {
  constructor(
    readonly perHour: number,
    readonly seconds: number,
  ) {
    super('request limit reached');
  }
}

export class ApprovalStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    /** Requests one user may create per elements config per hour (ELEMENTS_REQUESTS_PER_HOUR). */
    private readonly requestsPerHour = 100,
  ) {
    this.q = this.db.statements({
      ensureInstance: 'approvals/ensureInstance',
      instanceTenant: 'approvals/instanceTenant',
      lockRequester: 'approvals/lockRequesterRecentRequests',
      createApproval: 'approvals/createApproval',
      getApproval: 'approvals/getApproval',
      reviewCandidates: 'approvals/reviewCandidates',
      listApprovals: 'approvals/listApprovals',
      setReviewerComment: 'approvals/setReviewerComment',
      transition: 'approvals/transition',
    });
  }

  /**
   * Inside a create's transaction: refuses (429) a user who created `requestsPerHour` requests of
   * this config in the last hour; `Retry-After` is when the oldest of them leaves the hour.
   */
  async admitRequest(tx: Tx, p: ApprovalPlace, user: string, nowIso: string): Promise<void> {
    const since = new Date(Date.parse(nowIso) - HOUR_MS).toISOString();
    const row = await tx.one(this.q.lockRequester, { env: p.env, config: p.config, user, since });
    // `oldest` is null only with no recent request (requestsPerHour is at least 1).
    if (!row || row.recent < this.requestsPerHour || row.oldest === null) return;
    const seconds = Math.max(1, Math.ceil((Date.parse(row.oldest) + HOUR_MS - Date.parse(nowIso)) / 1000));
    throw new RequestLimitReached(this.requestsPerHour, seconds);
  }

  /**
   * Creates the approval in one transaction. A named instance must exist in the session's tenant:
   * the same 404 whether it lives in another tenant or nowhere (an end user learns nothing of
   * other tenants), and nothing is created. Without one (`instance` null) a new instance with a
   * UUID key is made in the tenant (seed 2.8); a cancel or deny removes it again.
   */
  async create(
    p: ApprovalPlace,
    a: { id: string; user: string; resource: string; instance: string | null; reason: string; nowIso: string },
    announce: Announce,
  ): Promise<ApprovalNode> {
    return this.db.write(async (tx) => {
      await this.admitRequest(tx, p, a.user, a.nowIso);
      let instance = a.instance;
      if (instance !== null) {
        const found = await tx.one(this.q.instanceTenant, { env: p.env, resource: a.resource, key: instance });
        if (found?.tenant !== p.tenant) throw new NotFound('Resource instance', `${a.resource}:${instance}`);
      } else {
        instance = randomUUID();
        const made = await tx.one(this.q.ensureInstance, {
          env: p.env,
          tenant: p.tenant,
          resource: a.resource,
          key: instance,
          nowIso: a.nowIso,
        });
        if (!made) throw new NotFound('Resource', a.resource);
      }
      const row = await tx.one(this.q.createApproval, {
        ...p,
        id: a.id,
        user: a.user,
        resource: a.resource,
        instance,
        reason: a.reason,
        nowIso: a.nowIso,
        createdInstance: a.instance === null,
      });
      // Throwing rolls back an instance created above (the requester was deleted meanwhile).
      if (!row) throw new NotFound('User', a.user);
      await announce(tx, row.approval);
      return row.approval;
    });
  }

  async get(p: ApprovalPlace, id: string): Promise<ApprovalNode | undefined> {
    const [row] = await this.db.readRows(this.q.getApproval, { ...p, id });
    return row?.approval;
  }

  /** Distinct `{resource, instance}` of approvals matching the filter that `user` did not request. */
  async reviewCandidates(p: ApprovalPlace, user: string, f: ApprovalFilter): Promise<{ resource: string; instance: string }[]> {
    return this.db.readRows(this.q.reviewCandidates, { ...p, user, ...f });
  }

  async list(p: ApprovalPlace, who: { user: string; everything: boolean; reviewable: string[] }, f: ApprovalFilter, page: Page) {
    return listOf(await this.db.readRows(this.q.listApprovals, { ...p, ...who, ...f, skip: page.skip, limit: page.perPage }));
  }

  async setReviewerComment(
    p: ApprovalPlace,
    id: string,
    comment: string | null | undefined,
    nowIso: string,
  ): Promise<ApprovalNode | undefined> {
    const [row] = await this.db.writeRows(this.q.setReviewerComment, {
      ...p,
      id,
      comment: comment ?? null,
      setComment: comment !== undefined,
      nowIso,
    });
    return row?.approval;
  }

  /**
   * Moves a pending approval; `won` is false when it was not pending any more, or when it is an
   * approval with a grant on an instance deleted since (`instanceGone`) or of a role deleted since
   * (`roleGone`): nothing changed, nothing announced.
   */
  async transition(
    p: ApprovalPlace,
    id: string,
    t: Transition,
    announce: Announce,
  ): Promise<{ won: boolean; instanceGone: boolean; roleGone: boolean; approval: ApprovalNode } | undefined> {
    return this.db.write(async (tx) => {
      const row = await tx.one(this.q.transition, {
        ...p,
        id,
        status: t.status,
        reviewer: t.reviewer,
        comment: t.comment ?? null,
        setComment: t.comment !== undefined,
        cancelReason: t.cancelReason ?? null,
        nowIso: t.nowIso,
        grantRole: t.grant?.role ?? null,
        expiresAt: t.grant?.expiresAt ?? null,
        expiresAtMs: t.grant?.expiresAt ? Date.parse(t.grant.expiresAt) : null,
      });
      if (!row) return undefined;
      const res = { won: row.won, instanceGone: row.instanceGone, roleGone: row.roleGone, approval: row.approval };
      if (res.won) await announce(tx, res.approval);
      return res;
    });
  }
}
