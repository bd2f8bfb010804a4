/**
 * What an environment key may do (docs/behaviour.md section 8): `read` asks permission questions and reads
 * the schema and facts; `write` also changes them. Key management, the admin graph and the audit
 * log need the admin key whatever the level.
 */
export type AccessLevel = 'read' | 'write';
export const ACCESS_LEVELS: AccessLevel[] = ['write', 'read'];

/** Who is calling: the deployment's admin key, or an environment key. */
export type Principal = { kind: 'admin' } | { kind: 'env'; keyId: string; projectId: string; envId: string; accessLevel: AccessLevel };

/** The project and environment a request works in, resolved from the path or the key. */
export interface Scope {
  orgId: string;
  projectId: string;
  projectKey: string;
  envId: string;
  envKey: string;
  /**
   * The environment's revision, read with the key after this request arrived (an environment
   * key or the admin key on an environment path): questions at the default consistency use it
   * instead of reading it again (src/areas/decisions/service.ts). Absent otherwise.
   */
  revision?: number;
}

/** The scope fields every record of an environment carries in its API shape. */
export const scoped = (scope: Scope) => ({
  organization_id: scope.orgId,
  project_id: scope.projectId,
  environment_id: scope.envId,
});

/** An elements session opened by the login step (docs/behaviour.md section 6). */
export interface Session {
  id: string;
  userKey: string;
  tenantKey: string;
  envId: string;
  expiresAt: string;
}

/**
 * What a key lookup reads (src/areas/provisioning/store.ts answers it): the key by its digest, and
 * the project and environment of the path (or of the key), with the environment's revision.
 */
export interface ScopeRow {
  key: { id: string; hash: string; access_level?: AccessLevel | null; env_id: string; project_id: string } | null;
  project: { id: string; key: string; org_id: string } | null;
  /**
   * `revision`: the environment's, read in the same query (after the request arrived);
   * `importing`: an import is filling it (src/areas/snapshots), so only the import is served.
   */
  environment: { id: string; key: string; revision?: number; importing?: boolean } | null;
}

/** The key lookups the authenticator asks (the provisioning store answers them). */
export interface KeyLookup {
  resolveScope(hash: string, proj: string, env: string): Promise<ScopeRow>;
  scopeOfKey(hash: string): Promise<ScopeRow | undefined>;
}

/** Name of the elements session cookie (docs/behaviour.md section 6). */
export const SESSION_COOKIE = 'authz_session';

/** What a request sends to prove its elements session: the cookie's or the bearer token, and its `element_id` header. */
export interface SessionCredentials {
  token: string | undefined;
  elementId: () => string;
}

/** Resolves elements sessions (cookie or element bearer token); the sessions area provides it. */
export interface SessionResolver {
  resolve(sent: SessionCredentials, params: Record<string, string>): Promise<{ scope: Scope; session: Session }>;
}
