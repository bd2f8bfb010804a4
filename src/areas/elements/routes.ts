import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { ElementsService } from './service';

const base = '/v2/elements/:proj_id/:env_id/config';

const tag = 'Elements configs';
export const elementsRoutes: RouteSpec<ElementsService>[] = [
  route({
    method: 'POST',
    path: base,
    auth: 'env',
    tag,
    summary: 'Create an elements config (an operation approval flow)',
    schemas: { params: s.params, body: s.configCreate, response: s.configWithSecret },
    handler: (r, svc) => svc.create(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: base,
    auth: 'env',
    tag,
    summary: 'List elements configs',
    schemas: { params: s.params, query: s.pagingQuery, response: s.configList },
    handler: (r, svc) => svc.list(r.scope, paging(r.query)),
  }),
  route({
    method: 'GET',
    path: `${base}/:elements_config_id`,
    auth: 'env',
    tag,
    summary: 'Get an elements config by id or key',
    schemas: { params: s.configParams, response: s.config },
    handler: (r, svc) => svc.get(r.scope, r.params.elements_config_id),
  }),
  route({
    method: 'PATCH',
    path: `${base}/:elements_config_id`,
    auth: 'env',
    tag,
    summary: 'Update an elements config',
    schemas: { params: s.configParams, body: s.configUpdate, response: s.configWithSecret },
    handler: (r, svc) => svc.update(r.scope, r.params.elements_config_id, r.body),
  }),
  route({
    method: 'GET',
    path: `${base}/:elements_config_id/webhook_deliveries`,
    auth: 'env',
    tag,
    summary:
      "The config's webhook delivery status: its events not yet delivered (pending, with attempts and last error) or given up, newest first",
    schemas: { params: s.configParams, query: s.deliveriesQuery, response: s.deliveryList },
    handler: (r, svc) => svc.deliveries(r.scope, r.params.elements_config_id, r.query.status, paging(r.query)),
  }),
  route({
    // Also at Permit's path without `/config`.
    method: 'DELETE',
    path: [`${base}/:elements_config_id`, '/v2/elements/:proj_id/:env_id/:elements_config_id'],
    auth: 'env',
    tag,
    summary: 'Delete an elements config and its operation approvals',
    status: 204,
    schemas: { params: s.configParams },
    handler: (r, svc) => svc.remove(r.scope, r.params.elements_config_id),
  }),
];
