import type { AccessLevel, KeyLookup, ScopeRow } from '../../auth/types';
import { type Db, keyed } from '../../db/db';
import { Duplicate, NotFound } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { ApiKeyNode, EnvironmentNode, ProjectNode } from '../../db/records';

export type { ApiKeyNode, EnvironmentNode, ProjectNode } from '../../db/records';

/** A new name and description of a project or environment (`setDescription`: the description was given, maybe null). */
export interface ProjectEnvPatch {
  name: string | null;
  description: string | null;
  setDescription: boolean;
  nowIso: string;
}

export class ProvisioningStore implements KeyLookup {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createProject: 'provisioning/createProject',
      ensureProject: 'provisioning/ensureProject',
      listProjects: 'provisioning/listProjects',
      getProject: 'provisioning/getProject',
      deleteProject: 'provisioning/deleteProject',
      createEnvironment: 'provisioning/createEnvironment',
      ensureEnvironment: 'provisioning/ensureEnvironment',
      listEnvironments: 'provisioning/listEnvironments',
      getEnvironment: 'provisioning/getEnvironment',
      deleteEnvironment: 'provisioning/deleteEnvironment',
      resolveScope: 'provisioning/resolveScope',
      scopeOfKey: 'provisioning/scopeOfKey',
      updateProject: 'provisioning/updateProject',
      updateEnvironment: 'provisioning/updateEnvironment',
      createApiKey: 'provisioning/createApiKey',
      listApiKeys: 'provisioning/listApiKeys',
      revokeApiKey: 'provisioning/revokeApiKey',
      rotateApiKey: 'provisioning/rotateApiKey',
      envOfApiKey: 'provisioning/envOfApiKey',
      environmentStats: 'provisioning/environmentStats',
    });
  }

  async createProject(
    p: Omit<ProjectNode, 'created_at' | 'updated_at' | 'org_id'> & { orgId: string; nowIso: string },
  ): Promise<ProjectNode> {
    try {
      const [row] = await this.db.writeRows(this.q.createProject, p);
      return row.project;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Project', p.key);
      throw err;
    }
  }

  async ensureProject(p: { id: string; key: string; orgId: string; nowIso: string }): Promise<ProjectNode> {
    const [row] = await this.db.writeRows(this.q.ensureProject, p);
    return row.project;
  }

  async ensureEnvironment(e: { id: string; key: string; projectId: string; nowIso: string }): Promise<EnvironmentNode> {
    const [row] = await this.db.writeRows(this.q.ensureEnvironment, e);
    return row.environment;
  }

  async listProjects(page: Page): Promise<{ total: number; data: ProjectNode[] }> {
    return listOf(await this.db.readRows(this.q.listProjects, { skip: page.skip, limit: page.perPage }));
  }

  async getProject(ref: string): Promise<ProjectNode | undefined> {
    const [row] = await this.db.readRows(this.q.getProject, { ref });
    return keyed(row?.project);
  }

  /** Announced: every replica stops using its copy of the project's keys before the answer (src/db/db.ts commit wait). */
  async deleteProject(ref: string): Promise<boolean> {
    return this.db.write(async (tx) => {
      const row = await tx.one(this.q.deleteProject, { ref });
      tx.announce();
      return (row?.deleted ?? 0) > 0;
    });
  }

  async createEnvironment(
    e: Omit<EnvironmentNode, 'created_at' | 'updated_at' | 'project_id'> & { projectId: string; nowIso: string },
  ): Promise<EnvironmentNode> {
    try {
      const [row] = await this.db.writeRows(this.q.createEnvironment, e);
      if (!row) throw new NotFound('Project', e.projectId);
      return row.environment;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Environment', e.key);
      throw err;
    }
  }

  async listEnvironments(projectId: string, page: Page): Promise<{ total: number; data: EnvironmentNode[] }> {
    return listOf(await this.db.readRows(this.q.listEnvironments, { projectId, skip: page.skip, limit: page.perPage }));
  }

  async getEnvironment(projectId: string, ref: string): Promise<EnvironmentNode | undefined> {
    const [row] = await this.db.readRows(this.q.getEnvironment, { projectId, ref });
    return keyed(row?.environment);
  }

  /** Announced, as deleteProject. */
  async deleteEnvironment(projectId: string, ref: string): Promise<boolean> {
    return this.db.write(async (tx) => {
      const row = await tx.one(this.q.deleteEnvironment, { projectId, ref });
      tx.announce();
      return (row?.deleted ?? 0) > 0;
    });
  }

  async updateProject(id: string, patch: ProjectEnvPatch): Promise<ProjectNode | undefined> {
    const [row] = await this.db.writeRows(this.q.updateProject, { id, ...patch });
    return row?.project;
  }

  async updateEnvironment(projectId: string, id: string, patch: ProjectEnvPatch): Promise<EnvironmentNode | undefined> {
    const [row] = await this.db.writeRows(this.q.updateEnvironment, { projectId, id, ...patch });
    return row?.environment;
  }

  // Auto-commit reads on the leader (src/http/authenticator.ts): they must see a revoke or
  // rotation made through any replica.
  async resolveScope(hash: string, proj: string, env: string): Promise<ScopeRow> {
    const [row] = await this.db.readOnce(this.q.resolveScope, { hash, proj, env }, 'latest');
    return row;
  }

  async scopeOfKey(hash: string): Promise<ScopeRow | undefined> {
    const [row] = await this.db.readOnce(this.q.scopeOfKey, { hash }, 'latest');
    return row;
  }

  async createApiKey(k: {
    id: string;
    envId: string;
    hash: string;
    prefix: string;
    name: string | null;
    accessLevel: AccessLevel;
    nowIso: string;
  }): Promise<ApiKeyNode> {
    const [row] = await this.db.writeRows(this.q.createApiKey, k);
    if (!row) throw new NotFound('Environment', k.envId);
    return row.key;
  }

  async environmentStats(env: string) {
    const [row] = await this.db.readRows(this.q.environmentStats, { env });
    return row;
  }

  async listApiKeys(envId: string, page: Page): Promise<{ total: number; data: ApiKeyNode[] }> {
    return listOf(await this.db.readRows(this.q.listApiKeys, { envId, skip: page.skip, limit: page.perPage }));
  }

  /**
   * Moves the key's environment's revision (`touch`): every replica drops its copy of the key at
   * its next fresh revision read, which the commit wait lets start before this answers.
   */
  async revokeApiKey(envId: string, id: string): Promise<boolean> {
    return this.db.write(async (tx) => {
      const row = await tx.one(this.q.revokeApiKey, { envId, id });
      tx.touch(envId);
      return (row?.deleted ?? 0) > 0;
    });
  }

  /** Replaces the key's digest; undefined when no key has this id. */
  async rotateApiKey(k: { id: string; hash: string; prefix: string; nowIso: string }): Promise<ApiKeyNode | undefined> {
    return this.db.write(async (tx) => {
      const envId = (await tx.one(this.q.envOfApiKey, { id: k.id }))?.envId;
      if (envId === undefined) return undefined;
      const key = (await tx.one(this.q.rotateApiKey, { ...k, envId }))?.key;
      if (key) tx.touch(key.env_id);
      return key;
    });
  }
}
