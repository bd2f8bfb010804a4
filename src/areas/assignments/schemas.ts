import { arr, envelope, factKey, int, MAX_BULK_ITEMS, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, SCOPED_FIELDS, schemaKey, str, timestamp } from '../../http/schema';

/** "<resource>:<instance key>", split at the first ':'. */
const instanceRef = () => str({ minLength: 3, maxLength: 400, pattern: '^[A-Za-z0-9_\\-]+:[^\\u0000-\\u001f\\u007f]+$' });

/** `expires_at` (ISO 8601, in the future): the assignment grants nothing from that instant on. */
export const assignment = obj({ user: factKey(), role: schemaKey(), tenant: factKey(), resource_instance: instanceRef(), expires_at: str({ maxLength: 64 }) }, ['user', 'role']);
export const assignmentBulk = arr(assignment, { maxItems: MAX_BULK_ITEMS });
/** `POST|DELETE users/{user_id}/roles` (Permit's users.assign_role / unassign_role): an assignment without `user`. */
export const userRoleParams = { ...PROJ_ENV_PARAMS, user_id: factKey() };
export const userRole = obj({ role: schemaKey(), tenant: factKey(), resource_instance: instanceRef(), expires_at: str({ maxLength: 64 }) }, ['role']);
// `detailed`, `include_total_count`: Permit's flags that permitio's getAssignedRoles always sends;
// accepted and ignored (records as they are, in the contract's envelope).
export const assignmentQuery = obj({
  ...PAGING_QUERY, user: str(), role: str(), tenant: str(), resource_instance: instanceRef(), detailed: { type: 'boolean' }, include_total_count: { type: 'boolean' },
});

export const tuple = obj({ subject: instanceRef(), relation: schemaKey(), object: instanceRef(), tenant: factKey(), expires_at: str({ maxLength: 64 }) }, ['subject', 'relation', 'object']);
const tuples = arr(tuple, { maxItems: MAX_BULK_ITEMS });
/** A plain array, or Permit's `{operations: [...]}` / `{idents: [...]}`. */
export const tupleBulkCreate = { anyOf: [tuples, obj({ operations: tuples }, ['operations'])] };
export const tupleBulkDelete = { anyOf: [tuples, obj({ idents: tuples }, ['idents'])] };
export const tupleQuery = obj({ ...PAGING_QUERY, subject: instanceRef(), relation: str(), object: instanceRef(), tenant: str() });

export const params = PROJ_ENV_PARAMS;

export const assignmentRead = obj({
  id: str(), user: str(), role: str(), tenant: str(), resource_instance: str(), ...SCOPED_FIELDS, created_at: nullable(timestamp()),
  expires_at: nullable(timestamp()),
}, ['id', 'user', 'role', 'tenant']);
export const assignmentList = envelope(assignmentRead);
export const assignmentsCreated = obj({ assignments_created: int() }, ['assignments_created']);
export const assignmentsRemoved = obj({ assignments_removed: int() }, ['assignments_removed']);
export const tupleRead = obj({
  id: str(), subject: str(), relation: str(), object: str(), tenant: nullable(str()), ...SCOPED_FIELDS, created_at: nullable(timestamp()),
  expires_at: nullable(timestamp()),
}, ['id', 'subject', 'relation', 'object']);
export const tupleList = envelope(tupleRead);
export const tuplesCreated = obj({ tuples_created: int() }, ['tuples_created']);
export const tuplesRemoved = obj({ tuples_removed: int() }, ['tuples_removed']);
