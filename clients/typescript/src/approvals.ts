import { Http, type Page, path } from './http.js';
import { cookieOf, type SessionRef } from './elements.js';

export type ApprovalStatus = 'approved' | 'deny' | 'cancel';

export interface AccessRequestDetails {
  tenant: string;
  resource: string;
  /** Absent on create: a new instance (UUID key) is created and returned. */
  resource_instance?: string;
}
export interface ApprovalCreate {
  access_request_details: AccessRequestDetails;
  reason: string;
}

/** Seed 2.8 (plus `id`). */
export interface OperationApproval {
  id: string;
  type: 'operation_approval';
  requesting_user_id: string;
  access_request_details: Required<AccessRequestDetails>;
  reason: string;
  org_id: string;
  project_id: string;
  env_id: string;
  created_at: string;
  updated_at: string;
  /** null while pending. */
  status: ApprovalStatus | null;
  reviewer_user_id: string | null;
  reviewed_at: string | null;
  reviewer_comment: string | null;
}
/** Seed 2.9. */
export interface OperationApprovalItem extends OperationApproval {
  requesting_user_email: string | null;
  requesting_user_first_name: string | null;
  requesting_user_last_name: string | null;
  resource_key: string;
  resource_instance_key: string;
}

/** List filters and paging, sent as HTTP headers (seed 4.2). */
export interface ApprovalFilters {
  /** `pending` selects those with status null. */
  status?: 'pending' | ApprovalStatus;
  resource?: string;
  resource_instance?: string;
  page?: number;
  /** 1..100, default 30. */
  per_page?: number;
}

/**
 * Operation approvals of one elements config, as the logged-in user of `session`
 * (CONTRACT section 7). Every call sends the session cookie and the `element_id` header.
 */
export class Approvals {
  constructor(
    private readonly http: Http,
    private readonly session: SessionRef,
    readonly elementsConfigId: string,
  ) {}

  private async at(rest = ''): Promise<string> {
    const s = await this.http.scope();
    return path`/v2/elements/${s.project}/${s.env}/config/${this.elementsConfigId}/operation_approval` + rest;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { cookie: cookieOf(this.session), element_id: this.elementsConfigId, ...extra };
  }

  private async call<T>(method: string, rest: string, body?: unknown, extra?: Record<string, string>): Promise<T> {
    return this.http.request<T>(method, await this.at(rest), { auth: false, headers: this.headers(extra), body });
  }

  /** Asks for approval to `operate` on a resource (instance) of the session's tenant. */
  create(data: ApprovalCreate): Promise<OperationApproval> {
    return this.call('POST', '', data);
  }

  /** Reviewers and the requester; anyone else gets 404. */
  get(id: string): Promise<OperationApproval> {
    return this.call('GET', path`/${id}`);
  }

  /** One page, newest first: reviewers see every approval of the config in their tenant, others their own. */
  list(filters: ApprovalFilters = {}): Promise<Page<OperationApprovalItem>> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== null) headers[k] = String(v);
    return this.call('GET', '', undefined, headers);
  }

  /** Every approval matching `filters`, page after page (`per_page` default 100). */
  async *all(filters: Omit<ApprovalFilters, 'page'> = {}): AsyncGenerator<OperationApprovalItem, void, undefined> {
    const per_page = filters.per_page ?? 100;
    for (let page = 1; ; page++) {
      const res = await this.list({ ...filters, page, per_page });
      yield* res.data;
      if (page >= res.page_count || res.data.length === 0) return;
    }
  }

  /** Sets the reviewer comment (reviewer, any state). */
  updateReviewer(id: string, reviewerComment: string | null): Promise<OperationApproval> {
    return this.call('PATCH', path`/${id}/reviewer`, { reviewer_comment: reviewerComment });
  }

  /** Approves a pending request (409 INVALID_STATE otherwise): the requester may then `operate` on the instance. */
  approve(id: string, reviewerComment?: string): Promise<OperationApproval> {
    return this.call('PUT', path`/${id}/approve`, reviewerComment === undefined ? {} : { reviewer_comment: reviewerComment });
  }

  /** Denies a pending request. */
  deny(id: string, reviewerComment?: string): Promise<OperationApproval> {
    return this.call('PUT', path`/${id}/deny`, reviewerComment === undefined ? {} : { reviewer_comment: reviewerComment });
  }

  /** Cancels one's own pending request; the answer keeps the original `reason`. */
  cancel(id: string, reason?: string): Promise<OperationApproval> {
    return this.call('PUT', path`/${id}/cancel`, reason === undefined ? {} : { reason });
  }
}
