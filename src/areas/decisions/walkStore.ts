import { type Db, floorOf, type Statement } from '../../db/db';
import type { WalkSelection } from '../../db/walkSelection';
import type { FairQueue } from '../../util/fairQueue';
import { QuestionBatcher } from './batcher';
import type {
  AuthorizedUsersRow,
  Decision,
  EffectiveRole,
  GraphCheck,
  ListedPage,
  ObjectsPage,
  RuleSettings,
  TenantRow,
  UserPermissionRows,
  Walk,
} from './walk';
import { packChecks } from './packedChecks';
import { type ListRow, objectsOfRow } from './packedPage';
import { viaWalk } from './walkStatements';

/**
 * The walk as named Cypher statements (cypher/decisions/): the rule's steps are the fragments of
 * cypher/fragments/rule/, shared by every statement. Plain checks asked at about the same time
 * share one query (QuestionBatcher). When the walk extension answers (src/db/walkSelection.ts,
 * docs/walk-extension.md), the statements that walk are its own (cypher/walk/: the same
 * parameters, the same rows, listObjects' page packed into one string): allowed, listObjects,
 * authorizedUsers, userPermissions, effectiveRoles.
 */
export class CypherWalk implements Walk {
  private readonly q;
  private readonly batcher;

  constructor(
    private readonly db: Db,
    private readonly rule: RuleSettings,
    /**
     * The batches' query slots, fair between environments (DECISION_QUERIES_IN_FLIGHT, _PER_ENV).
     * Fewer queries in flight make larger batches: less work per question, a little more waiting.
     */
    slots: FairQueue,
    /** Which walk answers (src/db/walkSelection.ts); none: the Cypher statements. */
    private readonly walk?: WalkSelection,
    /**
     * Told the environment's revision each batch of checks read, and when that read was sent
     * (performance.now()): the revision ledger's `learnRead` (src/areas/decisions/revisions.ts).
     * Only on one Neo4j (no secondaries) and never in a rehearsal: there a read sees every commit
     * made before it was sent, so under steady checks the coherence window needs no reads of its own.
     */
    private readonly learnRead?: (env: string, rev: number, sent: number) => void,
    /** DECISION_BATCH_HOLD_MS: how long a running batch holds the environment's next checks for one batch after it (QuestionBatcher). */
    batchHoldMs = 0,
  ) {
    this.q = this.db.statements({
      walkAllowed: 'walk/allowed',
      walkListObjects: 'walk/listObjects',
      walkAuthorizedUsers: 'walk/authorizedUsers',
      walkUserPermissions: 'walk/userPermissions',
      walkEffectiveRoles: 'walk/effectiveRoles',
      allowed: 'decisions/allowed',
      listObjects: 'decisions/listObjects',
      userPermissions: 'decisions/userPermissions',
      authorizedUsers: 'decisions/authorizedUsers',
      effectiveRoles: 'decisions/effectiveRoles',
      userTenants: 'decisions/userTenants',
      candidateTenants: 'decisions/candidateTenants',
      holdsTenantRole: 'decisions/holdsTenantRole',
      mayGrantIn: 'decisions/mayGrantIn',
    });
    this.batcher = new QuestionBatcher<GraphCheck, Decision>(
      (env, checks, floor) => this.run(env, checks, false, floor),
      slots,
      100,
      batchHoldMs,
    );
  }

  async check(env: string, checks: GraphCheck[], opts: { explain: boolean; floor?: number }): Promise<Decision[]> {
    if (checks.length === 0) return [];
    // A rehearsal's checks (src/db/db.ts) read its own transaction: never batched with other requests'.
    if (opts.explain || this.db.rehearsing) return this.run(env, checks, opts.explain, opts.floor);
    return this.batcher.ask(env, checks, opts.floor);
  }

  private async run(env: string, checks: GraphCheck[], explain: boolean, floor?: number): Promise<Decision[]> {
    if (checks.length === 0) return [];
    const { maxDepth: depth, defaultTenant } = this.rule;
    const nowMs = Date.now();
    const sent = performance.now();
    // The extension takes the checks packed into one string (src/areas/decisions/packedChecks.ts); the Cypher walk as maps.
    const rows = await viaWalk(this.walk, this.q.walkAllowed, this.q.allowed, (stmt) =>
      this.db.readOnce(
        stmt,
        { env, checks: stmt === this.q.walkAllowed ? packChecks(checks) : checks, depth, defaultTenant, explain, nowMs },
        'read',
        floorOf(env, floor),
      ),
    );
    this.learned(env, rows[0]?.revision, sent);
    const out: Decision[] = checks.map(() => ({ allow: false, depthLimited: false }));
    for (const row of rows) {
      out[row.idx] = {
        allow: row.allow,
        depthLimited: row.depthLimited,
        validUntil: row.validUntil,
        ...(explain && row.explanation ? { trace: row.explanation } : {}),
        ...(row.stored ? { stored: row.stored } : {}),
      };
    }
    return out;
  }

  async listObjects(env: string, p: ObjectsPage, floor?: number): Promise<ListedPage> {
    const params = { env, ...p, depth: this.rule.maxDepth, nowMs: Date.now() };
    const sent = performance.now();
    // The extension's row packs the page into one string; the Cypher walk's holds it as lists.
    const [row] = await viaWalk<Statement<ListRow>, ListRow[]>(this.walk, this.q.walkListObjects, this.q.listObjects, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    if (!row) return { objects: [], validUntil: null };
    // The list's read keeps its environment fresh in the coherence window, as a batch of checks does.
    this.learned(env, row.revision, sent);
    return { objects: objectsOfRow(row, p.type), validUntil: row.validUntil };
  }

  /** Tells the revision ledger what a walk read sent at `sent` answered (see `learnRead`). */
  private learned(env: string, revision: number | null | undefined, sent: number): void {
    if (this.learnRead && revision != null && !this.db.routing && !this.db.rehearsing) this.learnRead(env, revision, sent);
  }

  async authorizedUsers(
    env: string,
    q: { action: string; type: string; key: string | null; tenant: string | null },
    floor?: number,
  ): Promise<AuthorizedUsersRow> {
    const params = { env, ...q, depth: this.rule.maxDepth, defaultTenant: this.rule.defaultTenant, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkAuthorizedUsers, this.q.authorizedUsers, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return row;
  }

  async userPermissions(
    env: string,
    user: string,
    tenants: string[] | null,
    types: string[] | null,
    floor?: number,
  ): Promise<UserPermissionRows> {
    const params = { env, user, tenants, types, depth: this.rule.maxDepth, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkUserPermissions, this.q.userPermissions, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return row ?? { instances: [], tenants: [] };
  }

  async effectiveRoles(env: string, user: string, tenant: string | null, floor?: number): Promise<EffectiveRole[] | undefined> {
    const params = { env, user, tenant, depth: this.rule.maxDepth, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkEffectiveRoles, this.q.effectiveRoles, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return row?.roles;
  }

  userTenants(env: string, user: string, floor?: number): Promise<TenantRow[]> {
    return this.db.readOnce(this.q.userTenants, { env, user }, 'read', floorOf(env, floor));
  }

  candidateTenants(
    env: string,
    q: { user: string; type: string; key: string | null; everyTenant: boolean },
    floor?: number,
  ): Promise<TenantRow[]> {
    return this.db.readOnce(this.q.candidateTenants, { env, ...q }, 'read', floorOf(env, floor));
  }

  async holdsTenantRole(env: string, user: string, tenant: string, roles: string[], floor?: number): Promise<boolean> {
    if (!roles.length) return false;
    const [row] = await this.db.readOnce(
      this.q.holdsTenantRole,
      { env, user, tenant, roles, nowMs: Date.now() },
      'read',
      floorOf(env, floor),
    );
    return row?.holds === true;
  }

  async mayGrantIn(env: string, user: string, tenant: string, floor?: number): Promise<boolean> {
    const [row] = await this.db.readOnce(this.q.mayGrantIn, { env, user, tenant, nowMs: Date.now() }, 'read', floorOf(env, floor));
    return row?.may === true;
  }
}
