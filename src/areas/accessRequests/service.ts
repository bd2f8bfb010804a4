import { randomUUID } from 'node:crypto';
import type { Scope, Session } from '../../auth/types';
import { AppError, invalidInput, notFound } from '../../errors';
import { now } from '../../util/time';
import type { DecisionEngine } from '../decisions/engine';
import type { WebhookOutbox } from '../webhooks/outbox';
import type { ElementsService } from '../elements/service';
import { ReviewedRequests } from '../approvals/requests';
import { expiresAfter, withinRequestLimit } from '../approvals/reviewFlow';
import type { ApprovalFilter, ApprovalNode, ApprovalStatus, ApprovalStore } from '../approvals/store';
import type { AccessRequestStore, RoleTarget } from './store';

export type RequestStatus = 'pending' | 'approved' | 'denied' | 'canceled';
const WIRE: Record<string, RequestStatus> = { approved: 'approved', deny: 'denied', cancel: 'canceled' };
const STORED: Record<RequestStatus, ApprovalFilter['status']> = {
  pending: 'pending',
  approved: 'approved',
  denied: 'deny',
  canceled: 'cancel',
};
/** The stored status a status filter names. */
export const storedStatus = (s: string) => STORED[s as RequestStatus];

export interface CreateInput {
  access_request_details: { tenant: string; resource?: string; resource_instance?: string; role: string };
  reason: string;
}
export interface ApproveInput {
  reviewer_comment?: string | null;
  role?: string;
  access_duration_seconds?: number;
}

/**
 * Access requests (docs/behaviour.md section 11): a user asks for a role, in their tenant or on one instance
 * of it; a reviewer (the approvals' rules) approves it, possibly granting another role, and the
 * grant is written in the transition's transaction. The flow is the approvals' own.
 */
export class AccessRequestService extends ReviewedRequests {
  constructor(
    private readonly store: AccessRequestStore,
    approvals: ApprovalStore,
    elements: ElementsService,
    decisions: DecisionEngine,
    outbox: WebhookOutbox,
  ) {
    super(approvals, elements, decisions, outbox, { elementsType: 'access_request', noun: 'Access request' });
  }

  view(scope: Scope, a: ApprovalNode) {
    return {
      id: a.id,
      ...this.common(scope, a),
      type: 'access_request' as const,
      access_request_details: {
        tenant: a.tenant,
        resource: a.resource ?? null,
        resource_instance: a.resource_instance ?? null,
        role: a.role ?? '',
      },
      status: a.status ? WIRE[a.status] : ('pending' as const),
      granted_role: a.granted_role ?? null,
    };
  }

  async create(scope: Scope, session: Session, configRef: string, input: CreateInput) {
    const { tenant, resource = null, resource_instance = null, role } = input.access_request_details;
    this.refuseOtherTenant(session, tenant);
    if ((resource === null) !== (resource_instance === null)) {
      throw invalidInput('Send resource and resource_instance together (a role on that instance), or neither (a tenant role).', [
        {
          path: `/body/access_request_details/${resource === null ? 'resource' : 'resource_instance'}`,
          message: 'is required with the other',
        },
      ]);
    }
    const { config, place } = await this.flow.place(scope, session, configRef);
    if (resource !== null && config.resources.length && !config.resources.includes(resource)) this.refuseUngoverned(config, resource);
    await this.checkRole(scope, place.tenant, role, resource, resource_instance, '/body/access_request_details/role');
    const a = await withinRequestLimit(
      this.store.create(
        place,
        { id: randomUUID(), user: session.userKey, role, resource, instance: resource_instance, reason: input.reason, nowIso: now() },
        this.flow.announcer(scope, 'created'),
      ),
    );
    return this.view(scope, a);
  }

  /** Approve: grants the requested role, or the reviewer's `role` (checked against the request's scope), for `access_duration_seconds` when sent. */
  async approve(scope: Scope, session: Session, configRef: string, id: string, input: ApproveInput) {
    const grant = async (a: ApprovalNode) => {
      const role = input.role ?? a.role ?? '';
      if (input.role) await this.checkRole(scope, a.tenant, role, a.resource ?? null, a.resource_instance ?? null, '/body/role');
      else await this.checkRequestedRole(scope, a, role);
      return { role, expiresAt: expiresAfter(input.access_duration_seconds) };
    };
    return this.view(scope, await this.flow.review(scope, session, configRef, id, 'approved', input.reviewer_comment, grant));
  }

  async deny(scope: Scope, session: Session, configRef: string, id: string, comment: string | null | undefined) {
    return this.view(scope, await this.flow.review(scope, session, configRef, id, 'deny' satisfies ApprovalStatus, comment));
  }

  /** The role a request asked for may have been deleted since: approving it as asked is then refused (409), the request stays pending. */
  private async checkRequestedRole(scope: Scope, a: ApprovalNode, role: string) {
    const t = await this.store.roleTarget(scope.envId, role, a.resource ?? null, a.resource_instance ?? null);
    if (grantable(t, a.resource_instance ?? null)) return;
    throw new AppError(
      409,
      'INVALID_STATE',
      `The requested role ${JSON.stringify(role)} no longer exists: deny the request, or approve it with another role.`,
    );
  }

  /**
   * A tenant-wide request needs a tenant role; an instance request a role of its resource (or a
   * tenant role) and an instance of the tenant: one of another tenant answers the same 404 as one
   * that does not exist (docs/behaviour.md section 15: no oracle of other tenants' instances).
   */
  private async checkRole(scope: Scope, tenant: string, role: string, resource: string | null, instance: string | null, path: string) {
    const t = await this.store.roleTarget(scope.envId, role, resource, instance);
    if (instance !== null) {
      if (t.instance_tenant !== tenant) throw notFound('Resource instance', `${resource}:${instance}`);
    }
    if (!grantable(t, instance)) {
      const what = instance === null ? 'a tenant role' : `a role of resource ${JSON.stringify(resource)} or a tenant role`;
      throw invalidInput(`Role ${JSON.stringify(role)} is not ${what}.`, [{ path, message: `must be ${what}` }]);
    }
  }
}

/** A tenant-wide request grants a tenant role; an instance request a role of its resource or a tenant role. */
const grantable = (t: RoleTarget, instance: string | null) => (instance === null ? t.tenant_role : t.resource_role || t.tenant_role);
