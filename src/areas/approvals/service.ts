import { randomUUID } from 'node:crypto';
import type { Scope, Session } from '../../auth/types';
import { forbidden, invalidInput, invalidState, notFound } from '../../errors';
import { envelopeOf, Page } from '../../http/paging';
import { now } from '../../util/time';
import type { DecisionService } from '../decisions/service';
import { ElementsConfig, ElementsService, REVIEWER_LEVELS } from '../elements/service';
import { ApprovalFilter, ApprovalItemNode, ApprovalNode, ApprovalPlace, ApprovalStatus, ApprovalStore } from './store';

export interface CreateInput {
  access_request_details: { tenant: string; resource: string; resource_instance?: string };
  reason: string;
}
/** Decision questions per round trip when finding the approvals a user may review. */
const REVIEW_BATCH = 200;

/**
 * Operation approvals (seed 3.2, 4.2; CONTRACT section 7). Every call works in the session's
 * tenant. A reviewer of an approval holds a LEVEL_1/LEVEL_2 role of the config in its tenant,
 * or is allowed `review` on its instance (directly, through groups or derivations).
 */
export class ApprovalService {
  constructor(
    private readonly store: ApprovalStore,
    private readonly elements: ElementsService,
    private readonly decisions: DecisionService,
  ) {}

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
      throw forbidden(`The session is for tenant ${JSON.stringify(session.tenantKey)}; log in to ${JSON.stringify(tenant)} to request there.`);
    }
    const { config, place } = await this.place(scope, session, configRef);
    if (!config.resources.includes(resource)) {
      throw invalidInput(`Resource ${JSON.stringify(resource)} is not governed by elements config ${JSON.stringify(config.key)}.`, [
        { path: '/body/access_request_details/resource', message: `must be one of ${JSON.stringify(config.resources)}` },
      ]);
    }
    const a = await this.store.create(place, {
      id: randomUUID(), user: session.userKey, resource, instance: resource_instance ?? randomUUID(), instanceId: randomUUID(),
      reason: input.reason, now: now(),
    });
    return this.view(scope, a);
  }

  async get(scope: Scope, session: Session, configRef: string, id: string) {
    const { a } = await this.visible(scope, session, configRef, id);
    return this.view(scope, a);
  }

  async list(scope: Scope, session: Session, configRef: string, filter: ApprovalFilter, page: Page) {
    const { config, place } = await this.place(scope, session, configRef);
    const user = session.userKey;
    const everything = await this.isLevelReviewer(scope, config, user, place.tenant);
    const reviewable: string[] = [];
    if (!everything && (await this.store.mayReviewInstances(scope.envId, user, place.tenant))) {
      const candidates = await this.store.reviewCandidates(place, user, filter);
      for (let i = 0; i < candidates.length; i += REVIEW_BATCH) {
        const batch = candidates.slice(i, i + REVIEW_BATCH);
        const { allow } = await this.decisions.allowedBulk(
          scope,
          batch.map((c) => ({ user, action: 'review', resource: { type: c.resource, key: c.instance, tenant: place.tenant } })),
        );
        batch.forEach((c, j) => {
          if (allow[j].allow) reviewable.push(`${c.resource}:${c.instance}`);
        });
      }
    }
    const { total, data } = await this.store.list(place, { user, everything, reviewable }, filter, page);
    return envelopeOf(data.map((a) => this.itemView(scope, a)), total, page);
  }

  async setReviewerComment(scope: Scope, session: Session, configRef: string, id: string, comment: string | null | undefined) {
    const { place } = await this.reviewable(scope, session, configRef, id);
    const a = await this.store.setReviewerComment(place, id, comment, now());
    if (!a) throw notFound('Operation approval', id);
    return this.view(scope, a);
  }

  async review(scope: Scope, session: Session, configRef: string, id: string, status: 'approved' | 'deny', comment: string | null | undefined) {
    const { place } = await this.reviewable(scope, session, configRef, id);
    return this.transition(scope, place, id, status, { reviewer: session.userKey, comment, cancelReason: null });
  }

  async cancel(scope: Scope, session: Session, configRef: string, id: string, reason: string | undefined) {
    const { a, place, reviewer } = await this.visible(scope, session, configRef, id);
    if (a.requesting_user_id !== session.userKey) {
      throw reviewer ? forbidden('Only the requesting user may cancel an operation approval.') : notFound('Operation approval', id);
    }
    return this.transition(scope, place, id, 'cancel', { reviewer: null, cancelReason: reason ?? null });
  }

  private async transition(scope: Scope, place: ApprovalPlace, id: string, status: ApprovalStatus,
    t: { reviewer: string | null; comment?: string | null; cancelReason: string | null }) {
    const res = await this.store.transition(place, id, { status, ...t, now: now() });
    if (!res) throw notFound('Operation approval', id);
    if (!res.won) {
      throw invalidState(`Operation approval ${id} is ${res.approval.status ?? 'pending'}; only a pending approval can be ${status === 'deny' ? 'denied' : status === 'cancel' ? 'cancelled' : 'approved'}.`);
    }
    return this.view(scope, res.approval);
  }

  /** The approval, for a reviewer who did not request it: others get 403 (requester) or 404. */
  private async reviewable(scope: Scope, session: Session, configRef: string, id: string) {
    const v = await this.visible(scope, session, configRef, id);
    if (!v.reviewer) throw forbidden('Only a reviewer may review an operation approval.');
    if (v.a.requesting_user_id === session.userKey) throw forbidden('A reviewer cannot review their own operation approval.');
    return v;
  }

  /** The approval when the session's user requested it or reviews it; 404 for anyone else. */
  private async visible(scope: Scope, session: Session, configRef: string, id: string) {
    const { config, place } = await this.place(scope, session, configRef);
    const a = await this.store.get(place, id);
    if (!a) throw notFound('Operation approval', id);
    const reviewer = await this.isReviewer(scope, config, session.userKey, a);
    if (!reviewer && a.requesting_user_id !== session.userKey) throw notFound('Operation approval', id);
    return { a, place, reviewer };
  }

  private async isReviewer(scope: Scope, config: ElementsConfig, user: string, a: ApprovalNode): Promise<boolean> {
    if (await this.isLevelReviewer(scope, config, user, a.tenant)) return true;
    const { allow } = await this.decisions.allowed(scope, { user, action: 'review', resource: { type: a.resource, key: a.resource_instance, tenant: a.tenant } });
    return allow;
  }

  private isLevelReviewer(scope: Scope, config: ElementsConfig, user: string, tenant: string): Promise<boolean> {
    const roles = REVIEWER_LEVELS.flatMap((l) => config.rolesToLevels[l]);
    return this.store.holdsTenantRole(scope.envId, user, tenant, roles);
  }

  private async place(scope: Scope, session: Session, configRef: string): Promise<{ config: ElementsConfig; place: ApprovalPlace }> {
    const config = await this.elements.find(scope, configRef);
    if (!config) throw notFound('Elements config', configRef);
    return { config, place: { env: scope.envId, config: config.id, tenant: session.tenantKey } };
  }
}
