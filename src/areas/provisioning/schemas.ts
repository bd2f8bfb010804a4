import { ACCESS_LEVELS } from '../../auth/types';
import { arr, bool, envelope, idOrKey, int, nullable, obj, PAGING_QUERY, schemaKey, str, timestamp } from '../../http/schema';

export const projectCreate = obj({ key: schemaKey(), name: str({ minLength: 1, maxLength: 256 }), description: str({ maxLength: 4096 }) }, [
  'key',
  'name',
]);
export const environmentCreate = projectCreate;

export const project = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    organization_id: str(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  ['id', 'key', 'name'],
);
export const environment = obj(
  {
    id: str(),
    key: str(),
    name: str(),
    description: nullable(str()),
    project_id: str(),
    organization_id: str(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  ['id', 'key', 'name', 'project_id'],
);
/** Permit's EnvironmentStats: the environment, its PDP configs (none here) and EnvironmentStatistics. */
export const environmentStats = obj(
  {
    ...environment.properties,
    pdp_configs: arr(obj({})),
    stats: obj(
      {
        roles: int(),
        users: int(),
        policies: int(),
        resources: int(),
        tenants: int(),
        has_decision_logs: bool(),
        members: arr(obj({})),
        mau: int(),
      },
      ['roles', 'users', 'policies', 'resources', 'tenants', 'has_decision_logs', 'members', 'mau'],
    ),
  },
  ['id', 'key', 'name', 'project_id', 'pdp_configs', 'stats'],
);
export const accessLevel = str({ enum: ACCESS_LEVELS });
export const apiKey = obj(
  {
    id: str(),
    name: nullable(str()),
    prefix: nullable(str()),
    object_type: str({ enum: ['env'] }),
    owner_type: str({ enum: ['member'] }),
    access_level: accessLevel,
    organization_id: str(),
    project_id: str(),
    environment_id: str(),
    created_at: timestamp(),
    secret: str(),
  },
  ['id', 'prefix'],
);
export const apiKeyCreate = obj({ name: str({ maxLength: 256 }), access_level: accessLevel });
export const rotatedKey = obj({ id: str(), secret: str() }, ['id', 'secret']);
export const scope = obj({
  organization_id: str(),
  project_id: nullable(str()),
  environment_id: nullable(str()),
});

export const pagingQuery = obj(PAGING_QUERY);
export const projParams = { proj_id: idOrKey() };
export const projEnvParams = { proj_id: idOrKey(), env_id: idOrKey() };
export const keyParams = { ...projEnvParams, key_id: str() };
export const keyIdParams = { key_id: str({ minLength: 1, maxLength: 128 }) };
/** Permit answers projects and environments as plain arrays (docs/behaviour.md section 14). */
export const projectList = arr(project);
export const environmentList = arr(environment);
export const apiKeyList = envelope(apiKey);
