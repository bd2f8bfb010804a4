import { route, type Req, type RouteSpec } from '../../http/routeTable';
import { listArgs } from '../../http/listFilters';
import * as s from './schemas';
import { type AccessRequestService, storedStatus } from './service';

const base = '/v2/elements/:proj_id/:env_id/config/:elements_config_id/access_requests';

const tag = 'Access requests';
const cfg = (r: Req) => r.params.elements_config_id as string;
const id = (r: Req) => r.params.access_request_id as string;
export const accessRequestRoutes: RouteSpec<AccessRequestService>[] = [
  route({
    method: 'POST',
    path: base,
    auth: 'session',
    tag,
    summary: 'Request a role (in the tenant, or on one instance)',
    schemas: { params: s.params, headers: s.headers, body: s.createBody, response: s.accessRequest },
    handler: (r, svc) => svc.create(r.scope, r.session, cfg(r), r.body),
  }),
  route({
    method: 'GET',
    path: base,
    auth: 'session',
    tag,
    summary: 'List access requests (reviewers: all of the tenant; others: their own)',
    schemas: { params: s.params, query: s.listQuery, headers: s.listHeaders, response: s.accessRequestList },
    handler: (r, svc) => {
      const { filter, page } = listArgs(r, storedStatus);
      return svc.list(r.scope, r.session, cfg(r), filter, page);
    },
  }),
  route({
    method: 'GET',
    path: `${base}/:access_request_id`,
    auth: 'session',
    tag,
    summary: 'Get an access request',
    schemas: { params: s.requestParams, headers: s.headers, response: s.accessRequest },
    handler: (r, svc) => svc.get(r.scope, r.session, cfg(r), id(r)),
  }),
  route({
    method: 'PATCH',
    path: `${base}/:access_request_id/reviewer`,
    auth: 'session',
    tag,
    summary: 'Set the reviewer comment',
    schemas: { params: s.requestParams, headers: s.headers, body: s.reviewBody, response: s.accessRequest },
    handler: (r, svc) => svc.setReviewerComment(r.scope, r.session, cfg(r), id(r), r.body.reviewer_comment),
  }),
  route({
    method: 'PUT',
    path: `${base}/:access_request_id/approve`,
    auth: 'session',
    tag,
    summary: 'Approve a pending access request (grants the requested role, or `role`, in the same transaction)',
    schemas: { params: s.requestParams, headers: s.headers, body: s.approveBody, response: s.accessRequest },
    handler: (r, svc) => svc.approve(r.scope, r.session, cfg(r), id(r), r.body),
  }),
  route({
    method: 'PUT',
    path: `${base}/:access_request_id/deny`,
    auth: 'session',
    tag,
    summary: 'Deny a pending access request',
    schemas: { params: s.requestParams, headers: s.headers, body: s.reviewBody, response: s.accessRequest },
    handler: (r, svc) => svc.deny(r.scope, r.session, cfg(r), id(r), r.body.reviewer_comment),
  }),
  route({
    method: 'PUT',
    path: `${base}/:access_request_id/cancel`,
    auth: 'session',
    tag,
    summary: 'Cancel your own pending access request',
    schemas: { params: s.requestParams, headers: s.headers, body: s.cancelBody, response: s.accessRequest },
    handler: (r, svc) => svc.cancel(r.scope, r.session, cfg(r), id(r), r.body.reason),
  }),
];
