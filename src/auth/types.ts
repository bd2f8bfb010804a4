/**
 * What an environment key may do (CONTRACT section 8): `read` asks permission questions and reads
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

/** An elements session opened by the login step (CONTRACT section 6). */
export interface Session {
  id: string;
  userKey: string;
  tenantKey: string;
  envId: string;
  expiresAt: string;
}
