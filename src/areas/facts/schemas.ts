import {
  anyObject,
  arr,
  envelope,
  factKey,
  idOrKey,
  MAX_BULK_ITEMS,
  nullable,
  obj,
  PAGING_QUERY,
  PROJ_ENV_PARAMS,
  str,
  timestamp,
} from '../../http/schema';
import { assignment } from '../assignments/schemas';

const name = str({ minLength: 1, maxLength: 256 });
const description = str({ maxLength: 4096 });
const email = str({ maxLength: 320 });
const personName = str({ maxLength: 256 });
const scoped = { organization_id: str(), project_id: str(), environment_id: str(), created_at: timestamp(), updated_at: timestamp() };

export const tenantCreate = obj({ key: factKey(), name, description, attributes: anyObject() }, ['key', 'name']);
export const tenantUpdate = obj({ name, description: nullable(description), attributes: anyObject() });
export const tenant = obj(
  { id: str(), key: str(), name: str(), description: nullable(str()), attributes: anyObject(), ...scoped, last_action_at: timestamp() },
  ['id', 'key', 'name', 'last_action_at'],
);

const userFields = {
  email: nullable(email),
  first_name: nullable(personName),
  last_name: nullable(personName),
  attributes: anyObject(),
};
export const userCreate = obj({ key: factKey(), ...userFields }, ['key']);
export const userUpdate = obj(userFields);
/** Sync body: a user create whose key is optional (Permit's SDK sends it; it must match the path). */
export const userSync = obj({
  key: factKey(),
  ...userFields,
  // Permit's UserRoleCreate: written with the user, in the same transaction.
  role_assignments: arr(
    obj(
      {
        role: assignment.properties.role,
        tenant: assignment.properties.tenant,
        resource_instance: assignment.properties.resource_instance,
      },
      ['role', 'tenant'],
    ),
    { maxItems: MAX_BULK_ITEMS },
  ),
});
export const userBulk = obj({ operations: arr(userCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']);
export const userBulkAnswer = obj({ users_created: { type: 'integer' } });
const idents = arr(idOrKey(), { minItems: 1, maxItems: MAX_BULK_ITEMS });
export const bulkUserReplace = obj({ operations: arr(userCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']);
export const bulkDelete = obj({ idents }, ['idents']);
export const bulkTenantCreate = obj({ operations: arr(tenantCreate, { minItems: 1, maxItems: MAX_BULK_ITEMS }) }, ['operations']);
const count = { type: 'integer' };
export const bulkUsersAnswer = obj({ users_created: count, users_replaced: count, users_deleted: count });
export const bulkTenantsAnswer = obj({ tenants_created: count, tenants_deleted: count });
export const user = obj(
  {
    id: str(),
    key: str(),
    ...userFields,
    roles: arr(obj({ role: str(), tenant: str() })),
    /** Permit's UserInTenant items. */
    associated_tenants: arr(
      obj({ tenant: str(), roles: arr(str()), status: str({ enum: ['active', 'pending'] }) }, ['tenant', 'roles', 'status']),
    ),
    ...scoped,
  },
  ['id', 'key'],
);

export const params = PROJ_ENV_PARAMS;
export const tenantParams = { ...PROJ_ENV_PARAMS, tenant_id: idOrKey() };
export const userParams = { ...PROJ_ENV_PARAMS, user_id: idOrKey() };
/** PUT users/{user_id} may create the user with that key: the key's rules apply to it. */
export const userSyncParams = { ...PROJ_ENV_PARAMS, user_id: factKey() };
export const tenantUserParams = { ...tenantParams, user_id: idOrKey() };
export const listQuery = obj({ ...PAGING_QUERY, search: str() });
/** Permit's filters: `search`, `role` (users holding that tenant role); ours: `tenant`. */
export const userListQuery = obj({ ...PAGING_QUERY, search: str(), tenant: str(), role: str({ minLength: 1, maxLength: 128 }) });
export const tenantUserListQuery = obj({ ...PAGING_QUERY, search: str(), role: str({ minLength: 1, maxLength: 128 }) });
export const pagingQuery = obj(PAGING_QUERY);
/** Permit answers tenants as a plain array; users and a tenant's users as `PaginatedResultUserRead` (docs/behaviour.md section 14). */
export const tenantList = arr(tenant);
export const userList = envelope(user);
