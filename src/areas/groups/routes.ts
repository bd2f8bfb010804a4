import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import { GroupsService } from './service';
import { arr, int, MAX_BULK_ITEMS, obj } from '../../http/schema';
import { directGroupRoutes } from './directRoutes';

const base = '/v2/schema/:proj_id/:env_id';

const tag = 'Groups';
const one = `${base}/groups/:group_key`;
const roles = [`${base}/group/:group_key/roles`, `${one}/roles`];
/** CONTRACT section 4. Role assignment answers at the seed's `/group/...` and at `/groups/...`. */
export const groupsRoutes: RouteSpec<GroupsService>[] = [
  // Before `/groups/:group_key`, which would otherwise take "direct" for a group key.
  ...directGroupRoutes,
  route({
    method: 'POST', path: `${base}/groups`, auth: 'env', tag, summary: 'Create a group (and its group type if missing)',
    schemas: { params: s.params, body: s.groupCreate, response: s.group },
    handler: (r, svc) => svc.createGroup(r.scope, r.body),
  }),
  route({
    method: 'POST', path: `${base}/groups/bulk`, auth: 'env', tag, heavy: true, summary: 'Create many groups in one transaction (all or nothing)',
    schemas: { params: s.params, body: obj({ operations: arr(s.groupCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']), response: obj({ groups_created: int() }) },
    handler: (r, svc) => svc.createGroupsBulk(r.scope, r.body.operations),
  }),
  route({
    method: 'GET', path: `${base}/groups`, auth: 'env', tag, summary: 'List groups',
    schemas: { params: s.params, query: s.listQuery, response: s.groupList },
    handler: (r, svc) => svc.listGroups(r.scope, r.query, paging(r.query)),
  }),
  route({
    method: 'GET', path: one, auth: 'env', tag, summary: 'Get a group',
    schemas: { params: s.groupParams, response: s.group },
    handler: (r, svc) => svc.getGroup(r.scope, r.params.group_key),
  }),
  route({
    method: 'PATCH', path: one, auth: 'env', tag, summary: 'Update a group',
    schemas: { params: s.groupParams, body: s.groupUpdate, response: s.group },
    handler: (r, svc) => svc.updateGroup(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'DELETE', path: one, auth: 'env', tag, summary: 'Delete a group; revokes everything derived through it',
    status: 204, schemas: { params: s.groupParams },
    handler: (r, svc) => svc.deleteGroup(r.scope, r.params.group_key),
  }),
  route({
    method: 'POST', path: roles, auth: 'env', tag, summary: 'Assign a role on a resource instance to a group',
    schemas: { params: s.groupParams, body: s.groupRole, response: s.group },
    handler: (r, svc) => svc.assignRole(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'DELETE', path: roles, auth: 'env', tag, summary: 'Remove a role assignment from a group',
    status: 204, schemas: { params: s.groupParams, body: s.groupRole },
    handler: (r, svc) => svc.removeRole(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'GET', path: `${one}/roles`, auth: 'env', tag, summary: "List a group's role assignments",
    schemas: { params: s.groupParams, query: s.pagingQuery, response: s.roleList },
    handler: (r, svc) => svc.listRoles(r.scope, r.params.group_key, paging(r.query)),
  }),
  route({
    method: 'PUT', path: `${one}/users/:user_id`, auth: 'env', tag, summary: 'Add a user to a group',
    schemas: { params: s.groupUserParams, body: s.membership, response: s.group },
    handler: (r, svc) => svc.addUser(r.scope, r.params.group_key, r.params.user_id, r.body),
  }),
  route({
    method: 'DELETE', path: `${one}/users/:user_id`, auth: 'env', tag, summary: 'Remove a user from a group',
    status: 204, schemas: { params: s.groupUserParams, body: s.membershipRemoval },
    handler: (r, svc) => svc.removeUser(r.scope, r.params.group_key, r.params.user_id, r.body),
  }),
  route({
    method: 'GET', path: `${one}/users`, auth: 'env', tag, summary: "List a group's users",
    schemas: { params: s.groupParams, query: s.pagingQuery, response: s.userList },
    handler: (r, svc) => svc.listUsers(r.scope, r.params.group_key, paging(r.query)),
  }),
  route({
    method: 'PUT', path: `${one}/assign_group`, auth: 'env', tag, summary: 'Make this group a member of another group',
    schemas: { params: s.groupParams, body: s.groupAssignment, response: s.group },
    handler: (r, svc) => svc.assignGroup(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'DELETE', path: `${one}/assign_group`, auth: 'env', tag, summary: 'Remove this group from another group',
    status: 204, schemas: { params: s.groupParams, body: s.groupAssignment },
    handler: (r, svc) => svc.unassignGroup(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'GET', path: `${one}/children`, auth: 'env', tag, summary: 'List the groups assigned into this group',
    schemas: { params: s.groupParams, query: s.pagingQuery, response: s.groupList },
    handler: (r, svc) => svc.listChildren(r.scope, r.params.group_key, paging(r.query)),
  }),
  route({
    method: 'GET', path: `${one}/parents`, auth: 'env', tag, summary: 'List the groups this group was assigned into',
    schemas: { params: s.groupParams, query: s.pagingQuery, response: s.groupList },
    handler: (r, svc) => svc.listParents(r.scope, r.params.group_key, paging(r.query)),
  }),
  route({
    method: 'PUT', path: `${one}/resource_instances`, auth: 'env', tag, summary: 'Attach a resource instance to a group',
    schemas: { params: s.groupParams, body: s.groupInstance, response: s.group },
    handler: (r, svc) => svc.attachInstance(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'DELETE', path: `${one}/resource_instances`, auth: 'env', tag, summary: 'Detach a resource instance from a group',
    status: 204, schemas: { params: s.groupParams, body: s.groupInstance },
    handler: (r, svc) => svc.detachInstance(r.scope, r.params.group_key, r.body),
  }),
  route({
    method: 'GET', path: `${one}/resource_instances`, auth: 'env', tag, summary: 'List the resource instances attached to a group',
    schemas: { params: s.groupParams, query: s.pagingQuery, response: s.instanceList },
    handler: (r, svc) => svc.listInstances(r.scope, r.params.group_key, paging(r.query)),
  }),
];
