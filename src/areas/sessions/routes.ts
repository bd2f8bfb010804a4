import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { SessionService } from './service';

const tag = 'Elements sessions';
/** The login step, its redirect and the end of a session (docs/behaviour.md sections 6 and 8). */
export const sessionRoutes: RouteSpec<SessionService>[] = [
  route({
    method: 'POST',
    path: '/v2/auth/elements_login_as',
    auth: 'key',
    tag,
    summary: 'Log a user in to the elements of a tenant (environment key; the admin key adds ?proj_id=&env_id=)',
    schemas: { query: s.loginQuery, body: s.loginBody, response: s.loginAnswer },
    handler: async (r, sessions) => {
      const scope = await sessions.loginScope(r.principal, r.scope, r.query);
      const { token, code, session } = await sessions.login(
        scope,
        (r.body.user_id ?? r.body.userId) as string,
        (r.body.tenant_id ?? r.body.tenant) as string,
      );
      r.ctx.append('Set-Cookie', sessions.cookie(r.ctx.secure, token));
      r.ctx.set('Cache-Control', 'no-store');
      // The token only in this answer to the backend; the URL (for a browser) carries a one-time code.
      const url = `${r.ctx.origin}/v2/auth/login_by_token?code=${encodeURIComponent(code)}`;
      // Permit's fields without `content`: the SDKs build it from redirect_url themselves, and the
      // Python SDK fails when the answer already has it (docs/behaviour.md section 14).
      return {
        redirect_url: url,
        token,
        element_bearer_token: token,
        user_id: session.user,
        tenant_id: session.tenant,
        expires_at: session.expires_at,
      };
    },
  }),
  route({
    method: 'GET',
    path: '/v2/auth/login_by_token',
    auth: 'public',
    tag,
    summary: 'Turn the one-time code of a login step (its redirect_url; 60 s, one use) into the session cookie',
    schemas: { query: s.codeQuery, response: s.sessionAnswer },
    handler: async (r, sessions) => {
      const { token, session } = await sessions.redeemCode(r.query.code);
      r.ctx.append('Set-Cookie', sessions.cookie(r.ctx.secure, token, session.expires_at));
      r.ctx.set('Cache-Control', 'no-store');
      return { user_id: session.user, tenant_id: session.tenant, expires_at: session.expires_at };
    },
  }),
  route({
    method: 'POST',
    path: '/v2/auth/logout',
    auth: 'session',
    tag,
    summary: 'End the elements session and the other sessions of its login step (token, cookie, unused code)',
    status: 204,
    schemas: {},
    handler: async (r, sessions) => {
      await sessions.logout(r.session);
      r.ctx.append('Set-Cookie', sessions.clearCookie(r.ctx.secure));
    },
  }),
];
