import { listArgs } from '../../http/listFilters';
import { route, type Req, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { ApprovalService } from './service';
import type { ApprovalFilter } from './store';

const base = '/v2/elements/:proj_id/:env_id/config/:elements_config_id/operation_approval';

type StoredStatus = ApprovalFilter['status'];

const tag = 'Operation approvals';
const cfg = (r: Req) => r.params.elements_config_id as string;
const id = (r: Req) => r.params.operation_approval_id as string;
export const approvalRoutes: RouteSpec<ApprovalService>[] = [
  route({
    method: 'POST',
    path: base,
    auth: 'session',
    tag,
    summary: 'Request an operation approval',
    schemas: { params: s.params, headers: s.headers, body: s.createBody, response: s.approval },
    handler: (r, svc) => svc.create(r.scope, r.session, cfg(r), r.body),
  }),
  route({
    method: 'GET',
    path: base,
    auth: 'session',
    tag,
    summary: 'List operation approvals (reviewers: all of the tenant; others: their own)',
    schemas: { params: s.params, query: s.listQuery, headers: s.listHeaders, response: s.approvalList },
    handler: (r, svc) => {
      const { filter, page } = listArgs<StoredStatus>(r);
      return svc.list(r.scope, r.session, cfg(r), filter, page);
    },
  }),
  route({
    method: 'GET',
    path: `${base}/:operation_approval_id`,
    auth: 'session',
    tag,
    summary: 'Get an operation approval',
    schemas: { params: s.approvalParams, headers: s.headers, response: s.approval },
    handler: (r, svc) => svc.get(r.scope, r.session, cfg(r), id(r)),
  }),
  route({
    method: 'PATCH',
    path: `${base}/:operation_approval_id/reviewer`,
    auth: 'session',
    tag,
    summary: 'Set the reviewer comment',
    schemas: { params: s.approvalParams, headers: s.headers, body: s.reviewBody, response: s.approval },
    handler: (r, svc) => svc.setReviewerComment(r.scope, r.session, cfg(r), id(r), r.body.reviewer_comment),
  }),
  route({
    method: 'PUT',
    path: `${base}/:operation_approval_id/approve`,
    auth: 'session',
    tag,
    summary:
      'Approve a pending operation approval (grants the requester _Approved_ on the instance, for access_duration_seconds when sent)',
    schemas: { params: s.approvalParams, headers: s.headers, body: s.approveBody, response: s.approval },
    handler: (r, svc) => svc.review(r.scope, r.session, cfg(r), id(r), 'approved', r.body.reviewer_comment, r.body.access_duration_seconds),
  }),
  route({
    method: 'PUT',
    path: `${base}/:operation_approval_id/deny`,
    auth: 'session',
    tag,
    summary: 'Deny a pending operation approval',
    schemas: { params: s.approvalParams, headers: s.headers, body: s.reviewBody, response: s.approval },
    handler: (r, svc) => svc.review(r.scope, r.session, cfg(r), id(r), 'deny', r.body.reviewer_comment),
  }),
  route({
    method: 'PUT',
    path: `${base}/:operation_approval_id/cancel`,
    auth: 'session',
    tag,
    summary: 'Cancel your own pending operation approval',
    schemas: { params: s.approvalParams, headers: s.headers, body: s.cancelBody, response: s.approval },
    handler: (r, svc) => svc.cancel(r.scope, r.session, cfg(r), id(r), r.body.reason),
  }),
];
