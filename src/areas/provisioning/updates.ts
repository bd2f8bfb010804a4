import { notFound } from '../../errors';
import type { ProvisioningService } from './service';
import type { ProjectEnvPatch, ProvisioningStore } from './store';

export interface NameAndDescription {
  name?: string;
  description?: string | null;
}

const params = (p: NameAndDescription): ProjectEnvPatch => ({
  name: p.name ?? null,
  description: p.description ?? null,
  setDescription: p.description !== undefined,
  nowIso: new Date().toISOString(),
});

/** PATCH of projects and environments (Permit's `projects.update`, `environments.update`): name and description. */
export class ProvisioningUpdates {
  constructor(
    private readonly store: ProvisioningStore,
    private readonly svc: ProvisioningService,
  ) {}

  async updateProject(ref: string, patch: NameAndDescription) {
    const current = await this.svc.getProject(ref);
    const project = await this.store.updateProject(current.id, params(patch));
    if (!project) throw notFound('Project', ref);
    return this.svc.projectView(project);
  }

  async updateEnvironment(projRef: string, envRef: string, patch: NameAndDescription) {
    const current = await this.svc.getEnvironment(projRef, envRef);
    const environment = await this.store.updateEnvironment(current.project_id, current.id, params(patch));
    if (!environment) throw notFound('Environment', envRef);
    return this.svc.envView(environment);
  }
}
