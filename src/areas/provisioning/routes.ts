import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { ProvisioningService } from './service';

const tag = 'Provisioning';
export const provisioningRoutes: RouteSpec<{ svc: ProvisioningService; orgId: string }>[] = [
  route({
    method: 'POST',
    path: '/v2/projects',
    auth: 'admin',
    tag,
    summary: 'Create a project',
    schemas: { body: s.projectCreate, response: s.project },
    handler: (r, { svc }) => svc.createProject(r.body),
  }),
  route({
    method: 'GET',
    path: '/v2/projects',
    auth: 'admin',
    tag,
    summary: 'List projects',
    schemas: { query: s.pagingQuery, response: s.projectList },
    handler: (r, { svc }) => svc.listProjects(paging(r.query)),
  }),
  route({
    method: 'GET',
    path: '/v2/projects/:proj_id',
    auth: 'admin',
    tag,
    summary: 'Get a project',
    schemas: { params: s.projParams, response: s.project },
    handler: (r, { svc }) => svc.getProject(r.params.proj_id),
  }),
  route({
    method: 'DELETE',
    path: '/v2/projects/:proj_id',
    auth: 'admin',
    tag,
    summary: 'Delete a project and everything in it',
    status: 204,
    schemas: { params: s.projParams },
    handler: (r, { svc }) => svc.deleteProject(r.params.proj_id),
  }),
  route({
    method: 'POST',
    path: '/v2/projects/:proj_id/envs',
    auth: 'admin',
    tag,
    summary: 'Create an environment',
    schemas: { params: s.projParams, body: s.environmentCreate, response: s.environment },
    handler: (r, { svc }) => svc.createEnvironment(r.params.proj_id, r.body),
  }),
  route({
    method: 'GET',
    path: '/v2/projects/:proj_id/envs',
    auth: 'admin',
    tag,
    summary: 'List environments',
    schemas: { params: s.projParams, query: s.pagingQuery, response: s.environmentList },
    handler: (r, { svc }) => svc.listEnvironments(r.params.proj_id, paging(r.query)),
  }),
  route({
    method: 'GET',
    path: '/v2/projects/:proj_id/envs/:env_id',
    auth: 'env',
    tag,
    summary: 'Get an environment',
    schemas: { params: s.projEnvParams, response: s.environment },
    // Keys, not ids: a reference is a key first (docs/behaviour.md section 8), and the scope's keys name exactly its records.
    handler: (r, { svc }) => svc.getEnvironment(r.scope.projectKey, r.scope.envKey),
  }),
  route({
    method: 'DELETE',
    path: '/v2/projects/:proj_id/envs/:env_id',
    auth: 'admin',
    tag,
    summary: 'Delete an environment and everything in it',
    status: 204,
    schemas: { params: s.projEnvParams },
    handler: (r, { svc }) => svc.deleteEnvironment(r.params.proj_id, r.params.env_id),
  }),
  route({
    method: 'GET',
    path: '/v2/projects/:proj_id/envs/:env_id/stats',
    auth: 'env',
    adminOnly: true,
    tag,
    summary: "Permit's EnvironmentStats: the environment with counts of its roles, users, policies, resources and tenants",
    schemas: { params: s.projEnvParams, response: s.environmentStats },
    handler: (r, { svc }) => svc.environmentStats(r.scope),
  }),
  // Key management is the admin's (docs/behaviour.md section 8): a leaked environment key cannot mint
  // keys or replace itself before it is revoked.
  // Before the create route: `/v2/api-key/{key_id}/rotate-secret` also fits `/v2/api-key/{proj_id}/{env_id}`.
  route({
    method: 'POST',
    path: '/v2/api-key/:key_id/rotate-secret',
    auth: 'admin',
    tag,
    summary: 'Give an environment key a new secret (shown once); the old one is refused from the next request on',
    schemas: { params: s.keyIdParams, response: s.rotatedKey },
    handler: (r, { svc }) => svc.rotateApiKey(r.params.key_id),
  }),
  route({
    method: 'POST',
    path: '/v2/api-key/:proj_id/:env_id',
    auth: 'env',
    adminOnly: true,
    tag,
    summary: 'Create an environment key, access level write (default) or read; the secret is shown once',
    schemas: { params: s.projEnvParams, body: s.apiKeyCreate, response: s.apiKey },
    handler: (r, { svc }) => svc.createApiKey(r.scope, r.body),
  }),
  // docs/behaviour.md section 14: at Permit this path is the environment's key (the SDKs'
  // environments.getApiKey); our list of an environment's keys lives at `.../keys`.
  route({
    method: 'GET',
    path: '/v2/api-key/:proj_id/:env_id',
    auth: 'env',
    adminOnly: true,
    tag,
    summary:
      "The environment's key (Permit's APIKeyRead): the one made with the environment (its oldest key), never with a secret; " +
      'POST /v2/api-key/{key_id}/rotate-secret gives it a secret, shown once',
    schemas: { params: s.projEnvParams, response: s.apiKey },
    handler: (r, { svc }) => svc.environmentKey(r.scope),
  }),
  route({
    method: 'GET',
    path: '/v2/api-key/:proj_id/:env_id/keys',
    auth: 'env',
    adminOnly: true,
    tag,
    summary: 'List environment keys (never secrets)',
    schemas: { params: s.projEnvParams, query: s.pagingQuery, response: s.apiKeyList },
    handler: (r, { svc }) => svc.listApiKeys(r.scope, paging(r.query)),
  }),
  route({
    method: 'DELETE',
    path: '/v2/api-key/:proj_id/:env_id/:key_id',
    auth: 'env',
    adminOnly: true,
    tag,
    summary: 'Revoke an environment key',
    status: 204,
    schemas: { params: s.keyParams },
    handler: (r, { svc }) => svc.revokeApiKey(r.scope, r.params.key_id),
  }),
  route({
    method: 'GET',
    path: '/v2/api-key/scope',
    auth: 'key',
    tag,
    summary: 'Project and environment of the calling key',
    schemas: { response: s.scope },
    handler: async (r, { orgId }) => ({
      organization_id: r.scope?.orgId ?? orgId,
      project_id: r.scope?.projectId ?? null,
      environment_id: r.scope?.envId ?? null,
    }),
  }),
];
