import { path } from './http.js';
import { ElementsRequests, type RequestFilters } from './elementsRequests.js';

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
  /** When the granted `_Approved_` ends (approved with a duration); null otherwise. */
  access_expires_at: string | null;
}
/** Seed 2.9. */
export interface OperationApprovalItem extends OperationApproval {
  requesting_user_email: string | null;
  requesting_user_first_name: string | null;
  requesting_user_last_name: string | null;
  resource_key: string;
  resource_instance_key: string;
}

/** List filters and paging, sent as HTTP headers (seed 4.2); status `pending` selects those with status null. */
export type ApprovalFilters = RequestFilters<'pending' | ApprovalStatus>;

/** Options of an approval. */
export interface ApproveOptions {
  /** The grant lasts this long (60..31,536,000 s); the answer carries `access_expires_at`. Absent: until revoked. */
  accessDurationSeconds?: number;
}

/** Operation approvals of one elements config, as the logged-in user of `session` (docs/behaviour.md section 7). */
export class Approvals extends ElementsRequests<OperationApproval, OperationApprovalItem, 'pending' | ApprovalStatus> {
  protected readonly segment = 'operation_approval';

  /** Asks for approval to `operate` on a resource (instance) of the session's tenant. */
  create(data: ApprovalCreate): Promise<OperationApproval> {
    return this.call('POST', '', data);
  }

  /** Approves a pending request (409 INVALID_STATE otherwise): the requester may then `operate` on the instance. */
  approve(id: string, reviewerComment?: string, options: ApproveOptions = {}): Promise<OperationApproval> {
    const body: Record<string, unknown> = {};
    if (reviewerComment !== undefined) body.reviewer_comment = reviewerComment;
    if (options.accessDurationSeconds !== undefined) body.access_duration_seconds = options.accessDurationSeconds;
    return this.call('PUT', path`/${id}/approve`, body);
  }
}
