import { arr, envelope, idOrKey, obj, PAGING_QUERY, PROJ_ENV_PARAMS, schemaKey, str, timestamp } from '../../http/schema';
import { ELEMENTS_TYPES, LEVELS } from './service';

const name = str({ minLength: 1, maxLength: 256 });
const levelRoles = arr(schemaKey(), { maxItems: 100 });
const rolesToLevels = obj(Object.fromEntries(LEVELS.map((l) => [l, levelRoles])));
const settings = obj({ resources: arr(schemaKey(), { maxItems: 100 }) });

export const params = PROJ_ENV_PARAMS;
export const configParams = { ...PROJ_ENV_PARAMS, elements_config_id: idOrKey() };
export const pagingQuery = obj(PAGING_QUERY);

export const configCreate = obj(
  { key: schemaKey(), name, elements_type: str({ enum: ELEMENTS_TYPES }), settings, roles_to_levels: rolesToLevels },
  ['key', 'name', 'elements_type', 'roles_to_levels'],
);
export const configUpdate = obj({ name, settings, roles_to_levels: rolesToLevels });
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
  created_at: timestamp(),
  updated_at: timestamp(),
});
export const configList = envelope(config);
