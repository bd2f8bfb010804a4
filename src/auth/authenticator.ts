import type { Context } from 'koa';
import { ProvisioningStore, ScopeRow } from '../areas/provisioning/store';
import { forbidden, notFound, unauthorized } from '../errors';
import type { Authenticator, Req, RouteDef } from '../http/routeTable';
import { SharedReads } from '../util/sharedRead';
import { digestsEqual, hashSecret } from './secrets';
import type { AccessLevel, Principal, Scope } from './types';

/** Resolves elements sessions (cookie or element bearer token); provided by the sessions area. */
export interface SessionResolver {
  resolve(ctx: Context, params: Record<string, string>): Promise<Pick<Req, 'scope' | 'session'>>;
}

export function bearerOf(ctx: Context): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return m?.[1];
}

/** The level a route needs from an environment key: whatever changes nothing (GET, questions) needs `read`. */
export function levelNeeded(route: RouteDef): AccessLevel {
  return route.method === 'GET' || route.readOnly ? 'read' : 'write';
}

/**
 * Bearer authentication (CONTRACT sections 2 and 8): the admin key, compared in constant time
 * through digests, or an environment key looked up by its SHA-256 digest.
 *
 * The key is looked up in the graph for every request, never cached: a revocation or rotation
 * made through any replica refuses the old secret on the next request everywhere. The lookup
 * shares its round trip with the path's project/environment and the environment's revision
 * (which the request's questions then use), and requests with the same key and path that
 * arrive together share one lookup started after each arrived (SharedReads), so under load one
 * round trip authenticates a group of requests (docs/benchmarks.md).
 */
export class BearerAuthenticator implements Authenticator {
  sessions?: SessionResolver;
  private readonly scopes = new SharedReads<ScopeRow>();
  private readonly keys = new SharedReads<ScopeRow | undefined>();

  constructor(
    private readonly store: ProvisioningStore,
    private readonly adminKeyHash: string,
    private readonly orgId: string,
  ) {}

  async authenticate(ctx: Context, route: RouteDef, params: Record<string, string>): Promise<Partial<Req>> {
    if (route.auth === 'public') return {};
    if (route.auth === 'session') {
      if (!this.sessions) throw unauthorized('Sessions are not available.');
      return this.sessions.resolve(ctx, params);
    }
    const secret = bearerOf(ctx);
    if (!secret) throw unauthorized();
    const hash = hashSecret(secret);
    const isAdmin = digestsEqual(hash, this.adminKeyHash);

    if (route.auth === 'env') {
      const { proj_id: proj, env_id: env } = params;
      const row = await this.scopes.get(JSON.stringify([hash, proj, env]), () => this.store.resolveScope(hash, proj, env));
      return this.envScope(route, isAdmin, row, params);
    }
    if (isAdmin) {
      if (route.auth === 'admin' || route.auth === 'key') return { principal: { kind: 'admin' } };
    }
    const row = await this.keys.get(hash, () => this.store.scopeOfKey(hash));
    if (!row?.key || !row.project || !row.environment) throw unauthorized('The API key is unknown or revoked.');
    if (route.auth === 'admin') throw forbidden('This call needs the admin key; an environment key may not do it.');
    const principal = this.principalOf(row);
    this.checkLevel(route, principal);
    return { principal, scope: this.scopeOf(row) };
  }

  private envScope(route: RouteDef, isAdmin: boolean, row: ScopeRow, params: Record<string, string>): Partial<Req> {
    if (!isAdmin && !row.key) throw unauthorized('The API key is unknown or revoked.');
    if (!row.project || !row.environment) {
      if (isAdmin) throw notFound('Project/environment', `${params.proj_id}/${params.env_id}`);
      throw forbidden('The API key is not valid for this project and environment.');
    }
    if (!isAdmin && row.key!.env_id !== row.environment.id) {
      throw forbidden('The API key belongs to another environment; use a key of this project and environment.');
    }
    const principal: Principal = isAdmin ? { kind: 'admin' } : this.principalOf(row);
    this.checkLevel(route, principal);
    return { principal, scope: this.scopeOf(row) };
  }

  /** CONTRACT section 8: admin-only routes refuse every environment key; a `read` key only asks and reads. */
  private checkLevel(route: RouteDef, principal: Principal): void {
    if (principal.kind === 'admin') return;
    if (route.adminOnly) {
      throw forbidden('This call needs the admin key: environment keys may not manage keys or read the admin graph and audit log.');
    }
    if (principal.accessLevel === 'read' && levelNeeded(route) === 'write') {
      throw forbidden(
        `The API key has access level "read" (permission questions and reads of the schema and facts); ${route.method} ${ctxPath(route)} needs a key with access level "write".`,
      );
    }
  }

  private principalOf(row: ScopeRow): Principal {
    const k = row.key!;
    return { kind: 'env', keyId: k.id, projectId: k.project_id, envId: k.env_id, accessLevel: k.access_level === 'read' ? 'read' : 'write' };
  }

  private scopeOf(row: ScopeRow): Scope {
    return {
      orgId: row.project!.org_id ?? this.orgId,
      projectId: row.project!.id,
      projectKey: row.project!.key,
      envId: row.environment!.id,
      envKey: row.environment!.key,
      revision: row.environment!.revision,
    };
  }
}

const ctxPath = (route: RouteDef) => (Array.isArray(route.path) ? route.path[0] : route.path);
