import { paging, refuseFilter } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import { arr, int, MAX_BULK_ITEMS, obj } from '../../http/schema';
import { InstancesService } from './instancesService';
import { RolesService } from './rolesService';
import * as s from './schemas';
import { SchemaService } from './service';

const base = '/v2/schema/:proj_id/:env_id';
const res = `${base}/resources/:resource`;

const tag = 'Schema';
export const schemaRoutes: RouteSpec<{ svc: SchemaService; roles: RolesService }>[] = [
  route({ method: 'POST', path: `${base}/resources`, auth: 'env', tag, summary: 'Create a resource (with inline roles and relations)',
    schemas: { params: s.params, body: s.resourceCreate, response: s.resource }, handler: (r, { svc }) => svc.createResource(r.scope, r.body) }),
  route({ method: 'GET', path: `${base}/resources`, auth: 'env', tag, summary: 'List resources',
    schemas: { params: s.params, query: s.resourceListQuery, response: s.resourceList }, handler: (r, { svc }) => svc.listResources(r.scope, r.query.search, paging(r.query), r.query.include_total_count) }),
  route({ method: 'GET', path: res, auth: 'env', tag, summary: 'Get a resource',
    schemas: { params: s.resourceParams, response: s.resource }, handler: (r, { svc }) => svc.getResource(r.scope, r.params.resource) }),
  route({ method: 'PATCH', path: res, auth: 'env', tag, summary: 'Update a resource (given actions replace the action set)',
    schemas: { params: s.resourceParams, body: s.resourceUpdate, response: s.resource }, handler: (r, { svc }) => svc.updateResource(r.scope, r.params.resource, r.body) }),
  route({ method: 'PUT', path: res, auth: 'env', tag, summary: 'Replace a resource, creating it when missing',
    schemas: { params: s.resourceReplaceParams, body: s.resourceReplace, response: s.resource }, handler: (r, { svc, roles }) => svc.replaceResource(r.scope, r.params.resource, r.body) }),
  route({ method: 'DELETE', path: res, auth: 'env', tag, summary: 'Delete a resource with its roles, relations, derivations and instances',
    status: 204, schemas: { params: s.resourceParams }, handler: (r, { svc }) => svc.deleteResource(r.scope, r.params.resource) }),
  route({ method: 'GET', path: `${res}/actions`, auth: 'env', tag, summary: "List a resource's actions",
    schemas: { params: s.resourceParams, query: s.pagingQuery, response: s.actionList }, handler: (r, { svc, roles }) => svc.listActions(r.scope, r.params.resource, paging(r.query)) }),

  route({ method: 'POST', path: `${res}/roles`, auth: 'env', tag, summary: 'Create a resource role',
    schemas: { params: s.resourceParams, body: s.resourceRoleCreate, response: s.resourceRole }, handler: (r, { svc, roles }) => svc.createResourceRole(r.scope, r.params.resource, r.body) }),
  route({ method: 'GET', path: `${res}/roles`, auth: 'env', tag, summary: "List a resource's roles",
    schemas: { params: s.resourceParams, query: s.pagingQuery, response: s.resourceRoleList }, handler: (r, { svc, roles }) => svc.listResourceRoles(r.scope, r.params.resource, paging(r.query)) }),
  route({ method: 'GET', path: `${res}/roles/:role`, auth: 'env', tag, summary: 'Get a resource role',
    schemas: { params: s.resourceRoleParams, response: s.resourceRole }, handler: (r, { svc, roles }) => svc.getResourceRole(r.scope, r.params.resource, r.params.role) }),
  route({ method: 'PATCH', path: `${res}/roles/:role`, auth: 'env', tag, summary: 'Update a resource role (granted_to replaces its derivations)',
    schemas: { params: s.resourceRoleParams, body: s.resourceRoleUpdate, response: s.resourceRole },
    handler: (r, { svc, roles }) => svc.updateResourceRole(r.scope, r.params.resource, r.params.role, r.body) }),
  route({ method: 'DELETE', path: `${res}/roles/:role`, auth: 'env', tag, summary: 'Delete a resource role with its derivations and assignments',
    status: 204, schemas: { params: s.resourceRoleParams }, handler: (r, { svc, roles }) => svc.deleteResourceRole(r.scope, r.params.resource, r.params.role) }),
  route({ method: 'POST', path: `${res}/roles/:role/implicit_grants`, auth: 'env', tag, summary: 'Add a role derivation',
    schemas: { params: s.resourceRoleParams, body: s.implicitGrant, response: s.derivation },
    handler: (r, { svc, roles }) => svc.addImplicitGrant(r.scope, r.params.resource, r.params.role, r.body) }),
  route({ method: 'DELETE', path: `${res}/roles/:role/implicit_grants`, auth: 'env', tag, summary: 'Remove a role derivation',
    status: 204, schemas: { params: s.resourceRoleParams, body: s.implicitGrant },
    handler: (r, { svc }) => svc.removeImplicitGrant(r.scope, r.params.resource, r.params.role, r.body) }),

  route({ method: 'POST', path: `${res}/relations`, auth: 'env', tag, summary: 'Create a relation',
    schemas: { params: s.resourceParams, body: s.relationCreate, response: s.relation }, handler: (r, { svc }) => svc.createRelation(r.scope, r.params.resource, r.body) }),
  route({ method: 'GET', path: `${res}/relations`, auth: 'env', tag, summary: "List a resource's relations",
    schemas: { params: s.resourceParams, query: s.pagingQuery, response: s.relationList }, handler: (r, { svc }) => svc.listRelations(r.scope, r.params.resource, paging(r.query)) }),
  route({ method: 'GET', path: `${res}/relations/:relation`, auth: 'env', tag, summary: 'Get a relation',
    schemas: { params: s.relationParams, response: s.relation }, handler: (r, { svc }) => svc.getRelation(r.scope, r.params.resource, r.params.relation) }),
  route({ method: 'PATCH', path: `${res}/relations/:relation`, auth: 'env', tag, summary: 'Update a relation',
    schemas: { params: s.relationParams, body: s.relationUpdate, response: s.relation },
    handler: (r, { svc }) => svc.updateRelation(r.scope, r.params.resource, r.params.relation, r.body) }),
  route({ method: 'DELETE', path: `${res}/relations/:relation`, auth: 'env', tag, summary: 'Delete a relation with its derivations and tuples',
    status: 204, schemas: { params: s.relationParams }, handler: (r, { svc, roles }) => svc.deleteRelation(r.scope, r.params.resource, r.params.relation) }),

  route({ method: 'POST', path: `${base}/roles`, auth: 'env', tag, summary: 'Create a tenant role',
    schemas: { params: s.params, body: s.roleCreate, response: s.role }, handler: (r, { roles }) => roles.createRole(r.scope, r.body) }),
  route({ method: 'GET', path: `${base}/roles`, auth: 'env', tag, summary: 'List tenant roles',
    schemas: { params: s.params, query: s.roleListQuery, response: s.roleList }, handler: (r, { roles }) => roles.listRoles(r.scope, r.query.search, paging(r.query), r.query.include_total_count) }),
  route({ method: 'GET', path: `${base}/roles/:role`, auth: 'env', tag, summary: 'Get a tenant role',
    schemas: { params: s.roleParams, response: s.role }, handler: (r, { roles }) => roles.getRole(r.scope, r.params.role) }),
  route({ method: 'PATCH', path: `${base}/roles/:role`, auth: 'env', tag, summary: 'Update a tenant role',
    schemas: { params: s.roleParams, body: s.roleUpdate, response: s.role }, handler: (r, { roles }) => roles.updateRole(r.scope, r.params.role, r.body) }),
  route({ method: 'DELETE', path: `${base}/roles/:role`, auth: 'env', tag, summary: 'Delete a tenant role and its assignments',
    status: 204, schemas: { params: s.roleParams }, handler: (r, { roles }) => roles.deleteRole(r.scope, r.params.role) }),
];

const instancesTag = 'Resource instances';
const coll = ['/v2/schema/:proj_id/:env_id/resource_instances', '/v2/facts/:proj_id/:env_id/resource_instances'];
const one = coll.map((c) => `${c}/:instance_id`);
/** Resource instances, served under both /v2/schema (the seed's path) and /v2/facts. */
export const instanceRoutes: RouteSpec<InstancesService>[] = [
  route({ method: 'POST', path: coll, auth: 'env', tag: instancesTag, summary: 'Create a resource instance',
    schemas: { params: s.params, body: s.instanceCreate, response: s.instance }, handler: (r, svc) => svc.createInstance(r.scope, r.body) }),
  route({ method: 'POST', path: coll.map((c) => `${c}/bulk`), auth: 'env', tag: instancesTag, heavy: true, summary: 'Create resource instances in bulk (one transaction, all or nothing)',
    schemas: { params: s.params, body: obj({ operations: arr(s.instanceCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']), response: obj({ instances_created: int() }) },
    handler: (r, svc) => svc.createInstancesBulk(r.scope, r.body.operations) }),
  route({ method: 'GET', path: coll, auth: 'env', tag: instancesTag, summary: 'List resource instances',
    schemas: { params: s.params, query: s.instanceListQuery, response: s.instanceList },
    handler: (r, svc) => (r.query.detailed ? refuseFilter('detailed', 'detailed=true (ResourceInstanceDetailedRead) is not served; send detailed=false or leave it out') : svc.listInstances(r.scope, r.query, paging(r.query))) }),
  route({ method: 'GET', path: one, auth: 'env', tag: instancesTag, summary: 'Get a resource instance by "type:key" or id',
    schemas: { params: s.instanceParams, response: s.instance }, handler: (r, svc) => svc.getInstance(r.scope, r.params.instance_id) }),
  route({ method: 'PATCH', path: one, auth: 'env', tag: instancesTag, summary: "Update a resource instance's attributes",
    schemas: { params: s.instanceParams, body: s.instanceUpdate, response: s.instance }, handler: (r, svc) => svc.updateInstance(r.scope, r.params.instance_id, r.body) }),
  route({ method: 'DELETE', path: one, auth: 'env', tag: instancesTag, summary: 'Delete a resource instance and what hangs on it',
    status: 204, schemas: { params: s.instanceParams }, handler: (r, svc) => svc.deleteInstance(r.scope, r.params.instance_id) }),
];
