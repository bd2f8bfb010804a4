import { Db, Row, Tx } from '../../db/db';
import { AppError } from '../../errors';
import { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';

export interface AssignmentRefs {
  userExists: boolean;
  tenantExists: boolean;
  instanceExists: boolean;
  instanceTenant: string | null;
  tenantRoleExists: boolean;
  resourceRoleExists: boolean;
}
export interface TupleRefs {
  subjectTypeExists: boolean;
  objectTypeExists: boolean;
  relationExists: boolean;
  relationSubject: string | null;
  subjectExists: boolean;
  subjectTenant: string | null;
  objectExists: boolean;
  objectTenant: string | null;
  tenantExists: boolean;
}
export interface Written {
  created: boolean;
  id: string;
  created_at: string;
}
export interface AssignmentRow {
  id: string;
  user: string;
  role: string;
  tenant: string;
  resource_instance: string | null;
  created_at: string | null;
}
export interface TupleRow {
  id: string;
  subject: string;
  relation: string;
  object: string;
  tenant: string | null;
  created_at: string | null;
}
/** Assignment keys; `resource`/`instance` are the two halves of `resource_instance` (null for a tenant role). */
export interface AssignmentKeys {
  user: string;
  role: string;
  tenant: string;
  resource: string | null;
  instance: string | null;
}
export interface TupleKeys {
  subject_type: string;
  subject_key: string;
  relation: string;
  object_type: string;
  object_key: string;
  tenant: string | null;
}

/** Role assignments (HAS_TENANT_ROLE / HAS_ROLE edges) and relationship tuples (RELATED edges). */
export class AssignmentsStore {
  private readonly q = this.db.statements({
    resolveAssignments: 'assignments/resolveAssignments',
    assignTenantRoles: 'assignments/assignTenantRoles',
    assignInstanceRoles: 'assignments/assignInstanceRoles',
    unassignRoles: 'assignments/unassignRoles',
    listRoleAssignments: 'assignments/listRoleAssignments',
    resolveTuples: 'assignments/resolveTuples',
    createTuples: 'assignments/createTuples',
    createImplicitInstances: 'assignments/createImplicitInstances',
    deleteTuples: 'assignments/deleteTuples',
    listTuples: 'assignments/listTuples',
  });

  constructor(private readonly db: Db) {}

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  /** One round trip for a whole batch; one answer per item, in order. */
  async resolveAssignments(tx: Tx, env: string, items: (Omit<AssignmentKeys, 'tenant'> & { tenant: string | null })[]): Promise<AssignmentRefs[]> {
    return (await tx.rows(this.q.resolveAssignments, { env, items })) as unknown as AssignmentRefs[];
  }

  /** Writes a checked batch with two statements (tenant roles, instance roles); answers per item, in order. */
  async assignMany(tx: Tx, env: string, all: AssignmentKeys[], now: string): Promise<Written[]> {
    return onceEach(all, (a) => JSON.stringify([a.user, a.role, a.tenant, a.resource, a.instance]), (items) => this.assignUnique(tx, env, items, now));
  }

  private async assignUnique(tx: Tx, env: string, items: AssignmentKeys[], now: string): Promise<Written[]> {
    const out: Written[] = new Array(items.length);
    for (const [stmt, pick] of [[this.q.assignTenantRoles, (a: AssignmentKeys) => a.instance === null], [this.q.assignInstanceRoles, (a: AssignmentKeys) => a.instance !== null]] as const) {
      const positions = items.flatMap((a, i) => (pick(a) ? [i] : []));
      if (!positions.length) continue;
      const rows = byIdx(await tx.rows(stmt, { env, items: positions.map((i) => items[i]), now }), positions.length);
      rows.forEach((row, j) => (out[positions[j]] = row));
    }
    return out;
  }

  /** Removes those of a batch that exist, in one statement; answers how many. */
  async unassign(tx: Tx, env: string, items: AssignmentKeys[]): Promise<number> {
    if (!items.length) return 0;
    return ((await tx.one(this.q.unassignRoles, { env, items }))?.removed as number) ?? 0;
  }

  async listRoleAssignments(env: string, f: { user: string | null; role: string | null; tenant: string | null; resource: string | null; instance: string | null }, page: Page) {
    return listOf<AssignmentRow>(await this.db.readRows(this.q.listRoleAssignments, { env, ...f, skip: page.skip, limit: page.perPage }));
  }

  async resolveTuples(tx: Tx, env: string, items: TupleKeys[]): Promise<TupleRefs[]> {
    return (await tx.rows(this.q.resolveTuples, { env, items })) as unknown as TupleRefs[];
  }

  /** Creates the instances a batch names but the graph lacks, then the tuples. */
  async createTuples(tx: Tx, env: string, all: (TupleKeys & { tenant: string })[], implicit: { resource: string; key: string; tenant: string }[], now: string): Promise<Written[]> {
    if (implicit.length) await tx.rows(this.q.createImplicitInstances, { env, items: implicit, now });
    const key = (x: TupleKeys) => JSON.stringify([x.subject_type, x.subject_key, x.relation, x.object_type, x.object_key]);
    return onceEach(all, key, async (items) => byIdx(await tx.rows(this.q.createTuples, { env, items, now }), items.length));
  }

  /** Removes those of a batch that exist, in one statement; answers how many. */
  async deleteTuples(tx: Tx, env: string, items: TupleKeys[]): Promise<number> {
    return ((await tx.one(this.q.deleteTuples, { env, items }))?.removed as number) ?? 0;
  }

  async listTuples(env: string, f: { subject_type: string | null; subject_key: string | null; relation: string | null; object_type: string | null; object_key: string | null; tenant: string | null }, page: Page) {
    return listOf<TupleRow>(await this.db.readRows(this.q.listTuples, { env, ...f, skip: page.skip, limit: page.perPage }));
  }
}

/**
 * Writes each distinct item once (a repeated item in one batch is not a second creation) and
 * answers per original item, in order; repeats answer `created: false`.
 */
async function onceEach<T>(items: T[], keyOf: (x: T) => string, write: (unique: T[]) => Promise<Written[]>): Promise<Written[]> {
  const firstAt = new Map<string, number>();
  const unique: T[] = [];
  const slot = items.map((x) => {
    const k = keyOf(x);
    if (!firstAt.has(k)) {
      firstAt.set(k, unique.length);
      unique.push(x);
      return { at: unique.length - 1, first: true };
    }
    return { at: firstAt.get(k)!, first: false };
  });
  const written = await write(unique);
  return slot.map(({ at, first }) => (first ? written[at] : { ...written[at], created: false }));
}

const concurrentChange = (i: number) =>
  new AppError(409, 'INVALID_STATE', `Item ${i}: a user, tenant or instance it names changed while this request ran; retry.`);

/** Rows of a batch statement by their `idx`; an item whose row is missing (its nodes changed meanwhile) throws. */
function byIdx(rows: Row[], n: number): Written[] {
  const out = new Array<Written | undefined>(n);
  for (const row of rows) out[row.idx as number] = row as unknown as Written;
  const missing = out.findIndex((w) => w === undefined);
  if (missing >= 0) throw concurrentChange(missing);
  return out as Written[];
}
