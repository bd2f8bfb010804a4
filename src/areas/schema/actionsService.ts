import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/types';
import type { Tx } from '../../db/db';
import { duplicate, notFound } from '../../errors';
import { attributesJson } from '../../util/attributes';
import type { ResourceNode, SchemaStore } from './store';
import { scoped } from '../../auth/types';

export interface StoredAction {
  id?: string;
  name?: string;
  description?: string | null;
  attributes?: Record<string, unknown>;
  created_at?: string;
  updated_at?: string;
}
export interface ActionInput {
  key: string;
  name: string;
  description?: string | null;
  attributes?: Record<string, unknown>;
}

/** An action as Permit's ResourceActionRead (the list and the single-action routes answer it). */
export function actionRecord(scope: Scope, r: ResourceNode, key: string, a: StoredAction) {
  return {
    id: a.id ?? null,
    key,
    name: a.name ?? key,
    description: a.description ?? null,
    attributes: a.attributes ?? {},
    permission_name: `${r.key}:${key}`,
    resource: r.key,
    resource_id: r.id,
    ...scoped(scope),
    created_at: a.created_at ?? r.created_at ?? null,
    updated_at: a.updated_at ?? r.updated_at ?? null,
  };
}

/**
 * A resource's actions one at a time (Permit's `/resources/{r}/actions[/{a}]`). They live on
 * the resource node (`actions`, `actions_json`); removing one drops it from every role's
 * permissions in the same statement (schema/updateResource).
 */
export class ActionsService {
  constructor(private readonly store: SchemaStore) {}

  private view(scope: Scope, r: ResourceNode, key: string, a: StoredAction) {
    return actionRecord(scope, r, key, a);
  }

  /** The resource and its actions; for a write (`forUpdate`), read under the resource's lock. */
  private async resource(tx: Tx, scope: Scope, ref: string, forUpdate = false) {
    const r = forUpdate ? await this.store.lockedResource(tx, scope.envId, ref) : await this.store.getResource(tx, scope.envId, ref);
    if (!r) throw notFound('Resource', ref);
    const blocks: Record<string, StoredAction> = Object.assign(Object.create(null), r.actions_json ? JSON.parse(r.actions_json) : {});
    for (const k of r.actions ?? []) if (!Object.hasOwn(blocks, k)) blocks[k] = {};
    return { r, blocks };
  }

  /** The key of the action `ref` names (its key, else its id). */
  private keyOf(blocks: Record<string, StoredAction>, r: ResourceNode, ref: string): string {
    if (Object.hasOwn(blocks, ref)) return ref;
    const byId = Object.keys(blocks).find((k) => blocks[k].id === ref);
    if (byId === undefined) throw notFound(`Action of resource ${JSON.stringify(r.key)}`, ref);
    return byId;
  }

  private async save(tx: Tx, scope: Scope, r: ResourceNode, blocks: Record<string, StoredAction>) {
    await this.store.updateResource(tx, scope.envId, r.key, {
      name: null,
      nowIso: new Date().toISOString(),
      actions: Object.keys(blocks),
      actions_json: JSON.stringify(blocks),
    });
  }

  async create(scope: Scope, resourceRef: string, input: ActionInput) {
    const attributes = attributesJson(input.attributes);
    return this.store.write(async (tx) => {
      const { r, blocks } = await this.resource(tx, scope, resourceRef, true);
      if (Object.hasOwn(blocks, input.key)) throw duplicate(`Action of resource ${JSON.stringify(r.key)}`, input.key);
      // A permission names an action or an action group by the same text: the two never share a key.
      if ((r.action_groups ?? []).includes(input.key)) throw duplicate(`Action group of resource ${JSON.stringify(r.key)}`, input.key);
      const now = new Date().toISOString();
      blocks[input.key] = {
        id: randomUUID(),
        name: input.name,
        description: input.description ?? null,
        attributes: attributes ? JSON.parse(attributes) : {},
        created_at: now,
        updated_at: now,
      };
      await this.save(tx, scope, r, blocks);
      return this.view(scope, r, input.key, blocks[input.key]);
    });
  }

  async get(scope: Scope, resourceRef: string, ref: string) {
    return this.store.read(async (tx) => {
      const { r, blocks } = await this.resource(tx, scope, resourceRef);
      const key = this.keyOf(blocks, r, ref);
      return this.view(scope, r, key, blocks[key]);
    });
  }

  async update(scope: Scope, resourceRef: string, ref: string, patch: Partial<Omit<ActionInput, 'key'>>) {
    const attributes = attributesJson(patch.attributes);
    return this.store.write(async (tx) => {
      const { r, blocks } = await this.resource(tx, scope, resourceRef, true);
      const key = this.keyOf(blocks, r, ref);
      const b = blocks[key];
      blocks[key] = {
        ...b,
        id: b.id ?? randomUUID(),
        name: patch.name ?? b.name ?? key,
        description: patch.description !== undefined ? patch.description : (b.description ?? null),
        attributes: attributes ? JSON.parse(attributes) : (b.attributes ?? {}),
        updated_at: new Date().toISOString(),
      };
      await this.save(tx, scope, r, blocks);
      return this.view(scope, r, key, blocks[key]);
    });
  }

  async remove(scope: Scope, resourceRef: string, ref: string) {
    await this.store.write(async (tx) => {
      const { r, blocks } = await this.resource(tx, scope, resourceRef, true);
      delete blocks[this.keyOf(blocks, r, ref)];
      await this.save(tx, scope, r, blocks);
      // Set rules on the action go with it.
      await this.store.deleteDanglingConditions(tx, scope.envId);
    });
  }
}
