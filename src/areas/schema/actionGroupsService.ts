import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { scoped } from '../../auth/types';
import type { Tx } from '../../db/db';
import { duplicate, invalidInput, notFound } from '../../errors';
import type { Page } from '../../http/paging';
import { attributesJson } from '../../util/attributes';
import type { ActionGroupNode, ActionGroupsStore } from './actionGroupsStore';
import type { ResourceNode, SchemaStore } from './store';

export interface ActionGroupInput {
  key: string;
  name: string;
  description?: string | null;
  attributes?: Record<string, unknown>;
  actions?: string[];
}

/** An action group as Permit's ResourceActionGroupRead. */
export function actionGroupView(scope: Scope, g: ActionGroupNode) {
  return {
    key: g.key,
    name: g.name ?? g.key,
    description: g.description ?? null,
    attributes: g.attributes_json ? JSON.parse(g.attributes_json) : {},
    actions: g.actions ?? [],
    id: g.id,
    ...scoped(scope),
    resource_id: g.resource_id ?? null,
    created_at: g.created_at,
    updated_at: g.updated_at,
  };
}

/**
 * Permit's action groups (`/resources/{r}/action_groups[/{group}]`, docs/behaviour.md section 23):
 * named sets of a resource's actions. A role given "<resource>:<group>" (a tenant role) or
 * "<group>" (a resource role) may do each of the group's actions, on every decision endpoint.
 * Every write holds the resource's lock (as the actions' writes do), so an action removed
 * concurrently is either seen missing here or dropped from the group after this commits.
 */
export class ActionGroupsService {
  constructor(
    private readonly schema: SchemaStore,
    private readonly store: ActionGroupsStore,
  ) {}

  private checkActions(r: ResourceNode, actions: string[]) {
    const known = new Set(r.actions ?? []);
    const details = actions.flatMap((a, i) =>
      known.has(a)
        ? []
        : [{ path: `/body/actions/${i}`, message: `${JSON.stringify(a)} is no action of resource ${JSON.stringify(r.key)}` }],
    );
    if (details.length) throw invalidInput(`An action group holds actions of its resource ${JSON.stringify(r.key)} only.`, details);
  }

  private async group(tx: Tx, scope: Scope, r: ResourceNode, ref: string) {
    const g = await this.store.get(tx, scope.envId, r.key, ref);
    if (!g) throw notFound(`Action group of resource ${JSON.stringify(r.key)}`, ref);
    return g;
  }

  async create(scope: Scope, resourceRef: string, input: ActionGroupInput) {
    const attributes = attributesJson(input.attributes);
    const actions = [...new Set(input.actions ?? [])];
    return this.schema.write(async (tx) => {
      const r = await this.schema.lockedResource(tx, scope.envId, resourceRef);
      // A permission names an action or a group by the same text: the two never share a key.
      if ((r.actions ?? []).includes(input.key)) throw duplicate(`Action of resource ${JSON.stringify(r.key)}`, input.key);
      this.checkActions(r, actions);
      const made = await this.store.create(tx, scope.envId, r.key, {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        attributes_json: attributes ?? '{}',
        actions,
        nowIso: new Date().toISOString(),
      });
      if (!made) throw notFound('Resource', resourceRef);
      return actionGroupView(scope, made);
    });
  }

  async list(scope: Scope, resourceRef: string, page: Page) {
    return this.schema.read(async (tx) => {
      const r = await this.schema.mustResource(tx, scope.envId, resourceRef);
      const { data } = await this.store.list(tx, scope.envId, r.key, page);
      return data.map((g) => actionGroupView(scope, g));
    });
  }

  async get(scope: Scope, resourceRef: string, ref: string) {
    return this.schema.read(async (tx) => {
      const r = await this.schema.mustResource(tx, scope.envId, resourceRef);
      return actionGroupView(scope, await this.group(tx, scope, r, ref));
    });
  }

  async update(scope: Scope, resourceRef: string, ref: string, patch: Partial<Omit<ActionGroupInput, 'key'>>) {
    const attributes = attributesJson(patch.attributes);
    const actions = patch.actions === undefined ? null : [...new Set(patch.actions)];
    return this.schema.write(async (tx) => {
      const r = await this.schema.lockedResource(tx, scope.envId, resourceRef);
      const g = await this.group(tx, scope, r, ref);
      if (actions) this.checkActions(r, actions);
      const updated = await this.store.update(tx, scope.envId, r.key, g.key, {
        name: patch.name ?? null,
        description: patch.description,
        attributes_json: attributes ?? null,
        actions,
        nowIso: new Date().toISOString(),
      });
      if (!updated) throw notFound(`Action group of resource ${JSON.stringify(r.key)}`, ref);
      return actionGroupView(scope, updated);
    });
  }

  async remove(scope: Scope, resourceRef: string, ref: string) {
    await this.schema.write(async (tx) => {
      const r = await this.schema.lockedResource(tx, scope.envId, resourceRef);
      const g = await this.group(tx, scope, r, ref);
      await this.store.delete(tx, scope.envId, r.key, g.key);
    });
  }
}
