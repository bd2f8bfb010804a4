import type { Db, Tx } from '../../db/db';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import { Duplicate } from '../../db/storeErrors';
import { unique } from './store';
import type { ActionGroupNode } from '../../db/records';

export type { ActionGroupNode } from '../../db/records';

export interface ActionGroupFields {
  name: string | null;
  description?: string | null;
  attributes_json: string | null;
  actions: string[] | null;
  nowIso: string;
}

/**
 * A resource's action groups (docs/behaviour.md section 23): `ActionGroup` nodes keyed per
 * resource. Writing a group's actions makes again the expanded permissions of every role that
 * names it, in the same statement (cypher/fragments/expandPermissions.cypher).
 */
export class ActionGroupsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createActionGroup: 'schema/createActionGroup',
      getActionGroup: 'schema/getActionGroup',
      listActionGroups: 'schema/listActionGroups',
      updateActionGroup: 'schema/updateActionGroup',
      deleteActionGroup: 'schema/deleteActionGroup',
    });
  }

  async create(tx: Tx, env: string, resource: string, g: ActionGroupFields & { id: string; key: string; name: string }) {
    const row = await unique(
      () =>
        tx.one(this.q.createActionGroup, {
          env,
          resource,
          id: g.id,
          key: g.key,
          name: g.name,
          description: g.description ?? null,
          attributes_json: g.attributes_json ?? '{}',
          actions: g.actions ?? [],
          nowIso: g.nowIso,
        }),
      () => new Duplicate(`Action group of resource ${JSON.stringify(resource)}`, g.key),
    );
    return row?.group;
  }

  async get(tx: Tx, env: string, resource: string, ref: string): Promise<ActionGroupNode | undefined> {
    return (await tx.one(this.q.getActionGroup, { env, resource, ref }))?.group;
  }

  async list(tx: Tx, env: string, resource: string, page: Page) {
    return listOf(await tx.rows(this.q.listActionGroups, { env, resource, skip: page.skip, limit: page.perPage }));
  }

  async update(tx: Tx, env: string, resource: string, key: string, p: ActionGroupFields) {
    const row = await tx.one(this.q.updateActionGroup, {
      env,
      resource,
      key,
      name: p.name,
      description: p.description ?? null,
      setDescription: p.description !== undefined,
      attributes_json: p.attributes_json,
      actions: p.actions,
      nowIso: p.nowIso,
    });
    return row?.group;
  }

  async delete(tx: Tx, env: string, resource: string, key: string): Promise<boolean> {
    return ((await tx.one(this.q.deleteActionGroup, { env, resource, key }))?.deleted ?? 0) > 0;
  }
}
