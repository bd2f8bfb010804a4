import { randomUUID } from 'node:crypto';
import { runAs } from '../../auth/actor';
import type { SecretGate } from '../../auth/secretGate';
import { hashSecret, newSecret } from '../../auth/secrets';
import { SESSION_COOKIE, type Principal, type Scope, type Session, type SessionCredentials, type SessionResolver } from '../../auth/types';
import { AppError, forbidden, notFound, unauthorized } from '../../errors';
import type { NewSession, SessionNode, SessionStore } from './store';

const TOKEN_PREFIX = 'els';
const TOKEN_SHAPE = /^els_[A-Za-z0-9_-]{20,100}$/;
const CODE_PREFIX = 'elc';
const CODE_SHAPE = /^elc_[A-Za-z0-9_-]{20,100}$/;
/** A login code is for the browser the login step redirects at once (docs/behaviour.md section 8). */
export const LOGIN_CODE_TTL_SECONDS = 60;

export interface SessionSettings {
  ttlSeconds: number;
  cookieSecure: boolean;
  orgId: string;
}

const noSession = () =>
  unauthorized('A valid elements session is required: log in with /v2/auth/elements_login_as and send its cookie or element bearer token.');
const badCode = () => unauthorized('The login code is unknown, already used or expired (codes are valid once, for 60 s): log in again.');

/**
 * Elements sessions (docs/behaviour.md sections 6 to 8): opened by the login step, sent back as the
 * cookie or as `Authorization: Bearer <element_bearer_token>`, valid for one environment and
 * one tenant until they expire or the user logs out. The login step's redirect_url carries a
 * one-time code, never a session token: a URL ends up in histories, logs and referrers, and a
 * token in it would let anyone who sees it, or who plants it (login CSRF), own the session.
 */
export class SessionService implements SessionResolver {
  constructor(
    private readonly store: SessionStore,
    private readonly settings: SessionSettings,
    /** Unknown tokens: refused from memory once failed, looked up under a global bound (src/auth/secretGate.ts). */
    private readonly gate?: SecretGate,
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
      throw forbidden(
        'The admin key is not bound to an environment: pass ?proj_id=<project>&env_id=<environment>, or use an environment key.',
      );
    }
    const found = await this.store.resolveEnvironment(query.proj_id, query.env_id);
    if (!found?.project || !found.environment) throw notFound('Project/environment', `${query.proj_id}/${query.env_id}`);
    return this.scopeOf(found.project, found.environment);
  }

  /** Opens a session and its one-time login code. */
  async login(scope: Scope, user: string, tenant: string): Promise<{ token: string; code: string; session: SessionNode }> {
    const { token, session: s } = this.newSession();
    const code = newSecret(CODE_PREFIX);
    const { target, session } = await this.store.login(scope.envId, {
      ...s,
      tenant,
      user,
      codeHash: hashSecret(code),
      codeExpiresAt: new Date(Date.parse(s.nowIso) + LOGIN_CODE_TTL_SECONDS * 1000).toISOString(),
    });
    if (!target.tenant) throw new AppError(404, 'TENANT_NOT_FOUND', `Tenant ${JSON.stringify(tenant)} not found.`);
    if (!session) {
      throw new AppError(404, 'USER_NOT_FOUND', `User ${JSON.stringify(user)} does not belong to tenant ${JSON.stringify(target.tenant)}.`);
    }
    return { token, code, session };
  }

  /**
   * The redirect of the login step: uses up the code and opens a session of the same user, tenant
   * and expiry. The audit log records the new session with that user as its actor.
   */
  async redeemCode(code: string): Promise<{ token: string; session: SessionNode }> {
    if (!CODE_SHAPE.test(code)) throw badCode();
    const { token, session: s } = this.newSession();
    const codeHash = hashSecret(code);
    const owner = await this.store.loginCodeOwner(codeHash);
    if (!owner) throw badCode();
    const session = await runAs({ kind: 'session', id: owner.user }, () => this.store.redeemLoginCode(owner.env, codeHash, s));
    if (!session) throw badCode();
    return { token, session };
  }

  /** Ends the session and the other sessions of its login step (the backend's token, the browser's cookie). */
  async logout(session: Session): Promise<void> {
    await this.store.delete(session.id, session.envId);
  }

  /**
   * The Set-Cookie value of a session; `expiresAt` shortens Max-Age to what is left of it.
   * `Secure` when COOKIE_SECURE=true or the request came over HTTPS (`overHttps`: koa's ctx.secure;
   * behind a proxy only with TRUST_PROXY=true, which makes X-Forwarded-Proto count).
   */
  cookie(overHttps: boolean, token: string, expiresAt?: string): string {
    const left = expiresAt ? Math.floor((Date.parse(expiresAt) - Date.now()) / 1000) : this.settings.ttlSeconds;
    const maxAge = Math.max(0, Math.min(left, this.settings.ttlSeconds));
    return [`${SESSION_COOKIE}=${token}`, 'Path=/v2', `Max-Age=${maxAge}`, ...this.cookieFlags(overHttps)].join('; ');
  }

  clearCookie(overHttps: boolean): string {
    return [`${SESSION_COOKIE}=`, 'Path=/v2', 'Max-Age=0', ...this.cookieFlags(overHttps)].join('; ');
  }

  private cookieFlags(overHttps: boolean): string[] {
    return ['HttpOnly', 'SameSite=Lax', ...(this.settings.cookieSecure || overHttps ? ['Secure'] : [])];
  }

  async resolve(sent: SessionCredentials, params: Record<string, string>): Promise<{ scope: Scope; session: Session }> {
    const token = sent.token;
    if (!token || !TOKEN_SHAPE.test(token)) throw noSession();
    const path = params.proj_id !== undefined && params.env_id !== undefined;
    const configRef = params.elements_config_id ?? null;
    const hash = hashSecret(token);
    if (this.gate?.failedRecently(hash)) throw noSession();
    const lookup = () => this.store.resolve(hash, path ? params.proj_id : null, path ? params.env_id : null, configRef);
    const row = this.gate ? await this.gate.lookup(hash, lookup) : await lookup();
    // Only a token that names no session is remembered as failed (an expired one, or a user no
    // longer a member, is refused by the checks below each time).
    this.gate?.learn(hash, Boolean(row.session));
    const s = row.session;
    if (!s || s.expires_at <= new Date().toISOString() || !row.member) throw noSession();
    if (!row.project || !row.environment || row.environment.id !== s.env) {
      throw forbidden('The session belongs to another project/environment; log in to this one.');
    }
    if (configRef !== null) {
      const elementId = sent.elementId();
      if (!elementId) throw forbidden('Send the header element_id with the elements config id of the path.');
      const accepted = [configRef, row.config?.id, row.config?.key];
      if (!accepted.includes(elementId)) throw forbidden('The element_id header does not match the elements config of the path.');
    }
    return {
      scope: this.scopeOf(row.project, row.environment),
      session: { id: s.id, userKey: s.user, tenantKey: s.tenant, envId: s.env, expiresAt: s.expires_at },
    };
  }

  private newSession(): { token: string; session: NewSession } {
    const token = newSecret(TOKEN_PREFIX);
    const now = new Date();
    return {
      token,
      session: {
        id: randomUUID(),
        hash: hashSecret(token),
        nowIso: now.toISOString(),
        expires_at: new Date(now.getTime() + this.settings.ttlSeconds * 1000).toISOString(),
      },
    };
  }

  private scopeOf(p: { id: string; key: string; org_id: string | null }, e: { id: string; key: string }): Scope {
    return { orgId: p.org_id ?? this.settings.orgId, projectId: p.id, projectKey: p.key, envId: e.id, envKey: e.key };
  }
}
