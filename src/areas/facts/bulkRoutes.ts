import type { RouteSpec } from '../../http/routeTable';
import type { FactsBulkService } from './bulkService';
import * as s from './schemas';

const bulk = '/v2/facts/:proj_id/:env_id/bulk';

const tag = 'Bulk';
/** Permit's bulk paths for users and tenants (each call one transaction, all or nothing). */
export const factsBulkRoutes: RouteSpec<FactsBulkService>[] = [
  {
    method: 'POST',
    path: `${bulk}/users`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Create users in bulk (existing ones are left as they are)',
    schemas: { params: s.params, body: s.userBulk, response: s.bulkUsersAnswer },
    handler: (r, svc) => svc.createUsers(r.scope, r.body.operations),
  },
  {
    method: 'PUT',
    path: `${bulk}/users`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Create or replace users in bulk',
    schemas: { params: s.params, body: s.bulkUserReplace, response: s.bulkUsersAnswer },
    handler: (r, svc) => svc.replaceUsers(r.scope, r.body.operations),
  },
  {
    method: 'DELETE',
    path: `${bulk}/users`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Delete users in bulk (an unknown one: 404, none deleted)',
    schemas: { params: s.params, body: s.bulkDelete, response: s.bulkUsersAnswer },
    handler: (r, svc) => svc.deleteUsers(r.scope, r.body.idents),
  },
  {
    method: 'POST',
    path: `${bulk}/tenants`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Create tenants in bulk (an existing key: 409, none created)',
    schemas: { params: s.params, body: s.bulkTenantCreate, response: s.bulkTenantsAnswer },
    handler: (r, svc) => svc.createTenants(r.scope, r.body.operations),
  },
  {
    method: 'DELETE',
    path: `${bulk}/tenants`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Delete tenants in bulk with what lives in them (an unknown one: 404, none deleted)',
    schemas: { params: s.params, body: s.bulkDelete, response: s.bulkTenantsAnswer },
    handler: (r, svc) => svc.deleteTenants(r.scope, r.body.idents),
  },
];
