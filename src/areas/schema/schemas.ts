import { anyObject, arr, envelope, factKey, freeObject, idOrKey, mapOf, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, SCOPED_FIELDS, schemaKey, str, timestamp } from '../../http/schema';

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

const when = nullable(timestamp());
const stamps = { ...SCOPED_FIELDS, created_at: when, updated_at: when };
const ruleView = obj({ role: str(), on_resource: str(), linked_by_relation: str() });

export const resourceRole = obj({
  id: str(), key: str(), name: str(), description: nullable(str()), permissions: arr(str()),
  granted_to: obj({ users_with_role: arr(ruleView) }), resource: str(), resource_id: nullable(str()), ...stamps,
}, ['id', 'key', 'name', 'permissions']);
export const derivation = obj({
  id: str(), role: str(), on_resource: str(), linked_by_relation: str(), resource: str(), resource_role: str(), ...SCOPED_FIELDS, created_at: when,
}, ['id', 'role', 'on_resource', 'linked_by_relation']);
export const role = obj({ id: str(), key: str(), name: str(), description: nullable(str()), permissions: arr(str()), ...stamps }, ['id', 'key', 'name', 'permissions']);
export const relation = obj({
  id: str(), key: str(), name: str(), description: nullable(str()), subject_resource: str(), subject_resource_id: nullable(str()),
  object_resource: str(), object_resource_id: nullable(str()), ...stamps,
}, ['id', 'key', 'name', 'subject_resource', 'object_resource']);
export const resource = obj({
  id: str(), key: str(), name: str(), description: nullable(str()),
  actions: mapOf(obj({ id: str(), key: str(), name: str(), description: nullable(str()) }, ['key', 'name'])),
  relations: mapOf(obj({ key: str(), name: str(), description: nullable(str()), resource: str(), resource_id: nullable(str()) }, ['key'])),
  roles: mapOf(resourceRole), ...stamps,
}, ['id', 'key', 'name', 'actions']);
export const instance = obj({
  id: str(), key: str(), resource: str(), resource_id: nullable(str()), tenant: str(), tenant_id: nullable(str()), attributes: freeObject(), ...stamps,
}, ['id', 'key', 'resource', 'tenant']);
export const resourceList = envelope(resource);
export const resourceRoleList = envelope(resourceRole);
export const roleList = envelope(role);
export const relationList = envelope(relation);
export const instanceList = envelope(instance);
export const actionList = envelope(obj({
  id: str(), key: str(), name: str(), description: nullable(str()), resource: str(), resource_id: str(), ...SCOPED_FIELDS,
}, ['key', 'name']));
