import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import { FactsService } from './service';

const base = '/v2/facts/:proj_id/:env_id';

const tag = 'Tenants and users';
export const factsRoutes: RouteSpec<FactsService>[] = [
  route({
    method: 'POST', path: `${base}/tenants`, auth: 'env', tag, summary: 'Create a tenant',
    schemas: { params: s.params, body: s.tenantCreate, response: s.tenant },
    handler: (r, svc) => svc.createTenant(r.scope, r.body),
  }),
  route({
    method: 'GET', path: `${base}/tenants`, auth: 'env', tag, summary: 'List tenants',
    schemas: { params: s.params, query: s.listQuery, response: s.tenantList },
    handler: (r, svc) => svc.listTenants(r.scope, r.query.search, paging(r.query)),
  }),
  route({
    method: 'GET', path: `${base}/tenants/:tenant_id`, auth: 'env', tag, summary: 'Get a tenant',
    schemas: { params: s.tenantParams, response: s.tenant },
    handler: (r, svc) => svc.getTenant(r.scope, r.params.tenant_id),
  }),
  route({
    method: 'PATCH', path: `${base}/tenants/:tenant_id`, auth: 'env', tag, summary: 'Update a tenant',
    schemas: { params: s.tenantParams, body: s.tenantUpdate, response: s.tenant },
    handler: (r, svc) => svc.updateTenant(r.scope, r.params.tenant_id, r.body),
  }),
  route({
    method: 'DELETE', path: `${base}/tenants/:tenant_id`, auth: 'env', tag, summary: 'Delete a tenant and what lives in it',
    status: 204, schemas: { params: s.tenantParams },
    handler: (r, svc) => svc.deleteTenant(r.scope, r.params.tenant_id),
  }),
  route({
    method: 'GET', path: `${base}/tenants/:tenant_id/users`, auth: 'env', tag, summary: "List a tenant's users",
    schemas: { params: s.tenantParams, query: s.tenantUserListQuery, response: s.userList },
    handler: (r, svc) => svc.listTenantUsers(r.scope, r.params.tenant_id, r.query, paging(r.query)),
  }),
  route({
    method: 'POST', path: `${base}/tenants/:tenant_id/users`, auth: 'env', tag, summary: 'Add a user to a tenant (creates the user if missing)',
    schemas: { params: s.tenantParams, body: s.userCreate, response: s.user },
    handler: (r, svc) => svc.addTenantUser(r.scope, r.params.tenant_id, r.body),
  }),
  route({
    method: 'DELETE', path: `${base}/tenants/:tenant_id/users/:user_id`, auth: 'env', tag, summary: 'Remove a user from a tenant (and their roles there)',
    status: 204, schemas: { params: s.tenantUserParams },
    handler: (r, svc) => svc.removeTenantUser(r.scope, r.params.tenant_id, r.params.user_id),
  }),
  route({
    method: 'POST', path: `${base}/users`, auth: 'env', tag, summary: 'Create a user',
    schemas: { params: s.params, body: s.userCreate, response: s.user },
    handler: (r, svc) => svc.createUser(r.scope, r.body),
  }),
  route({
    method: 'POST', path: `${base}/users/bulk`, auth: 'env', tag, heavy: true, summary: 'Create users in bulk (existing ones are left as they are)',
    schemas: { params: s.params, body: s.userBulk, response: s.userBulkAnswer },
    handler: (r, svc) => svc.createUsersBulk(r.scope, r.body.operations),
  }),
  route({
    method: 'GET', path: `${base}/users`, auth: 'env', tag, summary: 'List users',
    schemas: { params: s.params, query: s.userListQuery, response: s.userList },
    handler: (r, svc) => svc.listUsers(r.scope, r.query, paging(r.query)),
  }),
  route({
    method: 'GET', path: `${base}/users/:user_id`, auth: 'env', tag, summary: 'Get a user',
    schemas: { params: s.userParams, response: s.user },
    handler: (r, svc) => svc.getUser(r.scope, r.params.user_id),
  }),
  route({
    method: 'PATCH', path: `${base}/users/:user_id`, auth: 'env', tag, summary: 'Update a user',
    schemas: { params: s.userParams, body: s.userUpdate, response: s.user },
    handler: (r, svc) => svc.updateUser(r.scope, r.params.user_id, r.body),
  }),
  route({
    method: 'PUT', path: `${base}/users/:user_id`, auth: 'env', status: 201, alsoStatus: 200, tag, summary: "Sync a user (Permit's replace): 201 when created, 200 when replaced",
    schemas: { params: s.userSyncParams, body: s.userSync, response: s.user },
    handler: async (r, svc) => {
      const { created, user } = await svc.syncUser(r.scope, r.params.user_id, r.body);
      r.ctx.state.status = created ? 201 : 200;
      return user;
    },
  }),
  route({
    method: 'DELETE', path: `${base}/users/:user_id`, auth: 'env', tag, summary: 'Delete a user and their assignments',
    status: 204, schemas: { params: s.userParams },
    handler: (r, svc) => svc.deleteUser(r.scope, r.params.user_id),
  }),
];
