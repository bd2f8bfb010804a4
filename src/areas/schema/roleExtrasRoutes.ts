import type { RouteSpec } from '../../http/routeTable';
import type { ActionsService } from './actionsService';
import type { HierarchyService } from './hierarchyService';
import type { ResourceRoleExtras } from './resourceRoleExtras';
import type { RolesService } from './rolesService';
import * as s from './schemas';
import type { SchemaService } from './service';
import { roleView } from './views';

const base = '/v2/schema/:proj_id/:env_id';
const res = `${base}/resources/:resource`;

const tag = 'Schema';

export interface RoleExtrasDeps {
  svc: SchemaService;
  roles: RolesService;
  hierarchy: HierarchyService;
  extras: ResourceRoleExtras;
  actions: ActionsService;
}

/**
 * Permit's role hierarchy (parents, ancestors, descendants), permission assignment, single
 * actions and derivation conditions, for tenant roles and resource roles (CONTRACT section 10).
 */
export const roleExtrasRoutes: RouteSpec<RoleExtrasDeps>[] = [
  {
    method: 'PUT',
    path: `${base}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Make a tenant role extend another (422 on a cycle)',
    schemas: { params: s.roleParentParams, response: s.role },
    handler: async (r, { roles, hierarchy }) => {
      const role = await roles.getRole(r.scope, r.params.role);
      await roles.inTx((tx) => hierarchy.addParent(tx, r.scope, { resource: null, key: role.key }, r.params.parent));
      return roles.getRole(r.scope, role.key);
    },
  },
  {
    method: 'DELETE',
    path: `${base}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Stop a tenant role extending another',
    schemas: { params: s.roleParentParams, response: s.role },
    handler: async (r, { roles, hierarchy }) => {
      const role = await roles.getRole(r.scope, r.params.role);
      await roles.inTx((tx) => hierarchy.removeParent(tx, r.scope, { resource: null, key: role.key }, r.params.parent));
      return roles.getRole(r.scope, role.key);
    },
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
      handler: async (r, { roles, hierarchy }) => {
        const role = await roles.getRole(r.scope, r.params.role);
        const views = (await hierarchy.relatives(r.scope, null, role.key, which)).map((n) => roleView(r.scope, n));
        return hierarchy.withExtends(r.scope, null, views);
      },
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
    handler: async (r, { svc, roles, hierarchy }) => {
      const role = await svc.getResourceRole(r.scope, r.params.resource, r.params.role);
      await roles.inTx((tx) => hierarchy.addParent(tx, r.scope, { resource: role.resource, key: role.key }, r.params.parent));
      return svc.getResourceRole(r.scope, role.resource, role.key);
    },
  },
  {
    method: 'DELETE',
    path: `${res}/roles/:role/parents/:parent`,
    auth: 'env',
    tag,
    summary: 'Stop a resource role extending another',
    schemas: { params: s.resourceRoleParentParams, response: s.resourceRole },
    handler: async (r, { svc, roles, hierarchy }) => {
      const role = await svc.getResourceRole(r.scope, r.params.resource, r.params.role);
      await roles.inTx((tx) => hierarchy.removeParent(tx, r.scope, { resource: role.resource, key: role.key }, r.params.parent));
      return svc.getResourceRole(r.scope, role.resource, role.key);
    },
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
      handler: async (r, { svc, roles, hierarchy }) => {
        const role = await svc.getResourceRole(r.scope, r.params.resource, r.params.role);
        const nodes = await hierarchy.relatives(r.scope, role.resource, role.key, which);
        return Promise.all(nodes.map((n) => svc.getResourceRole(r.scope, role.resource, n.key)));
      },
    }),
  ),
  {
    method: 'POST',
    path: `${res}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Add permissions to a resource role',
    schemas: { params: s.resourceRoleParams, body: s.resourceRolePermissionsChange, response: s.resourceRole },
    handler: (r, { roles, extras }) => extras.changePermissions(r.scope, r.params.resource, r.params.role, r.body.permissions, 'add'),
  },
  {
    method: 'DELETE',
    path: `${res}/roles/:role/permissions`,
    auth: 'env',
    tag,
    summary: 'Remove permissions from a resource role',
    schemas: { params: s.resourceRoleParams, body: s.resourceRolePermissionsChange, response: s.resourceRole },
    handler: (r, { roles, extras }) => extras.changePermissions(r.scope, r.params.resource, r.params.role, r.body.permissions, 'remove'),
  },
  {
    method: 'PUT',
    path: `${res}/roles/:role/implicit_grants/conditions`,
    auth: 'env',
    tag,
    summary: 'Set `when` on every derivation granting this role',
    schemas: { params: s.resourceRoleParams, body: s.when, response: s.when },
    handler: (r, { extras, actions }) => extras.setConditions(r.scope, r.params.resource, r.params.role, r.body),
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
];
