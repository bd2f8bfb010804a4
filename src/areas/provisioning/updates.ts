import type { Db } from '../../db/db';
import { notFound } from '../../errors';
import type { RouteDef } from '../../http/routeTable';
import { nullable, obj, str } from '../../http/schema';
import * as s from './schemas';
import { ProvisioningService } from './service';
import type { EnvironmentNode, ProjectNode } from './store';

export interface NameAndDescription {
  name?: string;
  description?: string | null;
}

const patchBody = obj({ name: str({ minLength: 1, maxLength: 256 }), description: nullable(str({ maxLength: 4096 })) });
const params = (p: NameAndDescription) => ({
  name: p.name ?? null, description: p.description ?? null, setDescription: p.description !== undefined, nowIso: new Date().toISOString(),
});

/** PATCH of projects and environments (Permit's `projects.update`, `environments.update`): name and description. */
export class ProvisioningUpdates {
  private readonly q = this.db.statements({
    updateProject: 'provisioning/updateProject',
    updateEnvironment: 'provisioning/updateEnvironment',
  });

  constructor(
    private readonly db: Db,
    private readonly svc: ProvisioningService,
  ) {}

  async updateProject(ref: string, patch: NameAndDescription) {
    const current = await this.svc.getProject(ref);
    const [row] = await this.db.writeRows(this.q.updateProject, { id: current.id, ...params(patch) });
    if (!row) throw notFound('Project', ref);
    return this.svc.projectView(row.project as ProjectNode);
  }

  async updateEnvironment(projRef: string, envRef: string, patch: NameAndDescription) {
    const current = await this.svc.getEnvironment(projRef, envRef);
    const [row] = await this.db.writeRows(this.q.updateEnvironment, { projectId: current.project_id, id: current.id, ...params(patch) });
    if (!row) throw notFound('Environment', envRef);
    return this.svc.envView(row.environment as EnvironmentNode);
  }
}

export function provisioningUpdateRoutes(updates: ProvisioningUpdates): RouteDef[] {
  const tag = 'Provisioning';
  return [
    { method: 'PATCH', path: '/v2/projects/:proj_id', auth: 'admin', tag, summary: "Update a project's name or description",
      schemas: { params: s.projParams, body: patchBody, response: s.project }, handler: (r) => updates.updateProject(r.params.proj_id, r.body) },
    { method: 'PATCH', path: '/v2/projects/:proj_id/envs/:env_id', auth: 'admin', tag, summary: "Update an environment's name or description",
      schemas: { params: s.projEnvParams, body: patchBody, response: s.environment }, handler: (r) => updates.updateEnvironment(r.params.proj_id, r.params.env_id, r.body) },
  ];
}
