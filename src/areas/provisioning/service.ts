import { randomUUID } from 'node:crypto';
import { hashSecret, newSecret } from '../../auth/secrets';
import type { AccessLevel, Scope } from '../../auth/types';
import { AppError, notFound } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import { now } from '../../util/time';
import type { ApiKeyNode, EnvironmentNode, ProjectNode, ProvisioningStore } from './store';

export interface ProjectView {
  id: string;
  key: string;
  name: string;
  description: string | null;
  organization_id: string;
  created_at: string;
  updated_at: string;
}
export interface EnvironmentView {
  id: string;
  key: string;
  name: string;
  description: string | null;
  project_id: string;
  organization_id: string;
  created_at: string;
  updated_at: string;
}

const KEY_PREFIX = 'authz';

export class ProvisioningService {
  constructor(
    private readonly store: ProvisioningStore,
    private readonly orgId: string,
  ) {}

  projectView = (p: ProjectNode): ProjectView => ({
    id: p.id,
    key: p.key,
    name: p.name,
    description: p.description ?? null,
    organization_id: p.org_id,
    created_at: p.created_at,
    updated_at: p.updated_at,
  });

  envView = (e: EnvironmentNode): EnvironmentView => ({
    id: e.id,
    key: e.key,
    name: e.name,
    description: e.description ?? null,
    project_id: e.project_id,
    organization_id: this.orgId,
    created_at: e.created_at,
    updated_at: e.updated_at,
  });

  async createProject(input: { key: string; name: string; description?: string }): Promise<ProjectView> {
    const p = await this.store.createProject({
      id: randomUUID(),
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      orgId: this.orgId,
      nowIso: now(),
    });
    return this.projectView(p);
  }

  async listProjects(page: Page): Promise<ProjectView[]> {
    const { data } = await this.store.listProjects(page);
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return data.map(this.projectView);
  }

  async getProject(ref: string): Promise<ProjectView> {
    const p = await this.store.getProject(ref);
    if (!p) throw notFound('Project', ref);
    return this.projectView(p);
  }

  async deleteProject(ref: string): Promise<void> {
    if (!(await this.store.deleteProject(ref))) throw notFound('Project', ref);
  }

  async createEnvironment(projRef: string, input: { key: string; name: string; description?: string }): Promise<EnvironmentView> {
    const project = await this.getProject(projRef);
    const e = await this.store.createEnvironment({
      id: randomUUID(),
      key: input.key,
      name: input.name,
      description: input.description ?? null,
      projectId: project.id,
      nowIso: now(),
    });
    return this.envView(e);
  }

  async listEnvironments(projRef: string, page: Page): Promise<EnvironmentView[]> {
    const project = await this.getProject(projRef);
    const { data } = await this.store.listEnvironments(project.id, page);
    // A plain array, as Permit answers (docs/behaviour.md section 14).
    return data.map(this.envView);
  }

  async getEnvironment(projRef: string, envRef: string): Promise<EnvironmentView> {
    const project = await this.getProject(projRef);
    const e = await this.store.getEnvironment(project.id, envRef);
    if (!e) throw notFound('Environment', envRef);
    return this.envView(e);
  }

  async deleteEnvironment(projRef: string, envRef: string): Promise<void> {
    const project = await this.getProject(projRef);
    if (!(await this.store.deleteEnvironment(project.id, envRef))) throw notFound('Environment', envRef);
  }

  /**
   * Permit's EnvironmentStats: the environment (EnvironmentRead) with `pdp_configs` (none: there
   * is no separate PDP here) and `stats`, from counts the graph keeps. `members` is empty (no
   * organisation members here: keys, not members) and `mau` 0 (monthly active users are not
   * counted: decisions are sampled into the decision log, not counted per user).
   */
  async environmentStats(scope: Scope) {
    const env = await this.getEnvironment(scope.projectId, scope.envId);
    const counts = await this.store.environmentStats(scope.envId);
    return { ...env, pdp_configs: [], stats: { ...counts, members: [], mau: 0 } };
  }

  /** Returns the secret once; only its digest is stored. */
  async createApiKey(scope: Scope, input: { name?: string; access_level?: AccessLevel }) {
    const secret = newSecret(KEY_PREFIX);
    const k = await this.store.createApiKey({
      id: randomUUID(),
      envId: scope.envId,
      hash: hashSecret(secret),
      prefix: secret.slice(0, 10),
      name: input.name ?? null,
      accessLevel: input.access_level ?? 'write',
      nowIso: now(),
    });
    return { ...this.keyView(k), secret };
  }

  /** Permit's APIKeyRead fields (an environment key a member made), plus our `prefix`. */
  keyView = (k: ApiKeyNode) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    object_type: 'env' as const,
    owner_type: 'member' as const,
    access_level: k.access_level ?? 'write',
    organization_id: this.orgId,
    project_id: k.project_id,
    environment_id: k.env_id,
    created_at: k.created_at,
  });

  /**
   * The environment's key as Permit's `GET /v2/api-key/{proj}/{env}` answers it: the key made with
   * the environment (cypher/fragments/environmentKey.cypher), its oldest, without a secret: that key
   * has none until a rotation gives it one, and a secret is answered once, by the call that makes it.
   */
  async environmentKey(scope: Scope) {
    const { data } = await this.store.listApiKeys(scope.envId, { page: 1, perPage: 1, skip: 0 });
    if (!data.length) {
      throw new AppError(
        404,
        'NOT_FOUND',
        `Environment ${JSON.stringify(scope.envKey)} has no key left (each was revoked): make one with POST /v2/api-key/{proj_id}/{env_id}.`,
      );
    }
    return this.keyView(data[0]);
  }

  async listApiKeys(scope: Scope, page: Page) {
    const { total, data } = await this.store.listApiKeys(scope.envId, page);
    return envelopeOf(data.map(this.keyView), total, page);
  }

  async revokeApiKey(scope: Scope, id: string): Promise<void> {
    if (!(await this.store.revokeApiKey(scope.envId, id))) throw notFound('API key', id);
  }

  /** A new secret for the key, shown once; the old one is refused from the next request on. */
  async rotateApiKey(id: string): Promise<{ id: string; secret: string }> {
    const secret = newSecret(KEY_PREFIX);
    const k = await this.store.rotateApiKey({ id, hash: hashSecret(secret), prefix: secret.slice(0, 10), nowIso: now() });
    if (!k) throw notFound('API key', id);
    return { id: k.id, secret };
  }

  /** Start-up: the bootstrap project and environment exist after this, whatever was there. */
  async bootstrap(projectKey: string, envKey: string): Promise<{ project: ProjectView; environment: EnvironmentView }> {
    const p = await this.store.ensureProject({ id: randomUUID(), key: projectKey, orgId: this.orgId, nowIso: now() });
    const e = await this.store.ensureEnvironment({ id: randomUUID(), key: envKey, projectId: p.id, nowIso: now() });
    return { project: this.projectView(p), environment: this.envView(e) };
  }
}
