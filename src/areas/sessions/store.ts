import type { Db } from '../../db/db';
import type { StatementRows } from '../../db/statements.generated';
import type { SessionNode } from '../../db/records';

export type { SessionNode } from '../../db/records';
/** sessions/resolveSession's row (its `// @row` header). */
export type SessionContext = StatementRows['sessions/resolveSession'];
/** sessions/loginTarget's row (its `// @row` header). */
export type LoginTarget = StatementRows['sessions/loginTarget'];
/** A session to open: only the digest of its token is stored. */
export interface NewSession {
  id: string;
  hash: string;
  nowIso: string;
  expires_at: string;
}

/**
 * Elements sessions and one-time login codes in the graph, so that any replica reads them:
 * only SHA-256 digests of tokens and codes are stored.
 */
export class SessionStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      resolveEnvironment: 'sessions/resolveEnvironment',
      loginTarget: 'sessions/loginTarget',
      createSession: 'sessions/createSession',
      createLoginCode: 'sessions/createLoginCode',
      loginCodeOwner: 'sessions/loginCodeOwner',
      redeemLoginCode: 'sessions/redeemLoginCode',
      resolveSession: 'sessions/resolveSession',
      deleteSession: 'sessions/deleteSession',
    });
  }

  async resolveEnvironment(proj: string, env: string): Promise<Pick<SessionContext, 'project' | 'environment'> | undefined> {
    const [row] = await this.db.readRows(this.q.resolveEnvironment, { proj, env });
    return row;
  }

  /**
   * Looks up the tenant and user of a login and, when the user belongs to the tenant, opens the
   * session and stores the digest of its one-time login code, in one transaction.
   */
  async login(env: string, s: NewSession & { tenant: string; user: string; codeHash: string; codeExpiresAt: string }) {
    return this.db.write(async (tx) => {
      const target = (await tx.one(this.q.loginTarget, { env, tenant: s.tenant, user: s.user }))!;
      if (!target.member) return { target, session: undefined };
      const row = await tx.one(this.q.createSession, { env, ...s, tenant: target.tenant, user: target.user });
      const session = row!.session;
      await tx.one(this.q.createLoginCode, {
        env,
        login: session.id,
        hash: s.codeHash,
        user: session.user,
        tenant: session.tenant,
        nowIso: s.nowIso,
        expires_at: s.codeExpiresAt,
        session_expires_at: session.expires_at,
      });
      return { target, session };
    });
  }

  /** The user a login code logs in and its environment; undefined for an unknown code. */
  async loginCodeOwner(codeHash: string): Promise<{ user: string; env: string } | undefined> {
    // Latest: the code was written a moment ago, perhaps through another replica.
    const [row] = await this.db.readLatestRows(this.q.loginCodeOwner, { codeHash });
    return row;
  }

  /** Uses up a login code and opens a session for its user; undefined when the code is unknown, used or expired. */
  async redeemLoginCode(env: string, codeHash: string, s: NewSession): Promise<SessionNode | undefined> {
    const [row] = await this.db.writeRows(this.q.redeemLoginCode, { env, codeHash, id: s.id, hash: s.hash, nowIso: s.nowIso });
    return row?.session;
  }

  async resolve(hash: string, proj: string | null, env: string | null, config: string | null): Promise<SessionContext> {
    const [row] = await this.db.readRows(this.q.resolveSession, { hash, proj, env, config });
    return row;
  }

  async delete(id: string, env: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteSession, { id, env });
    return (row?.deleted ?? 0) > 0;
  }
}
