import type { StatementRows } from '../../db/statements.generated';

/**
 * The walk: the graph half of every decision (docs/decisions.md). The decision engine
 * (engine.ts) asks it and combines its answers with the set rules; nothing else does. Its one
 * implementation today runs the named Cypher statements (walkStore.ts); another backend (a
 * Neo4j extension) answers the same methods with the same rows.
 *
 * `floor` everywhere: the revision of the environment the read must include (a cluster's
 * secondary may lag: Db.readOnce); undefined on one Neo4j.
 */
export interface Walk {
  /** Permission questions; `explain`: every granting path and what the walk saw (no batching). */
  check(env: string, checks: GraphCheck[], opts: { explain: boolean; floor?: number }): Promise<Decision[]>;
  /**
   * One page of the instances of a type the user may act on through the graph, in key order, and
   * the earliest time it can change without a write (an expiring grant it depends on; null: none).
   */
  listObjects(env: string, p: ObjectsPage, floor?: number): Promise<ListedPage>;
  /** The users the graph allows an action on a resource, with the assignments that grant it. */
  authorizedUsers(env: string, q: GraphCheckOf<'action' | 'type' | 'key' | 'tenant'>, floor?: number): Promise<AuthorizedUsersRow>;
  /** What the graph lets a user do, per instance and tenant ($tenants / $types narrow; null: all). */
  userPermissions(env: string, user: string, tenants: string[] | null, types: string[] | null, floor?: number): Promise<UserPermissionRows>;
  /** Each role a user holds on each instance and tenant, with the path that grants it; undefined: no such user. */
  effectiveRoles(env: string, user: string, tenant: string | null, floor?: number): Promise<EffectiveRole[] | undefined>;
  /** The tenants a user belongs to. */
  userTenants(env: string, user: string, floor?: number): Promise<TenantRow[]>;
  /** The tenants where a question could be allowed (all-tenants' candidates). */
  candidateTenants(
    env: string,
    q: { user: string; type: string; key: string | null; everyTenant: boolean },
    floor?: number,
  ): Promise<TenantRow[]>;
  /** Whether the user holds one of `roles` as a live tenant role in the tenant. */
  holdsTenantRole(env: string, user: string, tenant: string, roles: string[], floor?: number): Promise<boolean>;
  /** Whether the graph could grant the user anything on an instance of the tenant (a live assignment or tenant role). */
  mayGrantIn(env: string, user: string, tenant: string, floor?: number): Promise<boolean>;
}

/** A permission question as the walk takes it (the graph needs no attributes). */
export interface GraphCheck {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
  /** Answer what the set rules read of the user and instance too (Decision.stored), in the same round trip. */
  stored?: true;
}

/** What the set rules read of a question's user and instance (null: not stored). */
export interface StoredOfQuestion {
  user: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] } | null;
  instance: { type: string; key: string; tenant: string; attributes_json: string | null } | null;
}
type GraphCheckOf<K extends keyof GraphCheck> = Pick<GraphCheck, K>;

/** What the traversal saw, for `explain`. */
export interface Trace {
  user_found: boolean;
  tenant: string;
  granting_roles: string[];
  tenant_role_grant: boolean;
  searched: boolean;
  states_visited: number;
  paths: string[];
}

/** One answer; `depthLimited`: denied because MAX_DERIVATION_DEPTH cut the walk before it ended. */
export interface Decision {
  allow: boolean;
  depthLimited: boolean;
  /** Epoch ms when the answer may change without a write (an edge on its path expires); null: never. */
  validUntil?: number | null;
  trace?: Trace;
  /** For a check that asked it (GraphCheck.stored). */
  stored?: StoredOfQuestion;
}

export interface ObjectsPage {
  user: string;
  action: string;
  type: string;
  tenant: string | null;
  /** Resume after this key (null: from the first). */
  after: string | null;
  limit: number;
}

/** A page of list-objects as the walk answers it. */
export interface ListedPage {
  objects: ListedObject[];
  /** Epoch ms when the page may change without a write (an expiring grant it depends on lapses); null: never. */
  validUntil: number | null;
}

/** An instance on which the user may do the action. */
export interface ListedObject {
  type: string;
  key: string;
  tenant: string;
}

export type UserPermissionRows = StatementRows['decisions/userPermissions'];
export type AuthorizedUsersRow = StatementRows['decisions/authorizedUsers'];
export type AuthorizedAssignment = AuthorizedUsersRow['assignments'][number];
export type EffectiveRole = StatementRows['decisions/effectiveRoles']['roles'][number];
export type TenantRow = StatementRows['decisions/userTenants'];

/** Where the walk reads its settings (MAX_DERIVATION_DEPTH, DEFAULT_TENANT). */
export interface RuleSettings {
  maxDepth: number;
  defaultTenant: string;
}
