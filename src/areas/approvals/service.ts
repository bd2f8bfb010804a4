import { randomUUID } from 'node:crypto';
import type { Scope, Session } from '../../auth/types';
import { now } from '../../util/time';
import type { DecisionEngine } from '../decisions/engine';
import type { ElementsService } from '../elements/service';
import type { WebhookOutbox } from '../webhooks/outbox';
import { ReviewedRequests } from './requests';
import { expiresAfter, withinRequestLimit } from './reviewFlow';
import type { ApprovalItemNode, ApprovalNode, ApprovalStore } from './store';

export interface CreateInput {
  access_request_details: { tenant: string; resource: string; resource_instance?: string };
  reason: string;
}

/**
 * Operation approvals (seed 3.2, 4.2; docs/behaviour.md section 7). Every call works in the session's
 * tenant. A reviewer of an approval holds a LEVEL_1/LEVEL_2 role of the config in its tenant,
 * or is allowed `review` on its instance (directly, through groups or derivations).
 */
export class ApprovalService extends ReviewedRequests {
  constructor(store: ApprovalStore, elements: ElementsService, decisions: DecisionEngine, outbox: WebhookOutbox) {
    super(store, elements, decisions, outbox, { elementsType: 'operation_approval', noun: 'Operation approval' });
  }

  view(scope: Scope, a: ApprovalNode) {
    return {
      id: a.id,
      ...this.common(scope, a),
      type: 'operation_approval' as const,
      access_request_details: { tenant: a.tenant, resource: a.resource, resource_instance: a.resource_instance },
      status: a.status ?? null,
    };
  }

  protected override listed(a: ApprovalItemNode) {
    return { resource_key: a.resource, resource_instance_key: a.resource_instance };
  }

  async create(scope: Scope, session: Session, configRef: string, input: CreateInput) {
    const { tenant, resource, resource_instance } = input.access_request_details;
    this.refuseOtherTenant(session, tenant);
    const { config, place } = await this.flow.place(scope, session, configRef);
    if (!config.resources.includes(resource)) this.refuseUngoverned(config, resource);
    const a = await withinRequestLimit(
      this.flow.store.create(
        place,
        { id: randomUUID(), user: session.userKey, resource, instance: resource_instance ?? null, reason: input.reason, nowIso: now() },
        this.flow.announcer(scope, 'created'),
      ),
    );
    return this.view(scope, a);
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
}
