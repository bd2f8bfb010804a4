import { forbidden } from '../../errors';
import { withDepthLimitSignal } from '../../http/depthLimit';
import { route, type Req, type RouteSpec } from '../../http/routeTable';
import { readBatch } from './batchReader';
import * as s from './schemas';
import type { AuthzenService } from './service';

/**
 * The OpenID AuthZEN Authorization API 1.0 (docs/authzen.md), for the environment of the calling
 * environment key, as on Permit's PDP paths (`/allowed`). Every route is `specWire`: the
 * specification's status codes and error body, and `X-Request-ID` echoed as sent. The
 * evaluations run on the hot path as `/allowed` does; the searches are heavy questions (fair share).
 */
export interface AuthzenDeps {
  svc: AuthzenService;
  /** PUBLIC_BASE_URL (an origin without a trailing slash); unset, the request's own origin. */
  publicBaseUrl?: string;
}

function envKeyScope(r: Req) {
  if (!r.scope) throw forbidden('The AuthZEN endpoints need an environment key: they answer for the environment of the key.');
  return r.scope;
}

const tag = 'AuthZEN';
const common = { method: 'POST', readOnly: true, auth: 'key', tag, specWire: true } as const;

export const authzenRoutes: RouteSpec<AuthzenDeps>[] = [
  route({
    ...common,
    hot: true,
    path: '/access/v1/evaluation',
    summary: 'AuthZEN Access Evaluation: may the subject do the action on the resource? (environment key)',
    schemas: { body: s.evaluationQuery, response: s.decision },
    handler: async (r, { svc }) => withDepthLimitSignal(r, await svc.evaluation(envKeyScope(r), r.body)),
  }),
  route({
    ...common,
    hot: true,
    path: '/access/v1/evaluations',
    summary: 'AuthZEN Access Evaluations: up to 100 evaluations with top-level defaults and evaluations_semantic (environment key)',
    schemas: { body: s.evaluationsQuery, response: s.evaluationsAnswer },
    // A batch of the plain shape is read straight into its questions (docs/authzen.md, "Speed").
    readBody: readBatch,
    handler: async (r, { svc }) => withDepthLimitSignal(r, await svc.evaluations(envKeyScope(r), r.body)),
  }),
  route({
    ...common,
    heavy: true,
    path: '/access/v1/search/subject',
    summary: 'AuthZEN Subject Search: the users allowed the action on the resource, paged (environment key)',
    schemas: { body: s.subjectSearchQuery, response: s.entitiesAnswer },
    handler: (r, { svc }) => svc.subjects(envKeyScope(r), r.body),
  }),
  route({
    ...common,
    heavy: true,
    path: '/access/v1/search/resource',
    summary: 'AuthZEN Resource Search: the resources of a type the subject may do the action on, paged (environment key)',
    schemas: { body: s.resourceSearchQuery, response: s.entitiesAnswer },
    handler: (r, { svc }) => svc.resources(envKeyScope(r), r.body),
  }),
  route({
    ...common,
    heavy: true,
    path: '/access/v1/search/action',
    summary: 'AuthZEN Action Search: the actions the subject may do on the resource, paged (environment key)',
    schemas: { body: s.actionSearchQuery, response: s.actionsAnswer },
    handler: (r, { svc }) => svc.actions(envKeyScope(r), r.body),
  }),
  route({
    method: 'GET',
    path: '/.well-known/authzen-configuration',
    // Discovery precedes credentials: a client reads where to ask before it is given a key.
    auth: 'public',
    tag,
    specWire: true,
    summary: 'AuthZEN PDP metadata: the absolute URL of every AuthZEN endpoint (no key)',
    schemas: { response: s.metadata },
    handler: async (r, { svc, publicBaseUrl }) => svc.metadata(publicBaseUrl ?? r.ctx.origin),
  }),
];
