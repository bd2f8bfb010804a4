import { forbidden } from '../../errors';
import { route, type Req, type RouteSpec } from '../../http/routeTable';
import { withDepthLimitSignal } from '../../http/depthLimit';
import type { ListObjectsService } from './listObjects';
import { askerOf, permissionsQueryOf, plainContextOf, questionOf, strictest, usersQueryOf } from './question';
import * as s from './schemas';
import type { DecisionService } from './service';

/** PDP paths take the environment from the calling key; the admin key has none. */
function envKeyScope(r: Req) {
  if (!r.scope) throw forbidden('The Permit PDP paths need an environment key; with the admin key use /v2/allowed/{proj_id}/{env_id}.');
  return r.scope;
}

/** An explained check walks every path and returns them: a heavy question; a plain one goes to the batcher. */
const explained = (r: Req) => r.query?.explain === true || r.body?.explain === true;

/**
 * Each handler turns its body into the engine's question (src/areas/decisions/question.ts) here,
 * once: every decision endpoint takes the same user, resource, attributes, context and consistency.
 */
const check = (r: Req, svc: DecisionService, scope = r.scope) =>
  svc.allowed(scope, questionOf(r.body), { explain: explained(r), consistency: r.body.consistency });
const bulk = (r: Req, svc: DecisionService, scope = r.scope) =>
  svc.allowedBulk(scope, r.body.map(questionOf), strictest(r.body.map((b: { consistency?: never }) => b.consistency)));
const listPage = (r: Req, listing: ListObjectsService, scope = r.scope) =>
  listing.listObjects(
    scope,
    {
      ...askerOf(r.body.user),
      action: r.body.action,
      type: r.body.resource_type,
      tenant: r.body.tenant ?? null,
      context: plainContextOf(r.body.context),
      pageSize: r.body.page_size ?? null,
      continuationToken: r.body.continuation_token ?? null,
    },
    r.body.consistency,
  );

const tag = 'Decisions';
const listObjectsSummary = 'Every instance of a type on which the user may do the action (paged, stable order)';
export const decisionRoutes: RouteSpec<{ svc: DecisionService; listing: ListObjectsService }>[] = [
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/v2/allowed/:proj_id/:env_id',
    auth: 'env',
    tag,
    heavy: explained,
    summary: 'May this user do this action on this resource?',
    schemas: { params: s.params, query: s.explainQuery, body: s.checkQuery, response: s.checkAnswer },
    handler: async (r, { svc }) => withDepthLimitSignal(r, await check(r, svc)),
  }),
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/v2/allowed/:proj_id/:env_id/bulk',
    auth: 'env',
    tag,
    summary: 'Up to 100 permission questions at once (order kept)',
    schemas: { params: s.params, body: s.bulkQuery, response: s.bulkAnswer },
    handler: async (r, { svc }) => withDepthLimitSignal(r, await bulk(r, svc)),
  }),
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/allowed',
    auth: 'key',
    tag,
    heavy: explained,
    summary: 'Permit PDP check (environment key)',
    schemas: { query: s.explainQuery, body: s.checkQuery, response: s.checkAnswer },
    handler: async (r, { svc }) => withDepthLimitSignal(r, await check(r, svc, envKeyScope(r))),
  }),
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/allowed/bulk',
    auth: 'key',
    tag,
    summary: 'Permit PDP bulk check (environment key)',
    schemas: { body: s.bulkQuery, response: s.bulkAnswer },
    handler: async (r, { svc }) => withDepthLimitSignal(r, await bulk(r, svc, envKeyScope(r))),
  }),
  route({
    method: 'POST',
    readOnly: true,
    path: '/v2/allowed/:proj_id/:env_id/user-permissions',
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Everything a user may do, per instance and tenant',
    schemas: { params: s.params, body: s.userPermissionsQuery, response: s.userPermissionsAnswer },
    handler: (r, { svc }) => svc.userPermissions(r.scope, permissionsQueryOf(r.body), r.body.consistency),
  }),
  route({
    method: 'POST',
    readOnly: true,
    path: '/v2/allowed/:proj_id/:env_id/authorized_users',
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Every user allowed an action on a resource, with the granting assignments',
    schemas: { params: s.params, body: s.authorizedUsersQuery, response: s.authorizedUsersAnswer },
    handler: (r, { svc }) => svc.authorizedUsers(r.scope, usersQueryOf(r.body), r.body.consistency),
  }),
  route({
    method: 'POST',
    readOnly: true,
    path: '/user-permissions',
    auth: 'key',
    tag,
    heavy: true,
    summary: 'Permit PDP user permissions (environment key)',
    schemas: { body: s.userPermissionsQuery, response: s.userPermissionsAnswer },
    handler: (r, { svc }) => svc.userPermissions(envKeyScope(r), permissionsQueryOf(r.body), r.body.consistency),
  }),
  route({
    method: 'POST',
    readOnly: true,
    path: '/authorized_users',
    auth: 'key',
    tag,
    heavy: true,
    summary: 'Permit PDP authorized users (environment key)',
    schemas: { body: s.authorizedUsersQuery, response: s.authorizedUsersAnswer },
    handler: (r, { svc }) => svc.authorizedUsers(envKeyScope(r), usersQueryOf(r.body), r.body.consistency),
  }),
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/v2/allowed/:proj_id/:env_id/list-objects',
    auth: 'env',
    tag,
    heavy: true,
    summary: listObjectsSummary,
    schemas: { params: s.params, body: s.listObjectsQuery, response: s.listObjectsAnswer },
    handler: (r, { listing }) => listPage(r, listing),
  }),
  route({
    method: 'POST',
    readOnly: true,
    hot: true,
    path: '/list-objects',
    auth: 'key',
    tag,
    heavy: true,
    summary: `${listObjectsSummary} (environment key)`,
    schemas: { body: s.listObjectsQuery, response: s.listObjectsAnswer },
    handler: (r, { listing }) => listPage(r, listing, envKeyScope(r)),
  }),
];
