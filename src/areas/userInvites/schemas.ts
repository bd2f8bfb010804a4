import {
  anyObject,
  envelope,
  factKey,
  idOrKey,
  nullable,
  obj,
  PAGING_QUERY,
  PROJ_ENV_PARAMS,
  SCOPED_FIELDS,
  str,
  timestamp,
} from '../../http/schema';

const email = str({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' });
const name = nullable(str({ maxLength: 256 }));
const id = str({ minLength: 1, maxLength: 256 });

export const params = PROJ_ENV_PARAMS;
export const inviteParams = { ...PROJ_ENV_PARAMS, user_invite_id: idOrKey() };
export const pagingQuery = obj(PAGING_QUERY);
/**
 * Permit's ElementsUserInviteCreate (`resource_instance_id` may be left out for a tenant role). Its
 * `status` is taken and not followed: an invite starts pending, and only its redemption approves it.
 */
export const inviteCreate = obj(
  {
    status: str({ enum: ['pending', 'approved'] }),
    key: factKey(),
    email,
    first_name: name,
    last_name: name,
    role_id: id,
    tenant_id: id,
    resource_instance_id: nullable(id),
  },
  ['key', 'email', 'role_id', 'tenant_id'],
);
/** Permit's ElementsUserInviteApprove. */
export const inviteApprove = obj({ email, key: factKey(), attributes: anyObject() }, ['email', 'key']);
/** Permit's ElementsUserInviteRead. */
export const invite = obj(
  {
    id: str(),
    ...SCOPED_FIELDS,
    created_at: timestamp(),
    updated_at: timestamp(),
    key: str(),
    status: str({ enum: ['pending', 'approved'] }),
    email: str(),
    first_name: nullable(str()),
    last_name: nullable(str()),
    role_id: str(),
    tenant_id: str(),
    resource_instance_id: nullable(str()),
  },
  ['id', 'organization_id', 'project_id', 'environment_id', 'created_at', 'updated_at', 'status', 'email', 'role_id', 'tenant_id'],
);
export const inviteList = envelope(invite);
