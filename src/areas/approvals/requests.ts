import type { Scope, Session } from '../../auth/types';
import { forbidden, invalidInput } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import type { DecisionEngine } from '../decisions/engine';
import type { ElementsConfig, ElementsService } from '../elements/service';
import type { WebhookOutbox } from '../webhooks/outbox';
import { type FlowKind, ReviewFlow } from './reviewFlow';
import type { ApprovalFilter, ApprovalItemNode, ApprovalNode, ApprovalStore } from './store';

/**
 * What operation approvals and access requests answer alike (docs/behaviour.md sections 7, 11): both are
 * requests of one elements config, reviewed by the same flow; each says how it looks on the wire
 * (`view`, `listed`) and what it asks for and grants (its own `create` and review calls).
 */
export abstract class ReviewedRequests {
  protected readonly flow: ReviewFlow;

  constructor(
    store: ApprovalStore,
    elements: ElementsService,
    decisions: DecisionEngine,
    outbox: WebhookOutbox,
    kind: Omit<FlowKind, 'view'>,
  ) {
    this.flow = new ReviewFlow(store, elements, decisions, { ...kind, view: (scope, a) => this.view(scope, a) }, outbox);
  }

  /** The request as the API answers it (also the `data` of its webhook events). */
  abstract view(scope: Scope, a: ApprovalNode): object;

  /** The fields both kinds of request answer alike, in the session's organisation, project and environment. */
  protected common(scope: Scope, a: ApprovalNode) {
    return {
      requesting_user_id: a.requesting_user_id,
      reason: a.reason,
      org_id: scope.orgId,
      project_id: scope.projectId,
      env_id: scope.envId,
      created_at: a.created_at,
      updated_at: a.updated_at,
      reviewer_user_id: a.reviewer_user_id ?? null,
      reviewed_at: a.reviewed_at ?? null,
      reviewer_comment: a.reviewer_comment ?? null,
      access_expires_at: a.access_expires_at ?? null,
    };
  }

  /** What a list item adds to the view, beyond the requester's name and email. */
  protected listed(_a: ApprovalItemNode): object {
    return {};
  }

  itemView(scope: Scope, a: ApprovalItemNode) {
    return {
      ...this.view(scope, a),
      requesting_user_email: a.requesting_user_email ?? null,
      requesting_user_first_name: a.requesting_user_first_name ?? null,
      requesting_user_last_name: a.requesting_user_last_name ?? null,
      ...this.listed(a),
    };
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

  async cancel(scope: Scope, session: Session, configRef: string, id: string, reason: string | undefined) {
    return this.view(scope, await this.flow.cancel(scope, session, configRef, id, reason));
  }

  /** A new request is made in the session's tenant only: 403 otherwise. */
  protected refuseOtherTenant(session: Session, tenant: string) {
    if (tenant !== session.tenantKey) {
      throw forbidden(
        `The session is for tenant ${JSON.stringify(session.tenantKey)}; log in to ${JSON.stringify(tenant)} to request there.`,
      );
    }
  }

  /** 422 when the config does not govern `resource`. */
  protected refuseUngoverned(config: ElementsConfig, resource: string) {
    throw invalidInput(`Resource ${JSON.stringify(resource)} is not governed by elements config ${JSON.stringify(config.key)}.`, [
      { path: '/body/access_request_details/resource', message: `must be one of ${JSON.stringify(config.resources)}` },
    ]);
  }
}
