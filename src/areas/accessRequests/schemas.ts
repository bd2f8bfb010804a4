import { envelope, factKey, idOrKey, nullable, obj, PROJ_ENV_PARAMS, schemaKey, str, timestamp } from '../../http/schema';
import { accessDuration, cancelBody, filters, headers, listHeadersOf, reviewBody } from '../approvals/schemas';

/** Access requests (docs/behaviour.md section 11): the approvals' headers, filters and paging, other statuses. */
export const STATUSES = ['pending', 'approved', 'denied', 'canceled'] as const;
const text = str({ maxLength: 4096 });

export const params = { ...PROJ_ENV_PARAMS, elements_config_id: idOrKey() };
export const requestParams = { ...params, access_request_id: str({ minLength: 1, maxLength: 64 }) };
export { cancelBody, headers, reviewBody };

const requestFilters = { ...filters, status: str({ enum: STATUSES }) };
export const listQuery = obj(requestFilters);
export const listHeaders = listHeadersOf(requestFilters);

export const createBody = obj(
  {
    access_request_details: obj({ tenant: factKey(), resource: schemaKey(), resource_instance: factKey(), role: schemaKey() }, [
      'tenant',
      'role',
    ]),
    reason: text,
  },
  ['access_request_details', 'reason'],
);
/** The reviewer may grant another role than the one asked for. */
export const approveBody = obj({ reviewer_comment: nullable(text), role: schemaKey(), access_duration_seconds: accessDuration });

const requestFields = {
  id: str(),
  type: str({ enum: ['access_request'] }),
  requesting_user_id: str(),
  access_request_details: obj({ tenant: str(), resource: nullable(str()), resource_instance: nullable(str()), role: str() }, [
    'tenant',
    'resource',
    'resource_instance',
    'role',
  ]),
  reason: str(),
  org_id: str(),
  project_id: str(),
  env_id: str(),
  created_at: timestamp(),
  updated_at: timestamp(),
  status: str({ enum: STATUSES }),
  granted_role: nullable(str()),
  reviewer_user_id: nullable(str()),
  reviewed_at: nullable(timestamp()),
  reviewer_comment: nullable(str()),
  access_expires_at: nullable(timestamp()),
};
const itemFields = {
  ...requestFields,
  requesting_user_email: nullable(str()),
  requesting_user_first_name: nullable(str()),
  requesting_user_last_name: nullable(str()),
};
/** Every field is always answered (null when unset), so the generated client types need no `?`. */
const all = <T extends object>(fields: T) => Object.keys(fields) as (keyof T & string)[];
export const accessRequest = obj(requestFields, all(requestFields));
export const accessRequestItem = obj(itemFields, all(itemFields));
export const accessRequestList = envelope(accessRequestItem);
