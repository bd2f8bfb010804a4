import { arr, envelope, idOrKey, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, schemaKey, str, timestamp } from '../../http/schema';

/** The levels of an elements config's `roles_to_levels`. */
export const LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3', 'LEVEL_4'] as const;
export type Level = (typeof LEVELS)[number];
/** The flows an elements config runs: operation approvals (an action) or access requests (a role). */
export const ELEMENTS_TYPES = ['operation_approval', 'access_request'] as const;
export type ElementsType = (typeof ELEMENTS_TYPES)[number];

const name = str({ minLength: 1, maxLength: 256 });
const levelRoles = arr(schemaKey(), { maxItems: 100 });
const rolesToLevels = obj(Object.fromEntries(LEVELS.map((l) => [l, levelRoles])));
const settings = obj({ resources: arr(schemaKey(), { maxItems: 100 }) });
/** Where approval and access request events are POSTed: an http(s) URL, and a bearer token to send. */
const webhook = obj(
  {
    url: str({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$', maxLength: 2048 }),
    bearer_token: str({ minLength: 1, maxLength: 4096 }),
  },
  ['url'],
);

export const params = PROJ_ENV_PARAMS;
export const configParams = { ...PROJ_ENV_PARAMS, elements_config_id: idOrKey() };
export const pagingQuery = obj(PAGING_QUERY);

export const configCreate = obj(
  { key: schemaKey(), name, elements_type: str({ enum: ELEMENTS_TYPES }), settings, roles_to_levels: rolesToLevels, webhook },
  ['key', 'name', 'elements_type', 'roles_to_levels'],
);
export const configUpdate = obj({ name, settings, roles_to_levels: rolesToLevels, webhook: nullable(webhook) });
export const config = obj({
  id: str(),
  key: str(),
  name: str(),
  elements_type: str(),
  settings: obj({ resources: arr(str()) }),
  roles_to_levels: obj(Object.fromEntries(LEVELS.map((l) => [l, arr(str())]))),
  organization_id: str(),
  project_id: str(),
  environment_id: str(),
  webhook: nullable(obj({ url: str() })),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export const configList = envelope(config);
/** Create (and the PATCH that gives an older config its first secret) also answer the webhook secret: the only time it is shown. */
export const configWithSecret = obj({ ...(config.properties as typeof config.properties), webhook_secret: str() });

/** An event of a config's webhook still in the outbox (its delivery status). */
export const delivery = obj({
  id: str(),
  request_id: str(),
  event: str({ enum: ['created', 'approved', 'denied', 'canceled'] as const }),
  status: str({ enum: ['pending', 'dead'] as const }),
  attempts: { type: 'integer', minimum: 0 },
  last_error: nullable(str()),
  next_attempt_at: timestamp(),
  give_up_at: timestamp(),
  created_at: timestamp(),
});
export const deliveryList = envelope(delivery);
export const deliveriesQuery = obj({ ...PAGING_QUERY, status: str({ enum: ['pending', 'dead'] as const }) });
