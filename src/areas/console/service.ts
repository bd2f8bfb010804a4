import type { Principal, Scope } from '../../auth/types';
import { forbidden } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import type { ApprovalsQueueStore } from './store';

/**
 * The approvals queue of the admin console: operation approvals and access requests, admin only.
 * The admin reads it; a decision is made by a reviewer through their own elements session (the
 * console logs the chosen reviewer in: docs/console.md#approvals), so the reviewer rules hold.
 */
export class ApprovalsQueueService {
  constructor(private readonly store: ApprovalsQueueStore) {}

  /** Admin only: a reviewer sees approvals through their elements session, an environment key never. */
  async list(principal: Principal, scope: Scope, filter: { config?: string; status?: string; type?: string }, page: Page) {
    if (principal.kind !== 'admin') throw forbidden('The approvals queue needs the admin key.');
    const { total, data } = await this.store.list(
      scope.envId,
      { config: filter.config ?? null, status: filter.status ?? null, type: filter.type ?? null },
      page,
    );
    return envelopeOf(
      data.map((a) => ({
        id: a.id,
        type: a.type ?? 'operation_approval',
        role: a.role ?? null,
        elements_config_id: a.config_id,
        elements_config_key: a.config_key,
        tenant: a.tenant,
        resource: a.resource,
        resource_instance: a.resource_instance,
        requesting_user_id: a.requesting_user_id,
        reason: a.reason ?? null,
        status: a.status ?? 'pending',
        reviewer_user_id: a.reviewer_user_id ?? null,
        reviewed_at: a.reviewed_at ?? null,
        reviewer_comment: a.reviewer_comment ?? null,
        created_at: a.created_at,
      })),
      total,
      page,
    );
  }
}
