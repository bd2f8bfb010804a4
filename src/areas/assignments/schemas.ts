import { anyObject, arr, envelope, factKey, obj, PAGING_QUERY, PROJ_ENV_PARAMS, schemaKey, str } from '../../http/schema';

/** "<resource>:<instance key>", split at the first ':'. */
const instanceRef = () => str({ minLength: 3, maxLength: 400, pattern: '^[A-Za-z0-9_\\-]+:[^\\u0000-\\u001f\\u007f]+$' });
const MAX_BULK = 1000;

export const assignment = obj({ user: factKey(), role: schemaKey(), tenant: factKey(), resource_instance: instanceRef() }, ['user', 'role']);
export const assignmentBulk = arr(assignment, { maxItems: MAX_BULK });
// `detailed`, `include_total_count`: Permit's flags that permitio's getAssignedRoles always sends;
// accepted and ignored (records as they are, in the contract's envelope).
export const assignmentQuery = obj({
  ...PAGING_QUERY, user: str(), role: str(), tenant: str(), resource_instance: instanceRef(), detailed: { type: 'boolean' }, include_total_count: { type: 'boolean' },
});

export const tuple = obj({ subject: instanceRef(), relation: schemaKey(), object: instanceRef(), tenant: factKey() }, ['subject', 'relation', 'object']);
const tuples = arr(tuple, { maxItems: MAX_BULK });
/** A plain array, or Permit's `{operations: [...]}` / `{idents: [...]}`. */
export const tupleBulkCreate = { anyOf: [tuples, obj({ operations: tuples }, ['operations'])] };
export const tupleBulkDelete = { anyOf: [tuples, obj({ idents: tuples }, ['idents'])] };
export const tupleQuery = obj({ ...PAGING_QUERY, subject: instanceRef(), relation: str(), object: instanceRef(), tenant: str() });

export const params = PROJ_ENV_PARAMS;
export const record = anyObject();
export const list = envelope(record);
