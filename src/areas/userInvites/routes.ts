import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import { user } from '../facts/schemas';
import * as s from './schemas';
import type { UserInvitesService } from './service';

const base = '/v2/facts/:proj_id/:env_id/user_invites';
const tag = 'Users';

/** Permit's user invites (docs/behaviour.md section 25): no mail is sent. */
export const userInviteRoutes: RouteSpec<UserInvitesService>[] = [
  route({
    method: 'GET',
    path: base,
    auth: 'env',
    tag,
    summary: 'List the user invites',
    schemas: { params: s.params, query: s.pagingQuery, response: s.inviteList },
    handler: (r, svc) => svc.list(r.scope, paging(r.query)),
  }),
  route({
    method: 'POST',
    path: base,
    auth: 'env',
    tag,
    summary: 'Invite a user into a role (a record; no mail is sent)',
    schemas: { params: s.params, body: s.inviteCreate, response: s.invite },
    handler: (r, svc) => svc.create(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: `${base}/:user_invite_id`,
    auth: 'env',
    tag,
    summary: 'Get a user invite',
    schemas: { params: s.inviteParams, response: s.invite },
    handler: (r, svc) => svc.get(r.scope, r.params.user_invite_id),
  }),
  route({
    method: 'DELETE',
    path: `${base}/:user_invite_id`,
    auth: 'env',
    tag,
    summary: 'Delete a user invite',
    status: 204,
    schemas: { params: s.inviteParams },
    handler: (r, svc) => svc.remove(r.scope, r.params.user_invite_id),
  }),
  route({
    method: 'POST',
    path: `${base}/:user_invite_id/approve`,
    auth: 'env',
    tag,
    summary: "Redeem an invite: the user is made and given the invite's role",
    schemas: { params: s.inviteParams, body: s.inviteApprove, response: user },
    handler: (r, svc) => svc.approve(r.scope, r.params.user_invite_id, r.body),
  }),
];
