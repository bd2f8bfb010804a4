import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { AppError, forbidden, notFound, unauthorized } from '../errors';
import type { Req } from '../http/routeTable';
import { bearerOf, SessionResolver } from './authenticator';
import { hashSecret, newSecret } from './secrets';
import { SessionNode, SessionStore } from './sessionStore';
import type { Principal, Scope, Session } from './types';

/** Name of the elements session cookie (CONTRACT section 6). */
export const SESSION_COOKIE = 'authz_session';
const TOKEN_PREFIX = 'els';
const TOKEN_SHAPE = /^els_[A-Za-z0-9_-]{20,100}$/;

export interface SessionSettings {
  ttlSeconds: number;
  cookieSecure: boolean;
  orgId: string;
}

const noSession = () => unauthorized('A valid elements session is required: log in with /v2/auth/elements_login_as and send its cookie or element bearer token.');

/**
 * Elements sessions (CONTRACT sections 6 and 7): opened by the login step, sent back as the
 * cookie or as `Authorization: Bearer <element_bearer_token>`, valid for one environment and
 * one tenant until they expire or the user logs out.
 */
export class SessionService implements SessionResolver {
  constructor(
    private readonly store: SessionStore,
    private readonly settings: SessionSettings,
  ) {}

  /** The environment the login works in: the environment key's own, or `?proj_id&env_id` with the admin key. */
  async loginScope(principal: Principal, scope: Scope | undefined, query: { proj_id?: string; env_id?: string }): Promise<Scope> {
    if (principal.kind === 'env' && scope) {
      if (query.proj_id || query.env_id) {
        const asked = await this.store.resolveEnvironment(query.proj_id ?? scope.projectKey, query.env_id ?? scope.envKey);
        if (asked?.environment?.id !== scope.envId) throw forbidden('The API key belongs to another environment than proj_id/env_id.');
      }
      return scope;
    }
    if (!query.proj_id || !query.env_id) {
      throw forbidden('The admin key is not bound to an environment: pass ?proj_id=<project>&env_id=<environment>, or use an environment key.');
    }
    const found = await this.store.resolveEnvironment(query.proj_id, query.env_id);
    if (!found?.project || !found.environment) throw notFound('Project/environment', `${query.proj_id}/${query.env_id}`);
    return this.scopeOf(found.project, found.environment);
  }

  async login(scope: Scope, user: string, tenant: string): Promise<{ token: string; session: SessionNode }> {
    const token = newSecret(TOKEN_PREFIX);
    const now = new Date();
    const { target, session } = await this.store.login(scope.envId, {
      tenant, user, id: randomUUID(), hash: hashSecret(token), now: now.toISOString(),
      expires_at: new Date(now.getTime() + this.settings.ttlSeconds * 1000).toISOString(),
    });
    if (!target.tenant) throw new AppError(404, 'TENANT_NOT_FOUND', `Tenant ${JSON.stringify(tenant)} not found.`);
    if (!session) {
      throw new AppError(404, 'USER_NOT_FOUND', `User ${JSON.stringify(user)} does not belong to tenant ${JSON.stringify(target.tenant)}.`);
    }
    return { token, session };
  }

  async logout(session: Session): Promise<void> {
    await this.store.delete(session.id, session.envId);
  }

  /** The session of a token on its own (the redirect of the login step); 401 when none is valid. */
  async byToken(token: string): Promise<SessionNode> {
    if (!TOKEN_SHAPE.test(token)) throw noSession();
    const s = await this.store.find(hashSecret(token));
    if (!s || s.expires_at <= new Date().toISOString()) throw noSession();
    return s;
  }

  /** The Set-Cookie value of a session; `expiresAt` shortens Max-Age to what is left of it. */
  cookie(token: string, expiresAt?: string): string {
    const left = expiresAt ? Math.floor((Date.parse(expiresAt) - Date.now()) / 1000) : this.settings.ttlSeconds;
    const maxAge = Math.max(0, Math.min(left, this.settings.ttlSeconds));
    const parts = [`${SESSION_COOKIE}=${token}`, 'Path=/v2', `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax'];
    if (this.settings.cookieSecure) parts.push('Secure');
    return parts.join('; ');
  }

  clearCookie(): string {
    return [`${SESSION_COOKIE}=`, 'Path=/v2', 'Max-Age=0', 'HttpOnly', 'SameSite=Lax', ...(this.settings.cookieSecure ? ['Secure'] : [])].join('; ');
  }

  async resolve(ctx: Context, params: Record<string, string>): Promise<Pick<Req, 'scope' | 'session'>> {
    const token = ctx.cookies.get(SESSION_COOKIE) || bearerOf(ctx);
    if (!token || !TOKEN_SHAPE.test(token)) throw noSession();
    const path = params.proj_id !== undefined && params.env_id !== undefined;
    const configRef = params.elements_config_id ?? null;
    const row = await this.store.resolve(hashSecret(token), path ? params.proj_id : null, path ? params.env_id : null, configRef);
    const s = row.session;
    if (!s || s.expires_at <= new Date().toISOString() || !row.member) throw noSession();
    if (!row.project || !row.environment || row.environment.id !== s.env) {
      throw forbidden('The session belongs to another project/environment; log in to this one.');
    }
    if (configRef !== null) {
      const sent = ctx.get('element_id');
      if (!sent) throw forbidden('Send the header element_id with the elements config id of the path.');
      const accepted = [configRef, row.config?.id, row.config?.key];
      if (!accepted.includes(sent)) throw forbidden('The element_id header does not match the elements config of the path.');
    }
    return {
      scope: this.scopeOf(row.project, row.environment),
      session: { id: s.id, userKey: s.user, tenantKey: s.tenant, envId: s.env, expiresAt: s.expires_at },
    };
  }

  private scopeOf(p: { id: string; key: string; org_id: string | null }, e: { id: string; key: string }): Scope {
    return { orgId: p.org_id ?? this.settings.orgId, projectId: p.id, projectKey: p.key, envId: e.id, envKey: e.key };
  }
}
