import type { RouteSpec } from '../../http/routeTable';
import { arr, int, MAX_BULK_ITEMS, obj, str } from '../../http/schema';
import type { InstancesBulkService } from './instancesBulk';
import * as s from './schemas';

const tag = 'Bulk';
const path = '/v2/facts/:proj_id/:env_id/bulk/resource_instances';
const answer = obj({ instances_created: int(), instances_replaced: int(), instances_deleted: int() });

/** Permit's `/bulk/resource_instances`: PUT creates or replaces, DELETE removes; one transaction each. */
export const instancesBulkRoutes: RouteSpec<InstancesBulkService>[] = [
  {
    method: 'PUT',
    path,
    auth: 'env',
    tag,
    summary: 'Create or replace resource instances in bulk (all or nothing)',
    schemas: {
      params: s.params,
      body: obj({ operations: arr(s.instanceCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']),
      response: answer,
    },
    handler: (r, svc) => svc.replaceInstances(r.scope, r.body.operations),
  },
  {
    method: 'DELETE',
    path,
    auth: 'env',
    tag,
    summary: 'Delete resource instances ("type:key" or id) in bulk (an unknown one: 404, none deleted)',
    schemas: {
      params: s.params,
      body: obj({ idents: arr(str({ minLength: 1, maxLength: 400 }), { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['idents']),
      response: answer,
    },
    handler: (r, svc) => svc.deleteInstances(r.scope, r.body.idents),
  },
];
