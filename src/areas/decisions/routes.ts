import { forbidden } from '../../errors';
import type { Req, RouteDef } from '../../http/routeTable';
import * as s from './schemas';
import { DecisionService } from './service';

/** PDP paths take the environment from the calling key; the admin key has none. */
function envKeyScope(r: Req) {
  if (!r.scope) throw forbidden('The Permit PDP paths need an environment key; with the admin key use /v2/allowed/{proj_id}/{env_id}.');
  return r.scope;
}

export function decisionRoutes(svc: DecisionService): RouteDef[] {
  const tag = 'Decisions';
  return [
    {
      method: 'POST', path: '/v2/allowed/:proj_id/:env_id', auth: 'env', tag, summary: 'May this user do this action on this resource?',
      schemas: { params: s.params, query: s.explainQuery, body: s.checkQuery, response: s.checkAnswer },
      handler: (r) => svc.allowed(r.scope, r.body, r.query.explain === true),
    },
    {
      method: 'POST', path: '/v2/allowed/:proj_id/:env_id/bulk', auth: 'env', tag, summary: 'Up to 100 permission questions at once (order kept)',
      schemas: { params: s.params, body: s.bulkQuery, response: s.bulkAnswer },
      handler: (r) => svc.allowedBulk(r.scope, r.body),
    },
    {
      method: 'POST', path: '/allowed', auth: 'key', tag, summary: 'Permit PDP check (environment key)',
      schemas: { query: s.explainQuery, body: s.checkQuery, response: s.checkAnswer },
      handler: (r) => svc.allowed(envKeyScope(r), r.body, r.query.explain === true),
    },
    {
      method: 'POST', path: '/allowed/bulk', auth: 'key', tag, summary: 'Permit PDP bulk check (environment key)',
      schemas: { body: s.bulkQuery, response: s.bulkAnswer },
      handler: (r) => svc.allowedBulk(envKeyScope(r), r.body),
    },
  ];
}
