import { envelope, factKey, idOrKey, int, MAX_PAGE, nullable, obj, PROJ_ENV_PARAMS, schemaKey, str, timestamp } from '../../http/schema';

const text = str({ maxLength: 4096 });
export const params = { ...PROJ_ENV_PARAMS, elements_config_id: idOrKey() };
export const approvalParams = { ...params, operation_approval_id: str({ minLength: 1, maxLength: 64 }) };

/** The session headers of every approval call: element_id names the config (checked by the session resolver). */
export const elementHeader = { element_id: str({ minLength: 1, maxLength: 256 }) };
export const headers = { type: 'object', properties: elementHeader, required: ['element_id'], additionalProperties: true };

export const createBody = obj(
  {
    access_request_details: obj({ tenant: factKey(), resource: schemaKey(), resource_instance: factKey() }, ['tenant', 'resource']),
    reason: text,
  },
  ['access_request_details', 'reason'],
);
export const reviewBody = obj({ reviewer_comment: nullable(text) });
/** How long an approved grant lasts: 1 minute to 365 days; absent, it lasts until revoked. */
export const accessDuration = int({ minimum: 60, maximum: 31_536_000 });
export const approveBody = obj({ reviewer_comment: nullable(text), access_duration_seconds: accessDuration });
export const cancelBody = obj({ reason: text });

/** List filters and paging: headers (seed 4.2), or query parameters of the same names. No defaults here: paging() applies them. */
export const filters = {
  status: str({ enum: ['pending', 'approved', 'deny', 'cancel'] }),
  resource: schemaKey(),
  resource_instance: factKey(),
  page: int({ minimum: 1, maximum: MAX_PAGE }),
  per_page: int({ minimum: 1 }),
};
export const listQuery = obj(filters);
/** The list's headers: `element_id` and the filters (other headers pass). */
export const listHeadersOf = (f: Record<string, unknown>) => ({
  type: 'object',
  properties: { ...elementHeader, ...f },
  required: ['element_id'],
  additionalProperties: true,
});
export const listHeaders = listHeadersOf(filters);

export const approval = obj({
  id: str(),
  type: str({ enum: ['operation_approval'] }),
  requesting_user_id: str(),
  access_request_details: obj({ tenant: str(), resource: str(), resource_instance: str() }),
  reason: str(),
  org_id: str(),
  project_id: str(),
  env_id: str(),
  created_at: timestamp(),
  updated_at: timestamp(),
  status: nullable(str({ enum: ['approved', 'deny', 'cancel'] })),
  reviewer_user_id: nullable(str()),
  reviewed_at: nullable(timestamp()),
  reviewer_comment: nullable(str()),
  access_expires_at: nullable(timestamp()),
});
export const approvalItem = obj({
  ...(approval.properties as Record<string, Record<string, unknown>>),
  requesting_user_email: nullable(str()),
  requesting_user_first_name: nullable(str()),
  requesting_user_last_name: nullable(str()),
  resource_key: str(),
  resource_instance_key: str(),
});
export const approvalList = envelope(approvalItem);
