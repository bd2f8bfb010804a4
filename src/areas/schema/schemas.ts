import { anyObject, arr, envelope, factKey, idOrKey, mapOf, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, schemaKey, str } from '../../http/schema';

const name = str({ minLength: 1, maxLength: 256 });
const description = str({ maxLength: 4096 });

const action = obj({ name, description: nullable(description) });
const actions = mapOf(action, schemaKey());
const rule = obj({ role: schemaKey(), on_resource: schemaKey(), linked_by_relation: schemaKey() }, ['role', 'on_resource', 'linked_by_relation']);
const grantedTo = obj({ users_with_role: arr(rule, { maxItems: 1000 }) });
const permissions = arr(schemaKey(), { maxItems: 1000 });
const roleBlock = obj({ name, description: nullable(description), permissions, granted_to: grantedTo });
const relationsMap = mapOf(schemaKey(), schemaKey());

export const resourceCreate = obj({
  key: schemaKey(), name, description: nullable(description), actions, roles: mapOf(roleBlock, schemaKey()), relations: relationsMap,
}, ['key', 'name', 'actions']);
export const resourceUpdate = obj({ name, description: nullable(description), actions, roles: mapOf(roleBlock, schemaKey()), relations: relationsMap });
export const resourceReplace = obj({ name, description: nullable(description), actions, roles: mapOf(roleBlock, schemaKey()), relations: relationsMap }, ['name', 'actions']);

export const resourceRoleCreate = obj({ key: schemaKey(), name, description: nullable(description), permissions, granted_to: grantedTo }, ['key', 'name']);
export const resourceRoleUpdate = roleBlock;
export const implicitGrant = rule;

const tenantPermission = str({ pattern: '^[A-Za-z0-9_\\-]+:[A-Za-z0-9_\\-]+$', maxLength: 257 });
export const roleCreate = obj({ key: schemaKey(), name, description: nullable(description), permissions: arr(tenantPermission, { maxItems: 1000 }) }, ['key', 'name']);
export const roleUpdate = obj({ name, description: nullable(description), permissions: arr(tenantPermission, { maxItems: 1000 }) });

export const relationCreate = obj({ key: schemaKey(), name, description: nullable(description), subject_resource: schemaKey() }, ['key', 'name', 'subject_resource']);
export const relationUpdate = obj({ name, description: nullable(description) });

export const instanceCreate = obj({ key: factKey(), tenant: factKey(), resource: schemaKey(), attributes: anyObject() }, ['key', 'tenant', 'resource']);
export const instanceUpdate = obj({ attributes: anyObject() });

export const params = PROJ_ENV_PARAMS;
export const resourceParams = { ...PROJ_ENV_PARAMS, resource: idOrKey() };
export const resourceRoleParams = { ...resourceParams, role: idOrKey() };
export const relationParams = { ...resourceParams, relation: idOrKey() };
export const roleParams = { ...PROJ_ENV_PARAMS, role: idOrKey() };
export const instanceParams = { ...PROJ_ENV_PARAMS, instance_id: str({ minLength: 1, maxLength: 400 }) };
export const listQuery = obj({ ...PAGING_QUERY, search: str() });
export const pagingQuery = obj(PAGING_QUERY);
export const instanceListQuery = obj({ ...PAGING_QUERY, search: str(), tenant: str(), resource: str() });

const record = anyObject();
export const resource = record;
export const resourceRole = record;
export const derivation = record;
export const role = record;
export const relation = record;
export const instance = record;
export const list = envelope(record);
