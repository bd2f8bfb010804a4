import type { Context } from 'koa';
import type { SecretGate } from '../auth/secretGate';
import { hash as oneShotHash, timingSafeEqual } from 'node:crypto';
import {
  SESSION_COOKIE,
  type AccessLevel,
  type KeyLookup,
  type Principal,
  type Scope,
  type ScopeRow,
  type SessionResolver,
} from '../auth/types';
import { forbidden, notFound, unauthorized, unavailable } from '../errors';
import { LruCache } from '../util/lruCache';
import { SharedReads } from '../util/sharedRead';
import type { Authenticator, Req, RouteDef } from './routeTable';

export function bearerOf(ctx: Context): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return m?.[1];
}

/** The level a route needs from an environment key: whatever changes nothing (GET, questions) needs `read`. */
export function levelNeeded(route: RouteDef): AccessLevel {
  return route.method === 'GET' || route.readOnly ? 'read' : 'write';
}

/**
 * What the authenticator needs of the revision ledger (src/areas/decisions/revisions.ts): whether
 * the known revision of an environment includes every write acknowledged before an instant.
 */
export interface Freshness {
  freshFor(envId: string, arrivedAt: number): boolean;
  known(envId: string): number | undefined;
  learnRead(envId: string, rev: number, sent: number): void;
}

/** A looked-up row and when its read was sent (performance.now()). */
type LookedUp = { row: ScopeRow | undefined; sent: number };

/** Key rows kept per process (digest, project, environment): a bound on memory, not on time. */
const KEPT_ROWS = 10_000;

/**
 * Bearer authentication (docs/behaviour.md sections 2 and 8): the admin key, compared in constant time
 * through digests, or an environment key looked up by its SHA-256 digest.
 *
 * A revocation or rotation made through any replica refuses the old secret on the next request
 * everywhere. The lookup shares its round trip with the path's project/environment and the
 * environment's revision (which the request's questions then use), and requests with the same
 * key and path that arrive together share one lookup started after each arrived (SharedReads).
 * A looked-up row is kept and used again without a round trip while the environment's revision
 * is unchanged and fresh for the request (`Freshness.freshFor`: the coherence window): revoking
 * or rotating a key moves its environment's revision, and deleting an environment removes it,
 * and those writes are acknowledged only after every replica's next fresh read (commit wait).
 */
export interface AuthenticatorParts {
  /** Answers the key lookups (the provisioning store). */
  keys: KeyLookup;
  adminKeyHash: string;
  orgId: string;
  /** The revision ledger: a kept key row serves while its environment's revision is fresh (src/areas/decisions/revisions.ts). */
  freshness?: Freshness;
  /** Unknown secrets: refused from memory once failed, looked up under a global bound (src/auth/secretGate.ts). */
  gate?: SecretGate;
  /** Elements sessions, for routes with `auth: 'session'` (the sessions area's service). */
  sessions?: SessionResolver;
}

export class BearerAuthenticator implements Authenticator {
  private readonly store: KeyLookup;
  /** The admin key's SHA-256 digest, raw: compared in constant time with each request's (no hex decoding a request). */
  private readonly adminDigest: Buffer;
  private readonly orgId: string;
  private readonly freshness?: Freshness;
  private readonly gate?: SecretGate;
  private readonly sessions?: SessionResolver;
  /** Lookups of (key, project, environment) for environment paths, and of a key alone for the PDP paths. */
  private readonly scopes = new SharedReads<LookedUp>();
  private readonly keys = new SharedReads<LookedUp>();
  private readonly kept = new LruCache<ScopeRow>(KEPT_ROWS);

  constructor(parts: AuthenticatorParts) {
    this.store = parts.keys;
    this.adminDigest = Buffer.from(parts.adminKeyHash, 'hex');
    this.orgId = parts.orgId;
    this.freshness = parts.freshness;
    this.gate = parts.gate;
    this.sessions = parts.sessions;
  }

  /**
   * The row kept for `id` when it is still the environment's (same revision, read fresh for a
   * request that arrived at `arrivedAt`), with the known revision; else a shared lookup, kept.
   */
  private async rowFor(
    id: string,
    hash: string,
    isAdmin: boolean,
    arrivedAt: number | undefined,
    lookup: () => Promise<ScopeRow | undefined>,
    shared: SharedReads<LookedUp>,
  ): Promise<ScopeRow | undefined> {
    const kept = this.kept.get(id);
    const envId = kept?.environment?.id;
    if (
      this.freshness &&
      kept &&
      envId &&
      arrivedAt !== undefined &&
      this.freshness.freshFor(envId, arrivedAt) &&
      this.freshness.known(envId) === kept.environment!.revision
    ) {
      return kept;
    }
    const read = async () => {
      const started = performance.now();
      return { row: await lookup(), sent: started };
    };
    const { row, sent } = await shared.get(id, this.gate && !isAdmin ? () => this.gate!.lookup(hash, read) : read);
    if (!isAdmin) this.gate?.learn(hash, row?.key !== undefined && row.key !== null);
    const env = row?.environment;
    // Only rows that let the caller in are kept (an unknown secret is looked up every time).
    if (env && env.revision !== undefined && (row.key || isAdmin)) {
      this.freshness?.learnRead(env.id, env.revision, sent);
      this.kept.set(id, row!);
    } else {
      this.kept.delete(id);
    }
    return row;
  }

  async authenticate(ctx: Context, route: RouteDef, params: Record<string, string>): Promise<Partial<Req>> {
    if (route.auth === 'public') return {};
    if (route.auth === 'session') {
      if (!this.sessions) throw unauthorized('Sessions are not available.');
      return this.sessions.resolve(
        { token: ctx.cookies.get(SESSION_COOKIE) || bearerOf(ctx), elementId: () => ctx.get('element_id') },
        params,
      );
    }
    const secret = bearerOf(ctx);
    if (!secret) throw unauthorized();
    // The same digest as hashSecret (src/auth/secrets.ts), taken once raw for the comparison and in hex for the lookups.
    // One-shot (no Hash object a request): about 0.5 µs less than createHash().update().digest().
    const digest = oneShotHash('sha256', secret, 'buffer');
    const isAdmin = digest.length === this.adminDigest.length && timingSafeEqual(digest, this.adminDigest);
    const hash = digest.toString('hex');
    if (!isAdmin && this.gate?.failedRecently(hash)) throw unauthorized('The API key is unknown or revoked.');

    if (route.auth === 'env') {
      const { proj_id: proj, env_id: env } = params;
      const row = (await this.rowFor(
        // The digest is 64 hex digits and the project's key is length-prefixed: no two (key, project, environment) share an id.
        `${hash}${proj.length}:${proj}/${env}`,
        hash,
        isAdmin,
        arrivedAt(ctx),
        () => this.store.resolveScope(hash, proj, env),
        this.scopes,
      ))!;
      return this.envScope(route, isAdmin, row, params);
    }
    if (isAdmin) {
      if (route.auth === 'admin' || route.auth === 'key') return { principal: { kind: 'admin' } };
    }
    const row = await this.rowFor(hash, hash, isAdmin, arrivedAt(ctx), () => this.store.scopeOfKey(hash), this.keys);
    if (!row?.key || !row.project || !row.environment) throw unauthorized('The API key is unknown or revoked.');
    if (route.auth === 'admin') throw forbidden('This call needs the admin key; an environment key may not do it.');
    const principal = this.principalOf(row);
    this.checkLevel(route, principal);
    refuseWhileImporting(route, row);
    return { principal, scope: this.scopeOf(row) };
  }

  private envScope(route: RouteDef, isAdmin: boolean, row: ScopeRow, params: Record<string, string>): Partial<Req> {
    if (!isAdmin && !row.key) throw unauthorized('The API key is unknown or revoked.');
    // One body whether the other project/environment exists or not (docs/behaviour.md section 15): a key
    // learns nothing of what lies outside its own scope. The admin key may see everything: a 404.
    if (isAdmin && (!row.project || !row.environment)) throw notFound('Project/environment', `${params.proj_id}/${params.env_id}`);
    if (!isAdmin && (!row.project || !row.environment || row.key!.env_id !== row.environment.id)) throw otherScope();
    const principal: Principal = isAdmin ? { kind: 'admin' } : this.principalOf(row);
    this.checkLevel(route, principal);
    refuseWhileImporting(route, row);
    return { principal, scope: this.scopeOf(row) };
  }

  /** docs/behaviour.md section 8: admin-only routes refuse every environment key; a `read` key only asks and reads. */
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
    return {
      kind: 'env',
      keyId: k.id,
      projectId: k.project_id,
      envId: k.env_id,
      accessLevel: k.access_level === 'read' ? 'read' : 'write',
    };
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

/**
 * An environment an import is filling (docs/behaviour.md section 16, src/areas/snapshots) serves only the
 * import: no question or read sees its staged records, and no write mixes with them, until the
 * import's last small transaction makes them visible (or its failure removes them).
 */
function refuseWhileImporting(route: RouteDef, row: ScopeRow): void {
  if (row.environment?.importing && !route.duringImport) {
    throw unavailable('An import is filling this environment; it answers again once the import ends.', 5);
  }
}

/** An environment key on a project/environment that is not its own, existing or not. */
const otherScope = () => forbidden('The API key is not valid for this project and environment; use a key of the environment in the path.');

/** When the request arrived (src/http/middleware.ts), as performance.now(). */
const arrivedAt = (ctx: Context) => ctx.state?.arrivedAt as number | undefined;

const ctxPath = (route: RouteDef) => (Array.isArray(route.path) ? route.path[0] : route.path);
