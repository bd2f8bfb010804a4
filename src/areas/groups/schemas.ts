import {
  anyObject,
  arr,
  envelope,
  factKey,
  idOrKey,
  nullable,
  obj,
  PAGING_QUERY,
  PROJ_ENV_PARAMS,
  schemaKey,
  str,
  timestamp,
} from '../../http/schema';

const name = str({ minLength: 1, maxLength: 256 });
const description = str({ maxLength: 4096 });

export const groupCreate = obj(
  {
    group_instance_key: factKey(),
    group_resource_type_key: nullable(schemaKey()),
    group_tenant: idOrKey(),
    name: nullable(name),
    description: nullable(description),
    attributes: anyObject(),
  },
  ['group_instance_key', 'group_tenant'],
);
export const groupUpdate = obj({ name: nullable(name), description: nullable(description), attributes: anyObject() });

export const group = obj(
  {
    id: str(),
    group_instance_key: str(),
    group_resource_type_key: str(),
    group_tenant: str(),
    name: nullable(str()),
    description: nullable(str()),
    attributes: anyObject(),
    assigned_roles: arr(str()),
    users: arr(str()),
    organization_id: str(),
    project_id: str(),
    environment_id: str(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  ['id', 'group_instance_key', 'group_tenant', 'assigned_roles', 'users'],
);

/** Seed 2.5: a role on one resource instance, in the group's tenant. */
export const groupRole = obj(
  { resource: schemaKey(), resource_instance: factKey(), role: schemaKey(), tenant: idOrKey(), expires_at: str({ maxLength: 64 }) },
  ['resource', 'resource_instance', 'role', 'tenant'],
);
export const groupRoleItem = obj({ resource: str(), resource_instance: str(), role: str(), tenant: str() });

/** Seed 2.6. On removal the tenant is optional (checked when sent). */
/** `expires_at` (ISO 8601, in the future): the membership grants nothing from that instant on. */
export const membership = obj({ tenant: idOrKey(), expires_at: str({ maxLength: 64 }) }, ['tenant']);
export const membershipRemoval = obj({ tenant: idOrKey() });

/** Seed 2.7. */
export const groupAssignment = obj({ group_instance_key: idOrKey() }, ['group_instance_key']);

export const groupInstance = obj({ resource: schemaKey(), resource_instance: factKey(), tenant: idOrKey() }, [
  'resource',
  'resource_instance',
  'tenant',
]);

export const memberUser = obj({
  id: str(),
  key: str(),
  email: nullable(str()),
  first_name: nullable(str()),
  last_name: nullable(str()),
  attributes: anyObject(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export const attachedInstance = obj({
  id: str(),
  key: str(),
  resource: str(),
  tenant: str(),
  attributes: anyObject(),
  attached_at: timestamp(),
});

export const params = PROJ_ENV_PARAMS;
export const groupParams = { ...PROJ_ENV_PARAMS, group_key: idOrKey() };
export const groupUserParams = { ...groupParams, user_id: idOrKey() };
export const listQuery = obj({ ...PAGING_QUERY, tenant: str(), resource: str(), search: str() });
export const pagingQuery = obj(PAGING_QUERY);
export const groupList = envelope(group);
export const userList = envelope(memberUser);
export const roleList = envelope(groupRoleItem);
export const instanceList = envelope(attachedInstance);
