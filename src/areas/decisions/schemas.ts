import { anyObject, arr, bool, factKey, freeObject, int, mapOf, nullable, obj, PROJ_ENV_PARAMS, str } from '../../http/schema';

export const userRef = {
  oneOf: [
    factKey(),
    // Permit's SDK sends the whole user object: its `key`, and `attributes` that overlay the stored ones.
    { type: 'object', properties: { key: factKey(), attributes: nullable(anyObject()) }, required: ['key'], additionalProperties: true },
  ],
};
/**
 * Decision requests take what Permit's PDP takes (docs/behaviour.md section 14): a resource named by `id`
 * as well as by `key` (Permit's SDKs send either), and fields we do not know are ignored, not
 * refused (the SDKs add their own, e.g. `context` and `sdk`, and newer ones may add more).
 */
const PDP_LENIENT = { additionalProperties: true };
export const resourceRef = {
  type: 'object',
  properties: {
    type: str({ minLength: 1, maxLength: 128 }),
    key: { type: ['string', 'null'], maxLength: 256 },
    id: { type: ['string', 'null'], maxLength: 256 },
    tenant: { type: ['string', 'null'], maxLength: 256 },
    attributes: nullable(anyObject()),
    context: nullable(anyObject()),
  },
  required: ['type'],
  ...PDP_LENIENT,
};
/** A filter list where null means "not sent" (the Python SDK sends `tenants: null`). */
const filterList = () => nullable(arr(str(), { maxItems: 1000 }));

/** The consistencies a request may name as a string (docs/consistency.md); `{at_least}` is the other form. */
export const CONSISTENCY_LEVELS = ['minimize_latency', 'fully_consistent'] as const;

export const consistency = {
  oneOf: [{ type: 'string', enum: CONSISTENCY_LEVELS }, obj({ at_least: str({ pattern: '^[0-9]+$' }) }, ['at_least'])],
};

export const checkQuery = obj(
  {
    user: userRef,
    action: str({ minLength: 1, maxLength: 128 }),
    resource: resourceRef,
    context: nullable(anyObject()),
    sdk: str(),
    explain: bool(),
    consistency,
  },
  ['user', 'action', 'resource'],
  PDP_LENIENT,
);
export const bulkQuery = arr(checkQuery, { maxItems: 100 });
export const explanation = obj({
  paths: arr(str()),
  reason: str(),
  granting_roles: arr(str()),
  tenant: str(),
  states_visited: { type: 'integer' },
  /** The set rules on the permission asked (docs/behaviour.md section 17): each rule, its sets and each condition. */
  set_rules: arr(freeObject()),
});
export const checkAnswer = obj({ allow: bool(), explanation }, ['allow']);
export const explainQuery = obj({ explain: bool() });
export const bulkAnswer = obj({ allow: arr(checkAnswer) }, ['allow']);
export const params = PROJ_ENV_PARAMS;

export const userPermissionsQuery = obj(
  {
    user: userRef,
    tenants: filterList(),
    resources: filterList(),
    resource_types: filterList(),
    context: nullable(anyObject()),
    sdk: str(),
    consistency,
  },
  ['user'],
  PDP_LENIENT,
);
const tenantRead = obj({ key: str(), attributes: freeObject() }, ['key']);
const instanceRead = obj({ type: str(), key: str(), attributes: freeObject() }, ['type', 'key']);
export const userPermissionsAnswer = mapOf(
  obj({ tenant: tenantRead, resource: nullable(instanceRead), permissions: arr(str()), roles: arr(str()) }, ['tenant', 'permissions']),
);
export const authorizedUsersQuery = obj(
  { action: str({ minLength: 1, maxLength: 128 }), resource: resourceRef, context: nullable(anyObject()), sdk: str(), consistency },
  ['action', 'resource'],
  PDP_LENIENT,
);
const assignment = obj({ user: str(), tenant: str(), resource: str(), role: str() });
export const authorizedUsersAnswer = obj({
  resource: str(),
  tenant: str(),
  users: { type: 'object', additionalProperties: arr(assignment) },
});

export const listObjectsQuery = obj(
  {
    user: userRef,
    action: str({ minLength: 1, maxLength: 128 }),
    resource_type: str({ minLength: 1, maxLength: 128 }),
    tenant: nullable(str({ minLength: 1, maxLength: 256 })),
    page_size: int({ minimum: 1, maximum: 1000 }),
    continuation_token: nullable(str({ minLength: 1, maxLength: 2048 })),
    context: nullable(anyObject()),
    consistency,
  },
  ['user', 'action', 'resource_type'],
);
export const listObjectsAnswer = obj(
  { objects: arr(obj({ type: str(), key: str(), tenant: str() }, ['type', 'key', 'tenant'])), continuation_token: nullable(str()) },
  ['objects', 'continuation_token'],
);
