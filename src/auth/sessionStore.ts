import { Db } from '../db/db';

export interface SessionNode {
  id: string;
  env: string;
  user: string;
  tenant: string;
  created_at?: string;
  expires_at: string;
}
export interface SessionContext {
  session: SessionNode | null;
  member: boolean;
  project: { id: string; key: string; org_id: string | null } | null;
  environment: { id: string; key: string } | null;
  config: { id: string; key: string } | null;
}
export interface LoginTarget {
  tenant: string | null;
  user: string | null;
  member: boolean;
}

/** Elements sessions in the graph: only the SHA-256 digest of a token is stored. */
export class SessionStore {
  private readonly q = this.db.statements({
    resolveEnvironment: 'sessions/resolveEnvironment',
    loginTarget: 'sessions/loginTarget',
    createSession: 'sessions/createSession',
    resolveSession: 'sessions/resolveSession',
    findSession: 'sessions/findSession',
    deleteSession: 'sessions/deleteSession',
  });

  constructor(private readonly db: Db) {}

  async resolveEnvironment(proj: string, env: string): Promise<Pick<SessionContext, 'project' | 'environment'> | undefined> {
    const [row] = await this.db.readRows(this.q.resolveEnvironment, { proj, env });
    return row as unknown as Pick<SessionContext, 'project' | 'environment'> | undefined;
  }

  /** Looks up the tenant and user of a login and, when the user belongs to the tenant, opens the session. */
  async login(env: string, s: { tenant: string; user: string; id: string; hash: string; now: string; expires_at: string }) {
    return this.db.write(async (tx) => {
      const target = (await tx.one(this.q.loginTarget, { env, tenant: s.tenant, user: s.user })) as unknown as LoginTarget;
      if (!target.member) return { target, session: undefined };
      const row = await tx.one(this.q.createSession, { env, ...s, tenant: target.tenant, user: target.user });
      return { target, session: row!.session as SessionNode };
    });
  }

  async resolve(hash: string, proj: string | null, env: string | null, config: string | null): Promise<SessionContext> {
    const [row] = await this.db.readRows(this.q.resolveSession, { hash, proj, env, config });
    return row as unknown as SessionContext;
  }

  async find(hash: string): Promise<SessionNode | undefined> {
    const [row] = await this.db.readRows(this.q.findSession, { hash });
    return row?.session as SessionNode | undefined;
  }

  async delete(id: string, env: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteSession, { id, env });
    return (row?.deleted as number) > 0;
  }
}
