import { route, type RouteSpec } from '../../http/routeTable';
import { arr, obj, PROJ_ENV_PARAMS, schemaKey, str } from '../../http/schema';
import { environment } from '../provisioning/schemas';
import type { EnvironmentCopier } from './environmentCopy';

/** Permit's EnvironmentCopyScopeFilters: keys, `*` a wildcard; no `include` is every key. */
const filter = obj({
  include: arr(str({ minLength: 1, maxLength: 256 }), { maxItems: 1000 }),
  exclude: arr(str({ minLength: 1, maxLength: 256 }), { maxItems: 1000 }),
});
/** Permit's EnvironmentCopy. */
export const environmentCopy = obj(
  {
    target_env: obj({
      existing: str({ minLength: 1, maxLength: 256 }),
      new: obj({ key: schemaKey(), name: str({ minLength: 1, maxLength: 256 }), description: str({ maxLength: 4096 }) }, ['key', 'name']),
    }),
    conflict_strategy: str({ enum: ['fail', 'overwrite'] as const }),
    scope: obj({ resources: filter, roles: filter, user_sets: filter, resource_sets: filter, custom_policies: filter }),
  },
  ['target_env'],
);

export const environmentCopyRoutes: RouteSpec<EnvironmentCopier>[] = [
  route({
    method: 'POST',
    path: '/v2/projects/:proj_id/envs/:env_id/copy',
    auth: 'env',
    adminOnly: true,
    tag: 'Provisioning',
    summary:
      "Permit's environment copy: the schema objects (resources, roles, user sets, resource sets) into a new or an existing environment; conflict_strategy fail (default) or overwrite",
    schemas: { params: PROJ_ENV_PARAMS, body: environmentCopy, response: environment },
    handler: (r, copier) => copier.copy(r.scope, r.body),
  }),
];
