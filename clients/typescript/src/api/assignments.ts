import type { PageParams } from '../http.js';
import type {
  RelationshipTuple,
  RelationshipTupleCreate,
  RelationshipTupleDelete,
  RoleAssignment,
  RoleAssignmentCreate,
  RoleAssignmentRemove,
} from '../types.js';
import { FactsPart } from './base.js';

export interface RoleAssignmentListParams extends PageParams {
  /** Several: any of them. */
  user?: string | string[];
  role?: string | string[];
  tenant?: string | string[];
  /** Assignments on instances of this resource type. */
  resource?: string;
  /** `"<resource>:<key>"`, or the instance's id */
  resource_instance?: string;
}

/** Role assignments: `/v2/facts/{project}/{env}/role_assignments`. */
export class RoleAssignmentsApi extends FactsPart {
  /** A tenant role (no `resource_instance`), or a role on one instance. */
  async assign(assignment: RoleAssignmentCreate): Promise<RoleAssignment> {
    return this.http.request('POST', await this.at('/role_assignments'), { body: assignment });
  }
  async unassign(assignment: RoleAssignmentRemove): Promise<void> {
    return this.http.request('DELETE', await this.at('/role_assignments'), { body: assignment });
  }
  /** A plain array, as Permit answers (docs/behaviour.md section 14). */
  async list(params: RoleAssignmentListParams = {}): Promise<RoleAssignment[]> {
    return this.http.request('GET', await this.at('/role_assignments'), { query: { ...params } });
  }
  /** One transaction, all or nothing; existing assignments are left as they are. */
  async bulkAssign(assignments: RoleAssignmentCreate[]): Promise<{ assignments_created: number }> {
    return this.http.request('POST', await this.at('/role_assignments/bulk'), { body: assignments });
  }
  /** Removes those that exist. */
  async bulkUnassign(assignments: RoleAssignmentRemove[]): Promise<{ assignments_removed: number }> {
    return this.http.request('DELETE', await this.at('/role_assignments/bulk'), { body: assignments });
  }
}

export interface TupleListParams extends PageParams {
  subject?: string;
  relation?: string;
  object?: string;
  tenant?: string;
  /** Tuples whose subject / object is an instance of this type. */
  subject_type?: string;
  object_type?: string;
}

/** Relationship tuples: `/v2/facts/{project}/{env}/relationship_tuples`. */
export class RelationshipTuplesApi extends FactsPart {
  /** With a `tenant`, missing subject/object instances are created in it. */
  async create(tuple: RelationshipTupleCreate): Promise<RelationshipTuple> {
    return this.http.request('POST', await this.at('/relationship_tuples'), { body: tuple });
  }
  async delete(tuple: RelationshipTupleDelete): Promise<void> {
    return this.http.request('DELETE', await this.at('/relationship_tuples'), { body: tuple });
  }
  /** A plain array, as Permit answers. */
  async list(params: TupleListParams = {}): Promise<RelationshipTuple[]> {
    return this.http.request('GET', await this.at('/relationship_tuples'), { query: { ...params } });
  }
  /** One transaction, all or nothing. */
  async bulkCreate(tuples: RelationshipTupleCreate[]): Promise<{ tuples_created: number }> {
    return this.http.request('POST', await this.at('/relationship_tuples/bulk'), { body: { operations: tuples } });
  }
  async bulkDelete(tuples: RelationshipTupleDelete[]): Promise<{ tuples_removed: number }> {
    return this.http.request('DELETE', await this.at('/relationship_tuples/bulk'), { body: { idents: tuples } });
  }
  /** Permit's name for {@link bulkCreate}. */
  bulkRelationshipTuples(tuples: RelationshipTupleCreate[]): Promise<{ tuples_created: number }> {
    return this.bulkCreate(tuples);
  }
  /** Permit's name for {@link bulkDelete}. */
  bulkUnRelationshipTuples(tuples: RelationshipTupleDelete[]): Promise<{ tuples_removed: number }> {
    return this.bulkDelete(tuples);
  }
}
