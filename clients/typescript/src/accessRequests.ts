import { path } from './http.js';
import { ElementsRequests, type RequestFilters } from './elementsRequests.js';
import type { AccessRequest, AccessRequestApprove, AccessRequestCreate, AccessRequestItem } from './types.js';

export type AccessRequestStatus = NonNullable<AccessRequest['status']>;
export type AccessRequestFilters = RequestFilters<AccessRequestStatus>;

/**
 * Access requests of one elements config (`elements_type: "access_request"`), as the logged-in
 * user of `session` (docs/behaviour.md section 11): a user asks for a role in their tenant, or on one
 * instance of it; a reviewer approves (possibly another role, possibly for a time), denies; the
 * requester may cancel.
 */
export class AccessRequests extends ElementsRequests<AccessRequest, AccessRequestItem, AccessRequestStatus> {
  protected readonly segment = 'access_requests';

  /** Asks for `role`: in `tenant` (the session's), or on `resource:resource_instance` when both are sent. */
  create(data: AccessRequestCreate): Promise<AccessRequest> {
    return this.call('POST', '', data);
  }

  /** Approves a pending request, granting its role or `role`, for `access_duration_seconds` when sent. */
  approve(id: string, options: AccessRequestApprove = {}): Promise<AccessRequest> {
    return this.call('PUT', path`/${id}/approve`, options);
  }
}
