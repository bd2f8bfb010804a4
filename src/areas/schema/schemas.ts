import {
  anyObject,
  arr,
  arrayOrEnvelope,
  bool,
  envelope,
  INCLUDE_TOTAL_COUNT,
  factKey,
  freeObject,
  idOrKey,
  mapOf,
  nullable,
  obj,
  PAGING_QUERY,
  PROJ_ENV_PARAMS,
  SCOPED_FIELDS,
  schemaKey,
  str,
  timestamp,
} from '../../http/schema';

const name = str({ minLength: 1, maxLength: 256 });
const description = str({ maxLength: 4096 });

const action = obj({ name, description: nullable(description) });
const actions = mapOf(action, schemaKey());
export const when = obj({ no_direct_roles_on_object: bool() });
const rule = obj({ role: schemaKey(), on_resource: schemaKey(), linked_by_relation: schemaKey(), when }, [
  'role',
  'on_resource',
  'linked_by_relation',
]);
const grantedTo = obj({ users_with_role: arr(rule, { maxItems: 1000 }), when });
const permissions = arr(schemaKey(), { maxItems: 1000 });
/** Role hierarchy: the keys of the roles (of the same kind) this role extends. */
const roleExtends = arr(schemaKey(), { maxItems: 100 });
const roleBlock = obj({ name, description: nullable(description), permissions, granted_to: grantedTo, extends: roleExtends });
const relationsMap = mapOf(schemaKey(), schemaKey());

const attributes = anyObject();
export const resourceCreate = obj(
  {
    key: schemaKey(),
    name,
    description: nullable(description),
    actions,
    roles: mapOf(roleBlock, schemaKey()),
    relations: relationsMap,
    attributes,
  },
  ['key', 'name', 'actions'],
);
export const resourceUpdate = obj({
  name,
  description: nullable(description),
  actions,
  roles: mapOf(roleBlock, schemaKey()),
  relations: relationsMap,
  attributes,
});
export const resourceReplace = obj(
  { name, description: nullable(description), actions, roles: mapOf(roleBlock, schemaKey()), relations: relationsMap, attributes },
  ['name', 'actions'],
);

export const resourceRoleCreate = obj(
  { key: schemaKey(), name, description: nullable(description), permissions, granted_to: grantedTo, extends: roleExtends },
  ['key', 'name'],
);
export const resourceRoleUpdate = roleBlock;
export const implicitGrant = rule;

const tenantPermission = str({ pattern: '^[A-Za-z0-9_\\-]+:[A-Za-z0-9_\\-]+$', maxLength: 257 });
export const roleCreate = obj(
  {
    key: schemaKey(),
    name,
    description: nullable(description),
    permissions: arr(tenantPermission, { maxItems: 1000 }),
    extends: roleExtends,
  },
  ['key', 'name'],
);
export const roleUpdate = obj({
  name,
  description: nullable(description),
  permissions: arr(tenantPermission, { maxItems: 1000 }),
  extends: roleExtends,
});
export const rolePermissionsChange = obj({ permissions: arr(tenantPermission, { minItems: 1, maxItems: 1000 }) }, ['permissions']);
export const resourceRolePermissionsChange = obj(
  { permissions: arr(str({ minLength: 1, maxLength: 257 }), { minItems: 1, maxItems: 1000 }) },
  ['permissions'],
);
export const actionCreate = obj({ key: schemaKey(), name, description: nullable(description), attributes }, ['key', 'name']);
export const actionUpdate = obj({ name, description: nullable(description), attributes });

export const relationCreate = obj({ key: schemaKey(), name, description: nullable(description), subject_resource: schemaKey() }, [
  'key',
  'name',
  'subject_resource',
]);
export const relationUpdate = obj({ name, description: nullable(description) });

export const instanceCreate = obj({ key: factKey(), tenant: factKey(), resource: schemaKey(), attributes: anyObject() }, [
  'key',
  'tenant',
  'resource',
]);
export const instanceUpdate = obj({ attributes: anyObject() });

export const params = PROJ_ENV_PARAMS;
export const resourceParams = { ...PROJ_ENV_PARAMS, resource: idOrKey() };
/** PUT resources/{resource} may create the resource with that key: the key's rules apply to it. */
export const resourceReplaceParams = { ...PROJ_ENV_PARAMS, resource: schemaKey() };
export const resourceRoleParams = { ...resourceParams, role: idOrKey() };
export const relationParams = { ...resourceParams, relation: idOrKey() };
export const roleParams = { ...PROJ_ENV_PARAMS, role: idOrKey() };
export const roleParentParams = { ...roleParams, parent: idOrKey() };
export const resourceRoleParentParams = { ...resourceRoleParams, parent: idOrKey() };
export const actionParams = { ...resourceParams, action: idOrKey() };
export const instanceParams = { ...PROJ_ENV_PARAMS, instance_id: str({ minLength: 1, maxLength: 400 }) };
export const listQuery = obj({ ...PAGING_QUERY, search: str() });
/** Permit's `include_built_in`: we define no built-in resources, so either value lists the same ones. */
export const resourceListQuery = obj({ ...PAGING_QUERY, search: str(), include_built_in: bool(), ...INCLUDE_TOTAL_COUNT });
export const roleListQuery = obj({ ...PAGING_QUERY, search: str(), ...INCLUDE_TOTAL_COUNT });
export const pagingQuery = obj(PAGING_QUERY);
/** `detailed=true`: Permit's ResourceInstanceDetailedRead (the instance with `relationships`, the tuples naming it). */
export const instanceListQuery = obj({ ...PAGING_QUERY, search: str(), tenant: str(), resource: str(), detailed: bool() });

const stamp = nullable(timestamp());
const stamps = { ...SCOPED_FIELDS, created_at: stamp, updated_at: stamp };
/** Permit's DerivedRoleRuleRead. */
const ruleIds = { role_id: str({ format: 'uuid' }), resource_id: str({ format: 'uuid' }), relation_id: str({ format: 'uuid' }) };
const ruleView = obj({ ...ruleIds, role: str(), on_resource: str(), linked_by_relation: str(), when }, [
  'role_id',
  'resource_id',
  'relation_id',
  'role',
  'on_resource',
  'linked_by_relation',
]);

export const resourceRole = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    permissions: arr(str()),
    granted_to: obj({ id: str({ format: 'uuid' }), users_with_role: arr(ruleView), when }, ['id']),
    extends: arr(str()),
    resource: str(),
    resource_id: nullable(str()),
    ...stamps,
  },
  ['id', 'key', 'name', 'permissions'],
);
export const derivation = obj(
  {
    id: str(),
    ...ruleIds,
    role: str(),
    on_resource: str(),
    linked_by_relation: str(),
    resource: str(),
    resource_role: str(),
    when,
    ...SCOPED_FIELDS,
    created_at: stamp,
  },
  ['id', 'role_id', 'resource_id', 'relation_id', 'role', 'on_resource', 'linked_by_relation'],
);
export const role = obj(
  { id: str(), key: str(), name: str(), description: nullable(str()), permissions: arr(str()), extends: arr(str()), ...stamps },
  ['id', 'key', 'name', 'permissions'],
);
export const relation = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    subject_resource: str(),
    subject_resource_id: nullable(str()),
    object_resource: str(),
    object_resource_id: nullable(str()),
    ...stamps,
  },
  ['id', 'key', 'name', 'subject_resource', 'object_resource'],
);
export const resource = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    actions: mapOf(obj({ id: str(), key: str(), name: str(), description: nullable(str()) }, ['key', 'name'])),
    relations: mapOf(
      obj({ key: str(), name: str(), description: nullable(str()), resource: str(), resource_id: nullable(str()) }, ['key']),
    ),
    roles: mapOf(resourceRole),
    attributes: freeObject(),
    ...stamps,
  },
  ['id', 'key', 'name', 'actions'],
);
export const instance = obj(
  {
    id: str(),
    key: str(),
    resource: str(),
    resource_id: nullable(str()),
    tenant: str(),
    tenant_id: nullable(str()),
    attributes: freeObject(),
    ...stamps,
  },
  ['id', 'key', 'resource', 'tenant'],
);
/** Lists (docs/behaviour.md section 14): plain arrays as Permit answers, the envelope on `include_total_count=true` where Permit takes it. */
export const resourceList = arrayOrEnvelope(resource);
/** Ancestors / descendants of a role (Permit answers plain arrays there). */
export const roleArray = arr(role);
export const resourceRoleArray = arr(resourceRole);
export const resourceRoleList = arr(resourceRole);
export const roleList = arrayOrEnvelope(role);
/** Permit answers a resource's relations as `PaginatedResultRelationRead`. */
export const relationList = envelope(relation);
/** A listed instance: with `detailed=true`, Permit's ResourceInstanceDetailedRead (`relationships`: the tuples naming it). */
export const instanceListed = obj(
  {
    ...instance.properties,
    relationships: arr(obj({ subject: str(), relation: str(), object: str() }, ['subject', 'relation', 'object'])),
  },
  ['id', 'key', 'resource', 'tenant'],
);
export const instanceList = arr(instanceListed);
export const actionView = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    attributes: freeObject(),
    permission_name: str(),
    resource: str(),
    resource_id: str(),
    ...stamps,
  },
  ['key', 'name'],
);
export const actionList = arr(actionView);

// Action groups (Permit's ResourceActionGroupCreate / Update / Read; docs/behaviour.md section 23).
const groupActions = arr(schemaKey(), { maxItems: 1000 });
export const actionGroupCreate = obj({ key: schemaKey(), name, description: nullable(description), attributes, actions: groupActions }, [
  'key',
  'name',
]);
export const actionGroupUpdate = obj({ name, description: nullable(description), attributes, actions: groupActions });
export const actionGroupParams = { ...resourceParams, group: idOrKey() };
export const actionGroupView = obj(
  {
    key: str(),
    name: str(),
    description: nullable(str()),
    attributes: freeObject(),
    actions: arr(str()),
    id: str(),
    resource_id: str(),
    ...stamps,
  },
  ['key', 'name', 'actions', 'id', 'resource_id', 'organization_id', 'project_id', 'environment_id', 'created_at', 'updated_at'],
);
export const actionGroupList = arr(actionGroupView);
