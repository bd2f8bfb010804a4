import type { Db } from '../../db/db';
import { Duplicate, StoreError } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { InstanceNode } from '../../db/records';

export type { InstanceNode } from '../../db/records';
export interface InstanceRef {
  /** "type:key" split at the first ':' (null when the reference has no ':'). */
  resource: string | null;
  key: string | null;
  ref: string;
}

/** A batch that checked out did not write whole: something it names changed while it ran (the service answers 409). */
export class BatchChanged extends StoreError {
  constructor() {
    super('a record the batch names changed while it ran');
  }
}

/** What `resolveInstances` finds of each item of a batch. */
export interface ResolvedInstance {
  tenantExists: boolean;
  resourceExists: boolean;
  existingTenant: string | null;
}

/** Resource instances (including group instances, which are `Group:Instance`). */
export class InstancesStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createInstance: 'schema/createInstance',
      getInstance: 'schema/getInstance',
      listInstances: 'schema/listInstances',
      instanceRelationships: 'schema/instanceRelationships',
      updateInstance: 'schema/updateInstance',
      deleteInstance: 'schema/deleteInstance',
      resolveInstances: 'schema/resolveInstances',
      createInstances: 'schema/createInstances',
      replaceInstances: 'schema/replaceInstances',
      deleteInstancesByRef: 'schema/deleteInstancesByRef',
    });
  }

  /**
   * Writes a batch in one statement that checks each item as it goes; only when an item did not
   * hold does it ask the graph what each item refers to (one query) for `check`, which throws the
   * domain's error for the first failing item: throwing rolls the transaction back.
   */
  async createInstances(
    env: string,
    items: { key: string; tenant: string; resource: string; attributes: string }[],
    check: (found: { tenantExists: boolean; resourceExists: boolean; existingTenant: string | null }[]) => void,
  ): Promise<number> {
    return this.db.write(async (tx) => {
      const [row] = await tx.rows(this.q.createInstances, { env, items, nowIso: new Date().toISOString() });
      if (row.written === items.length) return row.created;
      check(await tx.rows(this.q.resolveInstances, { env, items }));
      throw new BatchChanged();
    });
  }

  /**
   * Permit's bulk PUT: creates or replaces a batch in one transaction, so that it is written whole
   * or not at all. `checks.found` throws the domain's error for the first item that names no
   * resource or tenant, or an instance of another tenant; `checks.elsewhere` for an instance found
   * in another tenant by the write itself (throwing rolls the transaction back).
   */
  async replaceInstances(
    env: string,
    items: { key: string; tenant: string; resource: string; attributes: string }[],
    checks: {
      found: (found: ResolvedInstance[]) => void;
      elsewhere: (instance: { resource: string; key: string; tenant: string }) => void;
    },
  ): Promise<{ created: number; total: number }> {
    return this.db.write(async (tx) => {
      checks.found(await tx.rows(this.q.resolveInstances, { env, items }));
      const [row] = await tx.rows(this.q.replaceInstances, { env, items, nowIso: new Date().toISOString() });
      const [elsewhere] = row.elsewhere;
      if (elsewhere) checks.elsewhere(elsewhere);
      return { created: row.created, total: row.total };
    });
  }

  /** Permit's bulk DELETE: every instance named ("type:key" split, or id), or none when one is `missing`. */
  async deleteInstancesByRef(env: string, refs: InstanceRef[]): Promise<{ deleted: number; missing: string[] }> {
    const [row] = await this.db.writeRows(this.q.deleteInstancesByRef, { env, refs });
    return { deleted: row.deleted, missing: row.missing };
  }

  /** Undefined when the tenant or the resource does not exist. */
  async createInstance(
    env: string,
    i: { id: string; key: string; resource: string; tenant: string; attributes: string; nowIso: string },
  ): Promise<InstanceNode | undefined> {
    try {
      return await this.db.write(async (tx) => {
        const row = await tx.one(this.q.createInstance, { env, ...i });
        // Throwing rolls the transaction back: nothing of a refused create stays.
        if (row?.made === false) throw new Duplicate('Resource instance', `${i.resource}:${i.key}`);
        return row?.instance;
      });
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Resource instance', `${i.resource}:${i.key}`);
      throw err;
    }
  }

  async getInstance(env: string, ref: InstanceRef): Promise<InstanceNode | undefined> {
    const [row] = await this.db.readRows(this.q.getInstance, { env, ...ref });
    return row?.instance;
  }

  async listInstances(env: string, filter: { tenant: string | null; resource: string | null; search: string | null }, page: Page) {
    return listOf(await this.db.readRows(this.q.listInstances, { env, ...filter, skip: page.skip, limit: page.perPage }));
  }

  /** The tuples naming each instance (by id) as subject or object, oldest first, grouped by the instance's id. */
  async relationshipsOf(env: string, ids: string[]): Promise<Map<string, { subject: string; relation: string; object: string }[]>> {
    const by = new Map<string, { subject: string; relation: string; object: string }[]>(ids.map((id) => [id, []]));
    if (!ids.length) return by;
    const [row] = await this.db.readRows(this.q.instanceRelationships, { env, ids });
    for (const { instance, ...t } of row?.relationships ?? []) by.get(instance)?.push(t);
    return by;
  }

  async updateInstance(env: string, resource: string, key: string, attributes: string | null, nowIso: string) {
    await this.db.writeRows(this.q.updateInstance, { env, resource, key, attributes, nowIso });
  }

  async deleteInstance(env: string, resource: string, key: string): Promise<boolean> {
    const [row] = await this.db.writeRows(this.q.deleteInstance, { env, resource, key });
    return (row?.deleted ?? 0) > 0;
  }
}

/** "type:key" splits at the first ':'. */
export function splitInstanceRef(ref: string): InstanceRef {
  const at = ref.indexOf(':');
  return at < 0 ? { resource: null, key: null, ref } : { resource: ref.slice(0, at), key: ref.slice(at + 1), ref };
}
