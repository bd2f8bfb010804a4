import { UNREAD_BODY_BUDGET } from '../../http/bodies';
import type { Context } from 'koa';
import type { Scope } from '../../auth/types';
import { forbidden, invalidInput } from '../../errors';
import type { Authenticator, Req, RouteDef, RouteSpec } from '../../http/routeTable';
import { anyObject, arr, bool, nullable, obj, PROJ_ENV_PARAMS, str } from '../../http/schema';
import { askerOf, type QuestionBody, questionOf } from '../decisions/question';
import { checkQuery, consistency, userRef } from '../decisions/schemas';
import type { TenantAccessService } from './service';

/** all-tenants takes what `/allowed` takes (docs/decisions.md): one question type for every decision endpoint. */
const allTenantsQuery = checkQuery;
/** permitio 2.7.6's checkAllTenants posts `{headers: {Authorization, ...}, params: {user, action, resource, context}}`. */
const sdk276Query = obj({ headers: { type: 'object', additionalProperties: str() }, params: allTenantsQuery }, ['params']);
const tenant = obj({ key: str(), attributes: anyObject() });
const allowedTenant = obj({ allow: bool(), tenant });
const allTenantsAnswer = obj({ allowed_tenants: arr(allowedTenant), allowedTenants: arr(allowedTenant) });
const userTenantsQuery = obj({ user: userRef, context: nullable(anyObject()), sdk: str(), consistency }, ['user'], {
  additionalProperties: true,
});

type Body = QuestionBody & { headers?: Record<string, string>; params?: QuestionBody };

function envKeyScope(r: Req): Scope {
  if (!r.scope) throw forbidden('The Permit PDP paths need an environment key; with the admin key use /v2/allowed/{proj_id}/{env_id}/...');
  return r.scope;
}

const tag = 'Decisions';
// A question: it needs the `read` level of a key, as every decision path does (docs/behaviour.md section 8).
const keyRoute = { auth: 'key', method: 'POST', readOnly: true } as RouteDef;
/**
 * The PDP path also takes the key where permitio 2.7.6 puts it, in the body's
 * `headers.Authorization` (that SDK sends no Authorization header on this call).
 */
async function pdpScope(r: Req, auth: Authenticator): Promise<{ scope: Scope; q: QuestionBody }> {
  const body = r.body as Body;
  const header =
    r.ctx.get('authorization') || Object.entries(body.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1] || '';
  const shim = { get: (name: string) => (name.toLowerCase() === 'authorization' ? header : '') } as unknown as Context;
  const who = await auth.authenticate(shim, keyRoute, {});
  return { scope: envKeyScope(who as Req), q: body.params ?? body };
}

export interface TenantAccessDeps {
  svc: TenantAccessService;
  /** The PDP path authenticates the key it finds in the body itself. */
  auth: Authenticator;
}

/**
 * `/allowed/all-tenants` and `/user-tenants` (docs/behaviour.md section 10; docs/decisions.md), at the PDP paths (environment
 * key) and under `/v2/allowed/{proj_id}/{env_id}`.
 */
export const tenantAccessRoutes: RouteSpec<TenantAccessDeps>[] = [
  {
    method: 'POST',
    readOnly: true,
    path: '/v2/allowed/:proj_id/:env_id/all-tenants',
    auth: 'env',
    tag,
    summary: 'The tenants in which the user may do the action on the resource',
    schemas: { params: PROJ_ENV_PARAMS, body: allTenantsQuery, response: allTenantsAnswer },
    handler: (r, { svc }) => svc.allowedTenants(r.scope, questionOf(r.body), r.body.consistency),
  },
  {
    method: 'POST',
    readOnly: true,
    path: '/allowed/all-tenants',
    auth: 'public',
    tag,
    summary: "Permit PDP all-tenants check (environment key, in the Authorization header or the body's headers.Authorization)",
    // Its key may come in the body, so the body is read before the caller is known: at most
    // what any unknown caller may make the service read (docs/behaviour.md section 15), 64 KiB.
    bodyLimitBytes: UNREAD_BODY_BUDGET,
    schemas: { body: { oneOf: [allTenantsQuery, sdk276Query] }, response: allTenantsAnswer },
    handler: async (r, { svc, auth }) => {
      const { scope, q } = await pdpScope(r, auth);
      if (!q) throw invalidInput('The body needs user, action and resource.');
      return svc.allowedTenants(scope, questionOf(q), q.consistency);
    },
  },
  {
    method: 'POST',
    readOnly: true,
    path: '/v2/allowed/:proj_id/:env_id/user-tenants',
    auth: 'env',
    tag,
    summary: 'The tenants a user belongs to',
    schemas: { params: PROJ_ENV_PARAMS, body: userTenantsQuery, response: arr(tenant) },
    handler: (r, { svc }) => svc.userTenants(r.scope, askerOf(r.body.user), r.body.consistency),
  },
  {
    method: 'POST',
    readOnly: true,
    path: '/user-tenants',
    auth: 'key',
    tag,
    summary: 'Permit PDP user tenants (environment key)',
    schemas: { body: userTenantsQuery, response: arr(tenant) },
    handler: (r, { svc }) => svc.userTenants(envKeyScope(r), askerOf(r.body.user), r.body.consistency),
  },
];
