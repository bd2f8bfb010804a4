import { Db } from '../../db/db';
import { QuestionBatcher } from './batcher';

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

export interface UserPermissionRows {
  instances: { key: string; tenant: string; type: string; resource_key: string; roles: string[]; permissions: string[] }[];
  tenants: { key: string; tenant: string; roles: string[]; permissions: string[] }[];
}

export interface AuthorizedAssignment {
  user: string;
  tenant: string;
  resource: string;
  role: string;
}

export interface Decision {
  allow: boolean;
  trace?: Trace;
}

/** Permission questions are answered by one named traversal query per batch. */
export class DecisionStore {
  private readonly q = this.db.statements({
    allowed: 'decisions/allowed',
    userPermissions: 'decisions/userPermissions',
    authorizedUsers: 'decisions/authorizedUsers',
  });

  constructor(
    private readonly db: Db,
    private readonly maxDepth: number,
    /** Fewer queries in flight make larger batches: less work per question, a little more waiting. */
    private readonly queriesInFlight = 4,
  ) {}

  private readonly batcher = new QuestionBatcher<NormalizedCheck>(
    async (env, checks) => (await this.decide(env, checks, false)).map((d) => d.allow),
    100,
    this.queriesInFlight,
  );

  /** Questions asked at about the same time share one query (see QuestionBatcher). */
  async allowed(env: string, checks: NormalizedCheck[]): Promise<boolean[]> {
    if (checks.length === 0) return [];
    return this.batcher.ask(env, checks);
  }

  async explain(env: string, checks: NormalizedCheck[]): Promise<Decision[]> {
    return this.decide(env, checks, true);
  }

  async userPermissions(env: string, user: string, tenants: string[] | null, types: string[] | null): Promise<UserPermissionRows | undefined> {
    const [row] = await this.db.readRows(this.q.userPermissions, { env, user, tenants, types, depth: this.maxDepth });
    return row as unknown as UserPermissionRows | undefined;
  }

  async authorizedUsers(env: string, q: { action: string; type: string; key: string | null; tenant: string | null }) {
    const [row] = await this.db.readRows(this.q.authorizedUsers, { env, ...q, depth: this.maxDepth });
    return row as unknown as { tenant: string; assignments: AuthorizedAssignment[] };
  }

  private async decide(env: string, checks: NormalizedCheck[], explain: boolean): Promise<Decision[]> {
    if (checks.length === 0) return [];
    const rows = await this.db.readOnce(this.q.allowed, { env, checks, depth: this.maxDepth, explain });
    const out: Decision[] = checks.map(() => ({ allow: false }));
    for (const row of rows) {
      out[row.idx as number] = { allow: row.allow === true, ...(explain ? { trace: row.explanation as Trace } : {}) };
    }
    return out;
  }
}
