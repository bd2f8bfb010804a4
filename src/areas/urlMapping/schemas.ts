import {
  anyObject,
  arr,
  freeObject,
  idOrKey,
  int,
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
import { userRef } from '../decisions/schemas';

/** The longest request URL `/allowed_url` takes: a regex rule reads at most this much (./match.ts). */
export const MAX_URL_LENGTH = 4096;

/** Permit's MappingRule. */
export const mappingRule = obj(
  {
    url: str({ minLength: 1, maxLength: 2048 }),
    url_type: nullable(str({ enum: ['regex'] })),
    http_method: str({
      enum: ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
    }),
    resource: schemaKey(),
    headers: mapOf(str({ maxLength: 4096 }), str({ minLength: 1, maxLength: 256 })),
    action: nullable(str({ minLength: 1, maxLength: 128 })),
    priority: nullable(int()),
  },
  ['url', 'http_method', 'resource'],
);
const mappingRules = arr(mappingRule, { maxItems: 1000 });
const authMechanism = str({ enum: ['Bearer', 'Basic', 'Headers'] });
const name = str({ minLength: 1, maxLength: 256 });
/** The secret Permit's proxy injects: taken, never kept (graph-authz proxies nothing). */
const secret = {};

export const params = PROJ_ENV_PARAMS;
export const configParams = { ...PROJ_ENV_PARAMS, proxy_config_id: idOrKey() };
export const pagingQuery = obj(PAGING_QUERY);
export const proxyConfigCreate = obj({ key: schemaKey(), name, secret, mapping_rules: mappingRules, auth_mechanism: authMechanism }, [
  'key',
  'name',
  'secret',
]);
export const proxyConfigUpdate = obj({ name, secret, mapping_rules: mappingRules, auth_mechanism: authMechanism });
export const proxyConfig = obj(
  {
    key: str(),
    id: str(),
    ...SCOPED_FIELDS,
    created_at: timestamp(),
    updated_at: timestamp(),
    secret: { type: 'null' },
    name: str(),
    mapping_rules: arr(freeObject()),
    auth_mechanism: str(),
  },
  [
    'key',
    'id',
    'organization_id',
    'project_id',
    'environment_id',
    'created_at',
    'updated_at',
    'secret',
    'name',
    'mapping_rules',
    'auth_mechanism',
  ],
);
export const proxyConfigList = arr(proxyConfig);

/** Permit's UrlAuthorizationQuery; fields it does not know are ignored, as its PDP does. */
export const urlCheck = obj(
  {
    user: userRef,
    http_method: str({ minLength: 1, maxLength: 16 }),
    url: str({ minLength: 1, maxLength: MAX_URL_LENGTH }),
    tenant: str({ minLength: 1, maxLength: 256 }),
    context: nullable(anyObject()),
    sdk: nullable(str()),
  },
  ['user', 'http_method', 'url', 'tenant'],
  { additionalProperties: true },
);
/** Permit's AuthorizationResult. */
export const urlAnswer = obj({ allow: { type: 'boolean' }, result: { type: 'boolean' }, query: freeObject(), debug: freeObject() }, [
  'allow',
  'result',
]);
