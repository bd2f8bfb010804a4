import { type Db, keyed, type Tx } from '../../db/db';
import { Duplicate, NotFound } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';
import type { StatementRows } from '../../db/statements.generated';
import type { ElementsConfigNode } from '../../db/records';

export type { ElementsConfigNode } from '../../db/records';
/** elements/lockResources' row (its `// @row` header). */
export type GovernedResource = StatementRows['elements/lockResources'];
/** A resource's new action list and map, computed by the domain. */
export interface GovernedUpdate {
  key: string;
  actions: string[];
  actions_json: string;
}
export interface ConfigWrite {
  name: string | null;
  settings_json: string | null;
  roles_to_levels_json: string | null;
  resources: string[] | null;
  /** Whether the write sets the webhook (create always does; an update when the patch names it). */
  setWebhook: boolean;
  webhook_url: string | null;
  webhook_bearer_token: string | null;
  /** The secret a config gets when it has none yet (null: none yet, a policy apply). */
  webhook_secret: string | null;
  nowIso: string;
}

/** Elements configs; writing one also makes its governed resources ready for approvals. */
export class ElementsStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      createConfig: 'elements/createConfig',
      getConfig: 'elements/getConfig',
      listConfigs: 'elements/listConfigs',
      updateConfig: 'elements/updateConfig',
      deleteConfig: 'elements/deleteConfig',
      existingRoles: 'elements/existingRoles',
      lockResources: 'elements/lockResources',
      governResources: 'elements/governResources',
    });
  }

  async existingRoles(env: string, keys: string[]): Promise<string[]> {
    const [row] = await this.db.readRows(this.q.existingRoles, { env, keys });
    return row?.keys ?? [];
  }

  /**
   * Creates (id absent from the graph) or updates a config and, in the same transaction, locks
   * its governed resources and lets `govern` compute their new actions. `govern` receives the
   * resources found; it throws (rolling everything back) when one is missing.
   */
  async writeConfig(
    env: string,
    c: ConfigWrite & { id: string; key?: string; elements_type?: string; create: boolean },
    govern: (found: GovernedResource[]) => GovernedUpdate[],
  ): Promise<ElementsConfigNode> {
    try {
      return await this.db.write((tx) => this.writeConfigIn(tx, env, c, govern));
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Elements config', c.key ?? c.id);
      throw err;
    }
  }

  /** writeConfig inside a transaction the caller holds (a policy apply writes configs with the rest of the policy). */
  async writeConfigIn(
    tx: Tx,
    env: string,
    c: ConfigWrite & { id: string; key?: string; elements_type?: string; create: boolean },
    govern: (found: GovernedResource[]) => GovernedUpdate[],
  ): Promise<ElementsConfigNode> {
    const found = c.resources?.length ? await tx.rows(this.q.lockResources, { env, keys: c.resources }) : [];
    const updates = govern(found);
    const row = c.create ? await tx.one(this.q.createConfig, { env, ...c }) : await tx.one(this.q.updateConfig, { env, ...c });
    // Throwing rolls back the resource locks taken above (a config deleted meanwhile).
    if (!row) throw new NotFound('Elements config', c.key ?? c.id);
    if (updates.length) await tx.rows(this.q.governResources, { env, resources: updates, nowIso: c.nowIso });
    return row.config;
  }

  async getConfig(env: string, ref: string): Promise<ElementsConfigNode | undefined> {
    const [row] = await this.db.readRows(this.q.getConfig, { env, ref });
    return keyed(row?.config);
  }

  async listConfigs(env: string, page: Page) {
    return listOf(await this.db.readRows(this.q.listConfigs, { env, skip: page.skip, limit: page.perPage }));
  }

  async deleteConfig(env: string, id: string): Promise<boolean> {
    return this.db.write((tx) => this.deleteConfigIn(tx, env, id));
  }

  /** Deletes a config with its operation approvals and access requests (deleteConfig.cypher), in the caller's transaction. */
  async deleteConfigIn(tx: Tx, env: string, id: string): Promise<boolean> {
    const [row] = await tx.rows(this.q.deleteConfig, { env, id });
    return (row?.deleted ?? 0) > 0;
  }
}
