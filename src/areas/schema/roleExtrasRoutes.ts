import { paging } from '../../http/paging';
import type { RouteSpec } from '../../http/routeTable';
import type { ActionGroupsService } from './actionGroupsService';
import type { ActionsService } from './actionsService';
import type { RoleExtrasService } from './roleExtrasService';
import type { RolesService } from './rolesService';
import * as s from './schemas';

const base = '/v2/schema/:proj_id/:env_id';
const res = `${base}/resources/:resource`;

const tag = 'Schema';

export interface RoleExtrasDeps {
  roles: RolesService;
  extras: RoleExtrasService;
  actions: ActionsService;
  actionGroups: ActionGroupsService;
}

/**
 * Permit's role hierarchy (parents, ancestors, descendants), permission assignment, single
 * actions, action groups (docs/behaviour.md section 23) and derivation conditions, for tenant roles
 * and resource roles (docs/behaviour.md section 10).
 */
export const roleExtrasRoutes: RouteSpec<RoleExtrasDeps>[] = [
  {
    method: 'PUT',
    path: `${base}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Make a tenant role extend another (422 on a cycle)',
    schemas: { params: s.roleParentParams, response: s.role },
    handler: (r, { extras }) => extras.addRoleParent(r.scope, r.params.role, r.params.parent),
  },
  {
    method: 'DELETE',
    path: `${base}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Stop a tenant role extending another',
    schemas: { params: s.roleParentParams, response: s.role },
    handler: (r, { extras }) => extras.removeRoleParent(r.scope, r.params.role, r.params.parent),
  },
  ...(['ancestors', 'descendants'] as const).map(
    (which): RouteSpec<RoleExtrasDeps> => ({
      method: 'GET',
      path: `${base}/roles/:role/${which}`,
      auth: 'env',
      tag,
      summary:
        which === 'ancestors'
          ? 'Every tenant role this role extends, transitively'
          : 'Every tenant role that extends this role, transitively',
      schemas: { params: s.roleParams, response: s.roleArray },
      handler: (r, { extras }) => extras.roleRelatives(r.scope, r.params.role, which),
    }),
  ),
  {
    method: 'POST',
    path: `${base}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Add permissions to a tenant role',
    schemas: { params: s.roleParams, body: s.rolePermissionsChange, response: s.role },
    handler: (r, { roles }) => roles.changePermissions(r.scope, r.params.role, r.body.permissions, 'add'),
  },
  {
    method: 'DELETE',
    path: `${base}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Remove permissions from a tenant role',
    schemas: { params: s.roleParams, body: s.rolePermissionsChange, response: s.role },
    handler: (r, { roles }) => roles.changePermissions(r.scope, r.params.role, r.body.permissions, 'remove'),
  },

  {
    method: 'PUT',
    path: `${res}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Make a resource role extend another role of the resource (422 on a cycle)',
    schemas: { params: s.resourceRoleParentParams, response: s.resourceRole },
    handler: (r, { extras }) => extras.addResourceRoleParent(r.scope, r.params.resource, r.params.role, r.params.parent),
  },
  {
    method: 'DELETE',
    path: `${res}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Stop a resource role extending another',
    schemas: { params: s.resourceRoleParentParams, response: s.resourceRole },
    handler: (r, { extras }) => extras.removeResourceRoleParent(r.scope, r.params.resource, r.params.role, r.params.parent),
  },
  ...(['ancestors', 'descendants'] as const).map(
    (which): RouteSpec<RoleExtrasDeps> => ({
      method: 'GET',
      path: `${res}/roles/:role/${which}`,
      auth: 'env',
      tag,
      summary:
        which === 'ancestors'
          ? 'Every role of the resource this role extends, transitively'
          : 'Every role of the resource that extends this role, transitively',
      schemas: { params: s.resourceRoleParams, response: s.resourceRoleArray },
      handler: (r, { extras }) => extras.resourceRoleRelatives(r.scope, r.params.resource, r.params.role, which),
    }),
  ),
  {
    method: 'POST',
    path: `${res}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Add permissions to a resource role',
    schemas: { params: s.resourceRoleParams, body: s.resourceRolePermissionsChange, response: s.resourceRole },
    handler: (r, { extras }) => extras.changePermissions(r.scope, r.params.resource, r.params.role, r.body.permissions, 'add'),
  },
  {
    method: 'DELETE',
    path: `${res}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Remove permissions from a resource role',
    schemas: { params: s.resourceRoleParams, body: s.resourceRolePermissionsChange, response: s.resourceRole },
    handler: (r, { extras }) => extras.changePermissions(r.scope, r.params.resource, r.params.role, r.body.permissions, 'remove'),
  },
  {
    method: 'PUT',
    path: `${res}/roles/:role/implicit_grants/conditions`,
    auth: 'env',
    tag,
    summary: 'Set `when` on every derivation granting this role',
    schemas: { params: s.resourceRoleParams, body: s.when, response: s.when },
    handler: (r, { extras }) => extras.setConditions(r.scope, r.params.resource, r.params.role, r.body),
  },
  {
    // Permit's Java SDK (2.0.0) sends POST where Permit's API documents PUT: the same call.
    method: 'POST',
    path: `${res}/roles/:role/implicit_grants/conditions`,
    auth: 'env',
    tag,
    summary: 'Set `when` on every derivation granting this role (the PUT, as POST)',
    schemas: { params: s.resourceRoleParams, body: s.when, response: s.when },
    handler: (r, { extras }) => extras.setConditions(r.scope, r.params.resource, r.params.role, r.body),
  },

  {
    method: 'POST',
    path: `${res}/actions`,
    auth: 'env',
    tag,
    summary: 'Add an action to a resource',
    schemas: { params: s.resourceParams, body: s.actionCreate, response: s.actionView },
    handler: (r, { actions }) => actions.create(r.scope, r.params.resource, r.body),
  },
  {
    method: 'GET',
    path: `${res}/actions/:action`,
    auth: 'env',
    tag,
    summary: 'Get an action of a resource',
    schemas: { params: s.actionParams, response: s.actionView },
    handler: (r, { actions }) => actions.get(r.scope, r.params.resource, r.params.action),
  },
  {
    method: 'PATCH',
    path: `${res}/actions/:action`,
    auth: 'env',
    tag,
    summary: 'Update an action of a resource',
    schemas: { params: s.actionParams, body: s.actionUpdate, response: s.actionView },
    handler: (r, { actions }) => actions.update(r.scope, r.params.resource, r.params.action, r.body),
  },
  {
    method: 'DELETE',
    path: `${res}/actions/:action`,
    auth: 'env',
    tag,
    summary: "Remove an action (and it from every role's permissions)",
    status: 204,
    schemas: { params: s.actionParams },
    handler: (r, { actions }) => actions.remove(r.scope, r.params.resource, r.params.action),
  },

  {
    method: 'GET',
    path: `${res}/action_groups`,
    auth: 'env',
    tag,
    summary: "List a resource's action groups",
    schemas: { params: s.resourceParams, query: s.pagingQuery, response: s.actionGroupList },
    handler: (r, { actionGroups }) => actionGroups.list(r.scope, r.params.resource, paging(r.query)),
  },
  {
    method: 'POST',
    path: `${res}/action_groups`,
    auth: 'env',
    tag,
    summary: 'Create an action group of a resource (a role given it may do each of its actions)',
    schemas: { params: s.resourceParams, body: s.actionGroupCreate, response: s.actionGroupView },
    handler: (r, { actionGroups }) => actionGroups.create(r.scope, r.params.resource, r.body),
  },
  {
    method: 'GET',
    path: `${res}/action_groups/:group`,
    auth: 'env',
    tag,
    summary: 'Get an action group of a resource',
    schemas: { params: s.actionGroupParams, response: s.actionGroupView },
    handler: (r, { actionGroups }) => actionGroups.get(r.scope, r.params.resource, r.params.group),
  },
  {
    method: 'PATCH',
    path: `${res}/action_groups/:group`,
    auth: 'env',
    tag,
    summary: "Update an action group (given actions replace the group's; roles holding it follow)",
    schemas: { params: s.actionGroupParams, body: s.actionGroupUpdate, response: s.actionGroupView },
    handler: (r, { actionGroups }) => actionGroups.update(r.scope, r.params.resource, r.params.group, r.body),
  },
  {
    method: 'DELETE',
    path: `${res}/action_groups/:group`,
    auth: 'env',
    tag,
    summary: "Delete an action group (and it from every role's permissions)",
    status: 204,
    schemas: { params: s.actionGroupParams },
    handler: (r, { actionGroups }) => actionGroups.remove(r.scope, r.params.resource, r.params.group),
  },
];
