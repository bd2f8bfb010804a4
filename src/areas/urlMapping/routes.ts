import { forbidden } from '../../errors';
import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { UrlMappingService } from './service';

const base = '/v2/facts/:proj_id/:env_id/proxy_configs';
const tag = 'URL mapping';

/** Permit's proxy configs (their URL-mapping rules) and its PDP's `/allowed_url` (docs/behaviour.md section 24). */
export const urlMappingRoutes: RouteSpec<UrlMappingService>[] = [
  route({
    method: 'GET',
    path: base,
    auth: 'env',
    tag,
    summary: 'List the proxy configs (their URL-mapping rules)',
    schemas: { params: s.params, query: s.pagingQuery, response: s.proxyConfigList },
    handler: (r, svc) => svc.list(r.scope, paging(r.query)),
  }),
  route({
    method: 'POST',
    path: base,
    auth: 'env',
    tag,
    summary: 'Create a proxy config with URL-mapping rules (its secret is not kept)',
    schemas: { params: s.params, body: s.proxyConfigCreate, response: s.proxyConfig },
    handler: (r, svc) => svc.create(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: `${base}/:proxy_config_id`,
    auth: 'env',
    tag,
    summary: 'Get a proxy config',
    schemas: { params: s.configParams, response: s.proxyConfig },
    handler: (r, svc) => svc.get(r.scope, r.params.proxy_config_id),
  }),
  route({
    method: 'PATCH',
    path: `${base}/:proxy_config_id`,
    auth: 'env',
    tag,
    summary: 'Update a proxy config (given mapping rules replace its rules)',
    schemas: { params: s.configParams, body: s.proxyConfigUpdate, response: s.proxyConfig },
    handler: (r, svc) => svc.update(r.scope, r.params.proxy_config_id, r.body),
  }),
  route({
    method: 'DELETE',
    path: `${base}/:proxy_config_id`,
    auth: 'env',
    tag,
    summary: 'Delete a proxy config with its URL-mapping rules',
    status: 204,
    schemas: { params: s.configParams },
    handler: (r, svc) => svc.remove(r.scope, r.params.proxy_config_id),
  }),
  route({
    method: 'POST',
    readOnly: true,
    path: '/allowed_url',
    auth: 'key',
    tag: 'Decisions',
    summary: 'Permit PDP URL check: the URL-mapping rule that maps the request decides (environment key)',
    schemas: { body: s.urlCheck, response: s.urlAnswer },
    handler: (r, svc) => {
      if (!r.scope) throw forbidden('The Permit PDP paths need an environment key; /allowed_url has no admin form.');
      return svc.check(r.scope, r.body);
    },
  }),
];
