import {
  arr,
  arrayOrEnvelope,
  bool,
  either,
  factKey,
  freeObject,
  INCLUDE_TOTAL_COUNT,
  int,
  MAX_BULK_ITEMS,
  nullable,
  obj,
  PAGING_QUERY,
  PROJ_ENV_PARAMS,
  SCOPED_FIELDS,
  schemaKey,
  str,
  timestamp,
} from '../../http/schema';

/** "<resource>:<instance key>", split at the first ':'. */
const instanceRef = () => str({ minLength: 3, maxLength: 400, pattern: '^[A-Za-z0-9_\\-]+:[^\\u0000-\\u001f\\u007f]+$' });

/** `expires_at` (ISO 8601, in the future): the assignment grants nothing from that instant on. */
export const assignment = obj(
  { user: factKey(), role: schemaKey(), tenant: factKey(), resource_instance: instanceRef(), expires_at: str({ maxLength: 64 }) },
  ['user', 'role'],
);
export const assignmentBulk = arr(assignment, { maxItems: MAX_BULK_ITEMS });
/** `POST|DELETE users/{user_id}/roles` (Permit's users.assign_role / unassign_role): an assignment without `user`. */
export const userRoleParams = { ...PROJ_ENV_PARAMS, user_id: factKey() };
export const userRole = obj(
  { role: schemaKey(), tenant: factKey(), resource_instance: instanceRef(), expires_at: str({ maxLength: 64 }) },
  ['role'],
);
// Permit's filters (docs/behaviour.md section 14): `user`, `role`, `tenant` may repeat (any of them);
// `resource` (instances of that type), `resource_instance` ("type:key" or the instance's id);
// `include_total_count=true` answers the envelope; `detailed=true` answers Permit's
// RoleAssignmentDetailedRead, `detailed=false` the plain shape.
const keys = () => arr(str({ minLength: 1, maxLength: 256 }), { maxItems: 100 });
export const assignmentQuery = obj({
  ...PAGING_QUERY,
  user: keys(),
  role: keys(),
  tenant: keys(),
  resource: str({ minLength: 1, maxLength: 128 }),
  resource_instance: str({ minLength: 1, maxLength: 400 }),
  detailed: bool(),
  ...INCLUDE_TOTAL_COUNT,
});

/** The query of Permit's local PDP list (`GET /local/role_assignments`): one key each filter. */
export const localAssignmentQuery = obj({
  ...PAGING_QUERY,
  user: str({ minLength: 1, maxLength: 256 }),
  role: str({ minLength: 1, maxLength: 256 }),
  tenant: str({ minLength: 1, maxLength: 256 }),
  resource: str({ minLength: 1, maxLength: 128 }),
  resource_instance: str({ minLength: 1, maxLength: 400 }),
});
/** Permit's PDP RoleAssignment (its local cache's model). */
export const localAssignmentList = arr(
  obj({ user: str(), role: str(), tenant: str(), resource_instance: str() }, ['user', 'role', 'tenant']),
);

export const tuple = obj(
  { subject: instanceRef(), relation: schemaKey(), object: instanceRef(), tenant: factKey(), expires_at: str({ maxLength: 64 }) },
  ['subject', 'relation', 'object'],
);
const tuples = arr(tuple, { maxItems: MAX_BULK_ITEMS });
/** A plain array, or Permit's `{operations: [...]}` / `{idents: [...]}`. */
export const tupleBulkCreate = { anyOf: [tuples, obj({ operations: tuples }, ['operations'])] };
export const tupleBulkDelete = { anyOf: [tuples, obj({ idents: tuples }, ['idents'])] };
// Permit's filters: `subject_type` / `object_type` (every instance of that type); `detailed=true`
// answers Permit's RelationshipTupleDetailedRead.
export const tupleQuery = obj({
  ...PAGING_QUERY,
  subject: instanceRef(),
  relation: str(),
  object: instanceRef(),
  tenant: str(),
  subject_type: str({ minLength: 1, maxLength: 128 }),
  object_type: str({ minLength: 1, maxLength: 128 }),
  detailed: bool(),
});

export const params = PROJ_ENV_PARAMS;

/** Permit's RoleAssignmentRead, plus our `expires_at`. */
export const assignmentRead = obj(
  {
    id: str({ format: 'uuid' }),
    user: str(),
    role: str(),
    tenant: str(),
    resource_instance: str(),
    resource_instance_id: str({ format: 'uuid' }),
    user_id: str({ format: 'uuid' }),
    role_id: str({ format: 'uuid' }),
    tenant_id: str({ format: 'uuid' }),
    ...SCOPED_FIELDS,
    created_at: timestamp(),
    expires_at: nullable(timestamp()),
  },
  ['id', 'user', 'role', 'tenant', 'user_id', 'role_id', 'tenant_id', 'organization_id', 'project_id', 'environment_id', 'created_at'],
);
/** Permit's RoleAssignmentDetailedRead (`detailed=true`): the role, user, tenant and instance records, not only their keys. */
const uuid = () => str({ format: 'uuid' });
export const assignmentDetailed = obj(
  {
    id: uuid(),
    role: obj({ id: uuid(), key: str(), name: str(), permissions: arr(str()) }, ['id', 'key', 'name']),
    user: obj(
      { id: uuid(), key: str(), email: nullable(str()), first_name: nullable(str()), last_name: nullable(str()), attributes: freeObject() },
      ['id', 'key'],
    ),
    tenant: obj({ id: uuid(), key: str(), name: str(), attributes: freeObject() }, ['id', 'key', 'name']),
    resource_instance: obj({ id: uuid(), key: str(), resource: str(), attributes: freeObject() }, ['id', 'key', 'resource']),
    ...SCOPED_FIELDS,
    created_at: timestamp(),
    expires_at: nullable(timestamp()),
  },
  ['id', 'role', 'user', 'tenant', 'organization_id', 'project_id', 'environment_id', 'created_at'],
);
export const assignmentList = either(arrayOrEnvelope(assignmentRead), arrayOrEnvelope(assignmentDetailed));
export const assignmentsCreated = obj({ assignments_created: int() }, ['assignments_created']);
export const assignmentsRemoved = obj({ assignments_removed: int() }, ['assignments_removed']);
const TUPLE_REQUIRED = [
  'id',
  'subject',
  'relation',
  'object',
  'tenant',
  'subject_id',
  'relation_id',
  'object_id',
  'tenant_id',
  'organization_id',
  'project_id',
  'environment_id',
  'created_at',
  'updated_at',
] as const;
/** Permit's RelationshipTupleRead, plus our `expires_at`. */
export const tupleRead = obj(
  {
    id: str({ format: 'uuid' }),
    subject: str(),
    relation: str(),
    object: str(),
    tenant: str(),
    subject_id: str({ format: 'uuid' }),
    relation_id: str({ format: 'uuid' }),
    object_id: str({ format: 'uuid' }),
    tenant_id: str({ format: 'uuid' }),
    ...SCOPED_FIELDS,
    created_at: timestamp(),
    updated_at: timestamp(),
    expires_at: nullable(timestamp()),
  },
  [...TUPLE_REQUIRED],
);
/** Permit's ResourceInstanceBlockRead and StrippedRelationBlockRead, in RelationshipTupleDetailedRead. */
const instanceBlock = obj({ key: str(), tenant: str(), resource: str(), attributes: freeObject() }, ['key', 'tenant', 'resource']);
/** Permit's RelationshipTupleDetailedRead (`detailed=true`): RelationshipTupleRead with the subject, relation and object records. */
export const tupleDetailed = obj(
  {
    ...tupleRead.properties,
    subject_details: instanceBlock,
    relation_details: obj({ key: str(), name: str(), description: nullable(str()) }, ['key', 'name']),
    object_details: instanceBlock,
  },
  [...TUPLE_REQUIRED],
);
export const tupleList = either(arr(tupleRead), arr(tupleDetailed));
export const tuplesCreated = obj({ tuples_created: int() }, ['tuples_created']);
export const tuplesRemoved = obj({ tuples_removed: int() }, ['tuples_removed']);
