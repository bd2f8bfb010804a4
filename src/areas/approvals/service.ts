import { randomUUID } from 'node:crypto';
import type { Scope, Session } from '../../auth/types';
import { forbidden, invalidInput } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import { now } from '../../util/time';
import type { DecisionService } from '../decisions/service';
import type { WebhookOutbox } from '../webhooks/outbox';
import type { ElementsService } from '../elements/service';
import { expiresAfter, ReviewFlow, withinRequestLimit } from './reviewFlow';
import type { ApprovalFilter, ApprovalItemNode, ApprovalNode, ApprovalStore } from './store';

export interface CreateInput {
  access_request_details: { tenant: string; resource: string; resource_instance?: string };
  reason: string;
}

/**
 * Operation approvals (seed 3.2, 4.2; CONTRACT section 7). Every call works in the session's
 * tenant. A reviewer of an approval holds a LEVEL_1/LEVEL_2 role of the config in its tenant,
 * or is allowed `review` on its instance (directly, through groups or derivations).
 */
export class ApprovalService {
  private readonly flow: ReviewFlow;
  constructor(store: ApprovalStore, elements: ElementsService, decisions: DecisionService, outbox: WebhookOutbox) {
    this.flow = new ReviewFlow(
      store,
      elements,
      decisions,
      { elementsType: 'operation_approval', noun: 'Operation approval', view: this.view },
      outbox,
    );
  }

  view = (scope: Scope, a: ApprovalNode) => ({
    id: a.id,
    type: 'operation_approval' as const,
    requesting_user_id: a.requesting_user_id,
    access_request_details: { tenant: a.tenant, resource: a.resource, resource_instance: a.resource_instance },
    reason: a.reason,
    org_id: scope.orgId,
    project_id: scope.projectId,
    env_id: scope.envId,
    created_at: a.created_at,
    updated_at: a.updated_at,
    status: a.status ?? null,
    reviewer_user_id: a.reviewer_user_id ?? null,
    reviewed_at: a.reviewed_at ?? null,
    reviewer_comment: a.reviewer_comment ?? null,
    access_expires_at: a.access_expires_at ?? null,
  });

  itemView = (scope: Scope, a: ApprovalItemNode) => ({
    ...this.view(scope, a),
    requesting_user_email: a.requesting_user_email ?? null,
    requesting_user_first_name: a.requesting_user_first_name ?? null,
    requesting_user_last_name: a.requesting_user_last_name ?? null,
    resource_key: a.resource,
    resource_instance_key: a.resource_instance,
  });

  async create(scope: Scope, session: Session, configRef: string, input: CreateInput) {
    const { tenant, resource, resource_instance } = input.access_request_details;
    if (tenant !== session.tenantKey) {
      throw forbidden(
        `The session is for tenant ${JSON.stringify(session.tenantKey)}; log in to ${JSON.stringify(tenant)} to request there.`,
      );
    }
    const { config, place } = await this.flow.place(scope, session, configRef);
    if (!config.resources.includes(resource)) {
      throw invalidInput(`Resource ${JSON.stringify(resource)} is not governed by elements config ${JSON.stringify(config.key)}.`, [
        { path: '/body/access_request_details/resource', message: `must be one of ${JSON.stringify(config.resources)}` },
      ]);
    }
    const a = await withinRequestLimit(
      this.flow.store.create(
        place,
        {
          id: randomUUID(),
          user: session.userKey,
          resource,
          instance: resource_instance ?? null,
          reason: input.reason,
          nowIso: now(),
        },
        this.flow.announcer(scope, 'created'),
      ),
    );
    return this.view(scope, a);
  }

  async get(scope: Scope, session: Session, configRef: string, id: string) {
    return this.view(scope, (await this.flow.visible(scope, session, configRef, id)).a);
  }

  async list(scope: Scope, session: Session, configRef: string, filter: ApprovalFilter, page: Page) {
    const { total, data } = await this.flow.list(scope, session, configRef, filter, page);
    return envelopeOf(
      data.map((a) => this.itemView(scope, a)),
      total,
      page,
    );
  }

  async setReviewerComment(scope: Scope, session: Session, configRef: string, id: string, comment: string | null | undefined) {
    return this.view(scope, await this.flow.setReviewerComment(scope, session, configRef, id, comment));
  }

  /** Approve (granting the requester _Approved_ on the instance, for `durationSeconds` when set) or deny. */
  async review(
    scope: Scope,
    session: Session,
    configRef: string,
    id: string,
    status: 'approved' | 'deny',
    comment: string | null | undefined,
    durationSeconds?: number,
  ) {
    const grant = async () => ({ role: '_Approved_', expiresAt: expiresAfter(durationSeconds) });
    return this.view(scope, await this.flow.review(scope, session, configRef, id, status, comment, grant));
  }

  async cancel(scope: Scope, session: Session, configRef: string, id: string, reason: string | undefined) {
    return this.view(scope, await this.flow.cancel(scope, session, configRef, id, reason));
  }
}
