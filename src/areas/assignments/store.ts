import { Db, Tx } from '../../db/db';
import { Page } from '../../http/paging';
import { listOf } from '../provisioning/store';

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
    resolveAssignment: 'assignments/resolveAssignment',
    assignTenantRole: 'assignments/assignTenantRole',
    assignInstanceRole: 'assignments/assignInstanceRole',
    unassignTenantRole: 'assignments/unassignTenantRole',
    unassignInstanceRole: 'assignments/unassignInstanceRole',
    listRoleAssignments: 'assignments/listRoleAssignments',
    resolveTuple: 'assignments/resolveTuple',
    createTuple: 'assignments/createTuple',
    deleteTuple: 'assignments/deleteTuple',
    listTuples: 'assignments/listTuples',
  });

  constructor(private readonly db: Db) {}

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  async resolveAssignment(tx: Tx, env: string, a: Omit<AssignmentKeys, 'tenant'> & { tenant: string | null }): Promise<AssignmentRefs> {
    return (await tx.one(this.q.resolveAssignment, { env, ...a })) as unknown as AssignmentRefs;
  }

  async assign(tx: Tx, env: string, a: AssignmentKeys, now: string): Promise<Written> {
    const stmt = a.instance === null ? this.q.assignTenantRole : this.q.assignInstanceRole;
    return (await tx.one(stmt, { env, ...a, now })) as unknown as Written;
  }

  async unassign(tx: Tx, env: string, a: AssignmentKeys): Promise<boolean> {
    const stmt = a.instance === null ? this.q.unassignTenantRole : this.q.unassignInstanceRole;
    return ((await tx.one(stmt, { env, ...a }))?.removed as number) > 0;
  }

  async listRoleAssignments(env: string, f: { user: string | null; role: string | null; tenant: string | null; resource: string | null; instance: string | null }, page: Page) {
    return listOf<AssignmentRow>(await this.db.readRows(this.q.listRoleAssignments, { env, ...f, skip: page.skip, limit: page.perPage }));
  }

  async resolveTuple(tx: Tx, env: string, t: TupleKeys): Promise<TupleRefs> {
    return (await tx.one(this.q.resolveTuple, { env, ...t })) as unknown as TupleRefs;
  }

  async createTuple(tx: Tx, env: string, t: TupleKeys & { tenant: string; subject_id: string; object_id: string; now: string }): Promise<Written> {
    return (await tx.one(this.q.createTuple, { env, ...t })) as unknown as Written;
  }

  async deleteTuple(tx: Tx, env: string, t: TupleKeys): Promise<boolean> {
    return ((await tx.one(this.q.deleteTuple, { env, ...t }))?.removed as number) > 0;
  }

  async listTuples(env: string, f: { subject_type: string | null; subject_key: string | null; relation: string | null; object_type: string | null; object_key: string | null; tenant: string | null }, page: Page) {
    return listOf<TupleRow>(await this.db.readRows(this.q.listTuples, { env, ...f, skip: page.skip, limit: page.perPage }));
  }
}
