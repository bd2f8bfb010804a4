import type { Context } from 'koa';
import { ProvisioningStore, ScopeRow } from '../areas/provisioning/store';
import { forbidden, notFound, unauthorized } from '../errors';
import type { Authenticator, Req, RouteDef } from '../http/routeTable';
import { LruCache } from '../util/lruCache';
import { digestsEqual, hashSecret } from './secrets';
import type { Principal, Scope } from './types';

/** Resolves elements sessions (cookie or element bearer token); provided by the approvals area. */
export interface SessionResolver {
  resolve(ctx: Context, params: Record<string, string>): Promise<Pick<Req, 'scope' | 'session'>>;
}

export function bearerOf(ctx: Context): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return m?.[1];
}

/**
 * Bearer authentication (CONTRACT section 2): the admin key, compared in constant time
 * through digests, or an environment key looked up by its SHA-256 digest.
 */
export class BearerAuthenticator implements Authenticator {
  sessions?: SessionResolver;
  /**
   * Key and scope lookups, kept for AUTH_CACHE_TTL_MS. A revocation or deletion in this process
   * clears it at once (`forget`); other replicas see it within the TTL.
   */
  private readonly cache: LruCache<ScopeRow | undefined>;

  constructor(
    private readonly store: ProvisioningStore,
    private readonly adminKeyHash: string,
    private readonly orgId: string,
    cacheTtlMs = 0,
  ) {
    this.cache = new LruCache(cacheTtlMs > 0 ? 10_000 : 0, cacheTtlMs);
  }

  forget(): void {
    this.cache.clear();
  }

  private async cached(key: string, load: () => Promise<ScopeRow | undefined>): Promise<ScopeRow | undefined> {
    const hit = this.cache.get(key);
    if (hit) return hit;
    const row = await load();
    // Only complete answers are kept: a missing project or environment may be created any moment.
    if (row?.project && row.environment) this.cache.set(key, row);
    return row;
  }

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
      const row = (await this.cached(JSON.stringify([hash, params.proj_id, params.env_id]), () =>
        this.store.resolveScope(hash, params.proj_id, params.env_id),
      ))!;
      return this.envScope(isAdmin, row, params);
    }
    if (isAdmin) {
      if (route.auth === 'admin' || route.auth === 'key') return { principal: { kind: 'admin' } };
    }
    const row = await this.cached(hash, () => this.store.scopeOfKey(hash));
    if (!row?.key || !row.project || !row.environment) throw unauthorized('The API key is unknown or revoked.');
    if (route.auth === 'admin') throw forbidden('This call needs the admin key; an environment key may not do it.');
    return { principal: this.principalOf(row), scope: this.scopeOf(row) };
  }

  private envScope(isAdmin: boolean, row: ScopeRow, params: Record<string, string>): Partial<Req> {
    if (!isAdmin && !row.key) throw unauthorized('The API key is unknown or revoked.');
    if (!row.project || !row.environment) {
      if (isAdmin) throw notFound('Project/environment', `${params.proj_id}/${params.env_id}`);
      throw forbidden('The API key is not valid for this project and environment.');
    }
    if (!isAdmin && row.key!.env_id !== row.environment.id) {
      throw forbidden('The API key belongs to another environment; use a key of this project and environment.');
    }
    const principal: Principal = isAdmin ? { kind: 'admin' } : this.principalOf(row);
    return { principal, scope: this.scopeOf(row) };
  }

  private principalOf(row: ScopeRow): Principal {
    return { kind: 'env', keyId: row.key!.id, projectId: row.key!.project_id, envId: row.key!.env_id };
  }

  private scopeOf(row: ScopeRow): Scope {
    return {
      orgId: row.project!.org_id ?? this.orgId,
      projectId: row.project!.id,
      projectKey: row.project!.key,
      envId: row.environment!.id,
      envKey: row.environment!.key,
    };
  }
}
