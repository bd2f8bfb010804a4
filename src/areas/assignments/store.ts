import type { Db, Tx } from '../../db/db';
import type { WalkSelection } from '../../db/walkSelection';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { StatementRows } from '../../db/statements.generated';

/** What an assignment names (assignments/resolveAssignments' row, by its `// @row` header). */
export type AssignmentRefs = StatementRows['assignments/resolveAssignments'];
/** What a tuple names (assignments/resolveTuples' row). */
export type TupleRefs = StatementRows['assignments/resolveTuples'];
/** A role assignment as the list answers it (assignments/listRoleAssignments), with the ids of what it names (Permit's RoleAssignmentRead). */
export type AssignmentRow = StatementRows['assignments/listRoleAssignments']['data'][number];
/** A tuple as the list answers it (assignments/listTuples), with the ids of what it names (Permit's RelationshipTupleRead). */
export type TupleRow = StatementRows['assignments/listTuples']['data'][number];
/** A record read by id for the detailed lists (assignments/recordsByIds). */
export type RecordById = StatementRows['assignments/recordsByIds']['records'][number];
/** Filters of the role assignment list: null = any; `users`, `roles`, `tenants` match any of their keys. */
export interface AssignmentFilter {
  users: string[] | null;
  roles: string[] | null;
  tenants: string[] | null;
  resource: string | null;
  instance: string | null;
  instanceId: string | null;
  /** Tenant-level assignments only (an assignment's answer, read back). */
  tenantLevelOnly: boolean;
}
export interface TupleFilter {
  subject_type: string | null;
  subject_key: string | null;
  relation: string | null;
  object_type: string | null;
  object_key: string | null;
  tenant: string | null;
}
/** Assignment keys; `resource`/`instance` are the two halves of `resource_instance` (null for a tenant role). */
export interface AssignmentKeys {
  user: string;
  role: string;
  tenant: string;
  resource: string | null;
  instance: string | null;
}
/** An assignment as asked: the tenant of an instance assignment may be left to the instance's. */
export type AssignmentRef = Omit<AssignmentKeys, 'tenant'> & { tenant: string | null; expires_at?: number | null };
export interface AssignOutcome {
  /** Items that held and were written (repeats included). */
  written: number;
  /** Assignments that did not exist before. */
  created: number;
  /** The first written assignment (what a single assign answers). */
  first: { id: string; created_at: string | null; tenant: string } | null;
}
export interface TupleKeys {
  subject_type: string;
  subject_key: string;
  relation: string;
  object_type: string;
  object_key: string;
  /** Epoch ms; null: never expires. */
  expires_at?: number | null;
  tenant: string | null;
}

/** Role assignments (HAS_TENANT_ROLE / HAS_ROLE edges) and relationship tuples (RELATED edges). */
export class AssignmentsStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    /**
     * Which walk answers (src/db/walkSelection.ts): with the extension, its procedures write the
     * instance role assignments and the tuples (cypher/assignments/assignInstanceRolesExt.cypher,
     * createTuplesExt.cypher); none: the Cypher statements.
     */
    private readonly walk?: Pick<WalkSelection, 'extension'>,
  ) {
    this.q = this.db.statements({
      resolveAssignments: 'assignments/resolveAssignments',
      assignTenantRoles: 'assignments/assignTenantRoles',
      assignInstanceRoles: 'assignments/assignInstanceRoles',
      assignInstanceRolesExt: 'assignments/assignInstanceRolesExt',
      unassignRoles: 'assignments/unassignRoles',
      listRoleAssignments: 'assignments/listRoleAssignments',
      resolveTuples: 'assignments/resolveTuples',
      createTuples: 'assignments/createTuples',
      createTuplesExt: 'assignments/createTuplesExt',
      createImplicitInstances: 'assignments/createImplicitInstances',
      deleteTuples: 'assignments/deleteTuples',
      listTuples: 'assignments/listTuples',
      joinTenants: 'assignments/joinTenants',
      recordsByIds: 'assignments/recordsByIds',
    });
  }

  /** The environment's records with these ids (users, roles, tenants, instances, relations), by id. */
  async recordsByIds(env: string, ids: (string | null | undefined)[]): Promise<Map<string, RecordById>> {
    const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
    if (!wanted.length) return new Map();
    const [row] = await this.db.readRows(this.q.recordsByIds, { env, ids: wanted });
    return new Map((row?.records ?? []).map((r) => [r.id, r]));
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  /** One round trip for a whole batch; one answer per item, in order. */
  async resolveAssignments(tx: Tx, env: string, items: AssignmentRef[]): Promise<AssignmentRefs[]> {
    return tx.rows(this.q.resolveAssignments, { env, items });
  }

  /**
   * Writes a batch with one statement per kind (instance roles, tenant roles), each checking its
   * items as it goes, then joins the users to the tenants they now hold roles in. `written`
   * short of the batch size means an item did not hold: the caller explains it and rolls back.
   */
  async assignMany(tx: Tx, env: string, items: AssignmentRef[], nowIso: string): Promise<AssignOutcome> {
    // Sorted by instance so that concurrent batches lock shared instances in the same order (the
    // statement's MERGE locks both ends; the extension's procedure locks the batch's users instead,
    // docs/walk-extension.md "Writes").
    const onInstances = items.filter((a) => a.instance !== null).sort(byInstance);
    const onTenants = items.filter((a) => a.instance === null);
    const out: AssignOutcome = { written: 0, created: 0, first: null };
    const members: { user: string; tenant: string }[] = [];
    // The extension's procedure writes what the statement writes and answers the same row, with the
    // count of edges it created (a procedure's writes are not in the statement's counters).
    const onInstancesStmt = this.walk?.extension ? this.q.assignInstanceRolesExt : this.q.assignInstanceRoles;
    const kinds = [
      [onInstancesStmt, onInstances, columnsOf(onInstances)],
      [this.q.assignTenantRoles, onTenants, { items: onTenants }],
    ] as const;
    for (const [stmt, batch, shape] of kinds) {
      if (!batch.length) continue;
      // The change log tells the changes from the items, whatever shape the statement takes them in.
      const {
        rows: [row],
        relationshipsCreated,
      } = await tx.rowsCreating<AssignRow>(stmt, { env, nowIso, nowMs: Date.parse(nowIso), ...shape }, { env, nowIso, items: batch });
      out.written += row.written;
      out.created += (row.edgesCreated ?? relationshipsCreated) + row.renewed;
      out.first ??= firstOf(row);
      members.push(...row.members);
    }
    if (out.written === items.length && members.length) await tx.rows(this.q.joinTenants, { env, members });
    return out;
  }

  /** Removes those of a batch that exist, in one statement; answers how many. */
  async unassign(tx: Tx, env: string, items: AssignmentKeys[]): Promise<number> {
    if (!items.length) return 0;
    return (await tx.one(this.q.unassignRoles, { env, items }))?.removed ?? 0;
  }

  /** In `tx` when given (an assignment's answer, read back in the transaction that wrote it). */
  async listRoleAssignments(env: string, f: AssignmentFilter, page: Page, tx?: Tx) {
    const params = { env, ...f, skip: page.skip, limit: page.perPage };
    return listOf(tx ? await tx.rows(this.q.listRoleAssignments, params) : await this.db.readRows(this.q.listRoleAssignments, params));
  }

  async resolveTuples(tx: Tx, env: string, items: TupleKeys[]): Promise<TupleRefs[]> {
    return tx.rows(this.q.resolveTuples, { env, items });
  }

  /** Makes the instances a batch names but the graph lacks (Permit's implicit creation). */
  async createImplicitInstances(
    tx: Tx,
    env: string,
    items: { resource: string; key: string; tenant: string }[],
    nowIso: string,
  ): Promise<void> {
    if (items.length) await tx.rows(this.q.createImplicitInstances, { env, items, nowIso });
  }

  /** Writes a batch of tuples in one pass, checking each as it goes; `written` short of the batch size: an item did not hold. */
  async createTuples(tx: Tx, env: string, items: TupleKeys[], nowIso: string): Promise<AssignOutcome> {
    // Sorted by object so that concurrent batches lock shared instances in the same order.
    const sorted = [...items].sort((a, b) => cmp(a.object_type, b.object_type) || cmp(a.object_key, b.object_key));
    const objectTypes = [...new Set(items.map((x) => x.object_type))];
    // The extension's procedure writes what the statement writes, and counts the edges it created.
    const stmt = this.walk?.extension ? this.q.createTuplesExt : this.q.createTuples;
    const {
      rows: [row],
      relationshipsCreated,
    } = await tx.rowsCreating<CreatedTuplesRow>(stmt, { env, items: sorted, objectTypes, nowIso, nowMs: Date.parse(nowIso) });
    return { written: row.written, created: (row.edgesCreated ?? relationshipsCreated) + row.renewed, first: firstOf(row) };
  }

  /** Removes those of a batch that exist, in one statement; answers how many. */
  async deleteTuples(tx: Tx, env: string, items: TupleKeys[]): Promise<number> {
    return (await tx.one(this.q.deleteTuples, { env, items }))?.removed ?? 0;
  }

  /** In `tx` when given (a tuple's answer, read back in the transaction that wrote it). */
  async listTuples(env: string, f: TupleFilter, page: Page, tx?: Tx) {
    const params = { env, ...f, skip: page.skip, limit: page.perPage };
    return listOf(tx ? await tx.rows(this.q.listTuples, params) : await this.db.readRows(this.q.listTuples, params));
  }
}

/** A batch statement's row: the extension's (cypher/assignments/assignInstanceRolesExt.cypher) also counts what it created. */
type AssignRow = StatementRows['assignments/assignInstanceRoles'] & { edgesCreated?: number };
/** The same for tuples (cypher/assignments/createTuplesExt.cypher). */
type CreatedTuplesRow = StatementRows['assignments/createTuples'] & { edgesCreated?: number };

/** The first written item of a batch statement's answer (its id, and its tenant with it, are null when none was written). */
const firstOf = (row: { id: string | null; created_at: string | null; tenant: string | null }): AssignOutcome['first'] =>
  row.id !== null && row.tenant !== null ? { id: row.id, created_at: row.created_at, tenant: row.tenant } : null;

const cmp = (a: string | null, b: string | null) => (a! < b! ? -1 : a! > b! ? 1 : 0);
/**
 * Instance assignments as the statement takes them: columns (index k is item k, in the batch's
 * order) and each user once, so that the graph looks a user up once a batch, not once an item
 * (a bulk of 1,000 from one client holds about 70 users), and reads no map per item.
 */
export function columnsOf(items: AssignmentRef[]) {
  const users: string[] = [];
  const index = new Map<string, number>();
  const userOf = items.map((a) => {
    let k = index.get(a.user);
    if (k === undefined) index.set(a.user, (k = users.push(a.user) - 1));
    return k;
  });
  return {
    users,
    userOf,
    roles: items.map((a) => a.role),
    tenants: items.map((a) => a.tenant),
    resources: items.map((a) => a.resource),
    instances: items.map((a) => a.instance),
    expires: items.map((a) => a.expires_at ?? null),
    resourceKeys: [...new Set(items.map((a) => a.resource))],
  };
}

const byInstance = (a: AssignmentRef, b: AssignmentRef) => cmp(a.resource, b.resource) || cmp(a.instance, b.instance);
