import {
  arr,
  arrayOrEnvelope,
  bool,
  factKey,
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
// `include_total_count=true` answers the envelope; `detailed=true` (RoleAssignmentDetailedRead) is
// refused with 422, `detailed=false` is the plain shape.
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

export const tuple = obj(
  { subject: instanceRef(), relation: schemaKey(), object: instanceRef(), tenant: factKey(), expires_at: str({ maxLength: 64 }) },
  ['subject', 'relation', 'object'],
);
const tuples = arr(tuple, { maxItems: MAX_BULK_ITEMS });
/** A plain array, or Permit's `{operations: [...]}` / `{idents: [...]}`. */
export const tupleBulkCreate = { anyOf: [tuples, obj({ operations: tuples }, ['operations'])] };
export const tupleBulkDelete = { anyOf: [tuples, obj({ idents: tuples }, ['idents'])] };
// Permit's filters: `subject_type` / `object_type` (every instance of that type); `detailed=true`
// (RelationshipTupleDetailedRead) is refused with 422.
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
export const assignmentList = arrayOrEnvelope(assignmentRead);
export const assignmentsCreated = obj({ assignments_created: int() }, ['assignments_created']);
export const assignmentsRemoved = obj({ assignments_removed: int() }, ['assignments_removed']);
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
  [
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
  ],
);
export const tupleList = arr(tupleRead);
export const tuplesCreated = obj({ tuples_created: int() }, ['tuples_created']);
export const tuplesRemoved = obj({ tuples_removed: int() }, ['tuples_removed']);
