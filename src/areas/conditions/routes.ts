import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { ConditionsService } from './service';

const schema = '/v2/schema/:proj_id/:env_id';
const attrs = `${schema}/resources/:resource/attributes`;
const sets = `${schema}/condition_sets`;
const rules = '/v2/facts/:proj_id/:env_id/set_rules';
const tag = 'Conditions';

/** Attribute schemas, condition sets and set rules (docs/behaviour.md section 17, docs/conditions.md). */
export const conditionsRoutes: RouteSpec<ConditionsService>[] = [
  route({
    method: 'POST',
    path: attrs,
    auth: 'env',
    tag,
    summary: 'Declare an attribute of a resource (`__user`: a user attribute)',
    schemas: { params: s.resourceParams, body: s.attributeCreate, response: s.attribute },
    handler: (r, svc) => svc.createAttribute(r.scope, r.params.resource, r.body),
  }),
  route({
    method: 'GET',
    path: attrs,
    auth: 'env',
    tag,
    summary: "List a resource's attributes",
    schemas: { params: s.resourceParams, query: s.pagingQuery, response: s.attributeList },
    handler: (r, svc) => svc.listAttributes(r.scope, r.params.resource, paging(r.query)),
  }),
  route({
    method: 'GET',
    path: `${attrs}/:attribute`,
    auth: 'env',
    tag,
    summary: 'Get an attribute',
    schemas: { params: s.attributeParams, response: s.attribute },
    handler: (r, svc) => svc.getAttribute(r.scope, r.params.resource, r.params.attribute),
  }),
  route({
    method: 'PATCH',
    path: `${attrs}/:attribute`,
    auth: 'env',
    tag,
    summary: "Update an attribute's type or description",
    schemas: { params: s.attributeParams, body: s.attributeUpdate, response: s.attribute },
    handler: (r, svc) => svc.updateAttribute(r.scope, r.params.resource, r.params.attribute, r.body),
  }),
  route({
    method: 'DELETE',
    path: `${attrs}/:attribute`,
    auth: 'env',
    tag,
    summary: 'Delete an attribute (409 while a condition set uses it)',
    status: 204,
    schemas: { params: s.attributeParams },
    handler: (r, svc) => svc.deleteAttribute(r.scope, r.params.resource, r.params.attribute),
  }),

  route({
    method: 'POST',
    path: sets,
    auth: 'env',
    tag,
    summary: 'Create a condition set (a user set or a resource set)',
    schemas: { params: s.params, body: s.setCreate, response: s.conditionSet },
    handler: (r, svc) => svc.createSet(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: sets,
    auth: 'env',
    tag,
    summary: 'List condition sets',
    schemas: { params: s.params, query: s.setListQuery, response: s.setList },
    handler: (r, svc) => svc.listSets(r.scope, paging(r.query), r.query.type),
  }),
  route({
    method: 'GET',
    path: `${sets}/:condition_set`,
    auth: 'env',
    tag,
    summary: 'Get a condition set',
    schemas: { params: s.setParams, response: s.conditionSet },
    handler: (r, svc) => svc.getSet(r.scope, r.params.condition_set),
  }),
  route({
    method: 'PATCH',
    path: `${sets}/:condition_set`,
    auth: 'env',
    tag,
    summary: 'Update a condition set',
    schemas: { params: s.setParams, body: s.setUpdate, response: s.conditionSet },
    handler: (r, svc) => svc.updateSet(r.scope, r.params.condition_set, r.body),
  }),
  route({
    method: 'DELETE',
    path: `${sets}/:condition_set`,
    auth: 'env',
    tag,
    summary: 'Delete a condition set (409 while rules or narrower sets use it)',
    status: 204,
    schemas: { params: s.setParams },
    handler: (r, svc) => svc.deleteSet(r.scope, r.params.condition_set),
  }),

  route({
    method: 'POST',
    path: rules,
    auth: 'env',
    tag,
    summary: 'Grant a permission to a user set on a resource set (a set rule)',
    schemas: { params: s.params, body: s.ruleBody, response: s.ruleList },
    handler: (r, svc) => svc.createRule(r.scope, r.body),
  }),
  route({
    method: 'DELETE',
    path: rules,
    auth: 'env',
    tag,
    summary: 'Remove a set rule',
    status: 204,
    schemas: { params: s.params, body: s.ruleBody },
    handler: (r, svc) => svc.deleteRule(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: rules,
    auth: 'env',
    tag,
    summary: 'List set rules',
    schemas: { params: s.params, query: s.ruleListQuery, response: s.ruleList },
    handler: (r, svc) => svc.listRules(r.scope, r.query, paging(r.query)),
  }),
];
