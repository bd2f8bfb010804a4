import type { RouteSpec } from '../../http/routeTable';
import { nullable, obj, str } from '../../http/schema';
import * as s from './schemas';
import type { ProvisioningUpdates } from './updates';

const patchBody = obj({ name: str({ minLength: 1, maxLength: 256 }), description: nullable(str({ maxLength: 4096 })) });

const tag = 'Provisioning';
export const provisioningUpdateRoutes: RouteSpec<ProvisioningUpdates>[] = [
  {
    method: 'PATCH',
    path: '/v2/projects/:proj_id',
    auth: 'admin',
    tag,
    summary: "Update a project's name or description",
    schemas: { params: s.projParams, body: patchBody, response: s.project },
    handler: (r, updates) => updates.updateProject(r.params.proj_id, r.body),
  },
  {
    method: 'PATCH',
    path: '/v2/projects/:proj_id/envs/:env_id',
    auth: 'admin',
    tag,
    summary: "Update an environment's name or description",
    schemas: { params: s.projEnvParams, body: patchBody, response: s.environment },
    handler: (r, updates) => updates.updateEnvironment(r.params.proj_id, r.params.env_id, r.body),
  },
];
