import { type Db, floorOf } from '../../db/db';
import type { WalkSelection } from '../../db/walkSelection';
import type { StatementRows } from '../../db/statements.generated';
import type { FairQueue } from '../../util/fairQueue';
import { QuestionBatcher } from './batcher';
import { viaWalk } from './walkStatements';

export interface NormalizedCheck {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
}

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

/** The row of decisions/userPermissions (its `// @row` header). */
export type UserPermissionRows = StatementRows['decisions/userPermissions'];

export type AuthorizedAssignment = StatementRows['decisions/authorizedUsers']['assignments'][number];

/** One answer; `depthLimited`: denied because MAX_DERIVATION_DEPTH cut the walk before it ended. */
export interface Decision {
  allow: boolean;
  depthLimited: boolean;
  /** Epoch ms when the answer may change without a write (an edge on its path expires); null: never. */
  validUntil?: number | null;
  trace?: Trace;
}

/** Where the statements' rule reads its settings (MAX_DERIVATION_DEPTH, DEFAULT_TENANT). */
export interface RuleSettings {
  maxDepth: number;
  defaultTenant: string;
}

/** Permission questions are answered by one named traversal query per batch. */
export class DecisionStore {
  private readonly q;
  private readonly batcher;

  constructor(
    private readonly db: Db,
    private readonly rule: RuleSettings,
    /**
     * The batches' query slots, fair between environments (DECISION_QUERIES_IN_FLIGHT, _PER_ENV).
     * Fewer queries in flight make larger batches: less work per question, a little more waiting.
     */
    private readonly slots: FairQueue,
    /** Which walk answers (src/db/walkSelection.ts); none: the Cypher walk. */
    private readonly walk?: WalkSelection,
  ) {
    this.q = this.db.statements({
      allowed: 'decisions/allowed',
      // The same rows from the walk extension (neo4j/extension, docs/walk-extension.md).
      walkAllowed: 'walk/allowed',
      walkAuthorizedUsers: 'walk/authorizedUsers',
      walkUserPermissions: 'walk/userPermissions',
      userPermissions: 'decisions/userPermissions',
      authorizedUsers: 'decisions/authorizedUsers',
    });
    this.batcher = new QuestionBatcher<NormalizedCheck, Decision>(
      (env, checks, floor) => this.decide(env, checks, false, floor),
      this.slots,
      100,
    );
  }

  /**
   * Questions asked at about the same time share one query (see QuestionBatcher). `floor`: the
   * revision of `env` the answers must include (a cluster's secondary may lag; Db.readOnce).
   */
  async allowed(env: string, checks: NormalizedCheck[], floor?: number): Promise<Decision[]> {
    if (checks.length === 0) return [];
    return this.batcher.ask(env, checks, floor);
  }

  async explain(env: string, checks: NormalizedCheck[], floor?: number): Promise<Decision[]> {
    return this.decide(env, checks, true, floor);
  }

  async userPermissions(
    env: string,
    user: string,
    tenants: string[] | null,
    types: string[] | null,
    floor?: number,
  ): Promise<UserPermissionRows | undefined> {
    const params = { env, user, tenants, types, depth: this.rule.maxDepth, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkUserPermissions, this.q.userPermissions, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return row;
  }

  async authorizedUsers(env: string, q: { action: string; type: string; key: string | null; tenant: string | null }, floor?: number) {
    const params = { env, ...q, depth: this.rule.maxDepth, defaultTenant: this.rule.defaultTenant, nowMs: Date.now() };
    const [row] = await viaWalk(this.walk, this.q.walkAuthorizedUsers, this.q.authorizedUsers, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    return row;
  }

  private async decide(env: string, checks: NormalizedCheck[], explain: boolean, floor?: number): Promise<Decision[]> {
    if (checks.length === 0) return [];
    const params = { env, checks, depth: this.rule.maxDepth, defaultTenant: this.rule.defaultTenant, explain, nowMs: Date.now() };
    const rows = await viaWalk(this.walk, this.q.walkAllowed, this.q.allowed, (stmt) =>
      this.db.readOnce(stmt, params, 'read', floorOf(env, floor)),
    );
    const out: Decision[] = checks.map(() => ({ allow: false, depthLimited: false }));
    for (const row of rows) {
      out[row.idx] = {
        allow: row.allow,
        depthLimited: row.depthLimited,
        validUntil: row.validUntil,
        ...(explain && row.explanation ? { trace: row.explanation } : {}),
      };
    }
    return out;
  }
}
