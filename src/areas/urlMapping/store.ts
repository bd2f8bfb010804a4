import type { Db, Tx } from '../../db/db';
import type { ProxyConfigNode } from '../../db/records';
import { Duplicate } from '../../db/storeErrors';
import type { Page } from '../../http/paging';
import { listOf } from '../../util/listOf';

export type { ProxyConfigNode } from '../../db/records';

export interface ProxyConfigFields {
  name: string | null;
  authMechanism: string | null;
  rulesJson: string | null;
  nowIso: string;
}

/** Proxy configs and their URL-mapping rules (docs/behaviour.md section 24): `ProxyConfig` nodes keyed per environment. */
export class UrlMappingStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      create: 'urlMapping/createProxyConfig',
      get: 'urlMapping/getProxyConfig',
      list: 'urlMapping/listProxyConfigs',
      update: 'urlMapping/updateProxyConfig',
      delete: 'urlMapping/deleteProxyConfig',
      rules: 'urlMapping/mappingRules',
    });
  }

  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.write(fn);
  }

  async create(
    tx: Tx,
    env: string,
    c: ProxyConfigFields & { id: string; key: string; name: string },
  ): Promise<ProxyConfigNode | undefined> {
    try {
      return (
        await tx.one(this.q.create, {
          env,
          id: c.id,
          key: c.key,
          name: c.name,
          authMechanism: c.authMechanism,
          rulesJson: c.rulesJson,
          nowIso: c.nowIso,
        })
      )?.config;
    } catch (err) {
      if (err instanceof Duplicate) throw new Duplicate('Proxy config', c.key);
      throw err;
    }
  }

  async get(env: string, ref: string, tx?: Tx): Promise<ProxyConfigNode | undefined> {
    const [row] = tx ? await tx.rows(this.q.get, { env, ref }) : await this.db.readRows(this.q.get, { env, ref });
    return row?.config;
  }

  async list(env: string, page: Page) {
    return listOf(await this.db.readRows(this.q.list, { env, skip: page.skip, limit: page.perPage }));
  }

  async update(tx: Tx, env: string, key: string, p: ProxyConfigFields): Promise<ProxyConfigNode | undefined> {
    return (
      await tx.one(this.q.update, { env, key, name: p.name, authMechanism: p.authMechanism, rulesJson: p.rulesJson, nowIso: p.nowIso })
    )?.config;
  }

  async delete(tx: Tx, env: string, key: string): Promise<boolean> {
    return ((await tx.one(this.q.delete, { env, key }))?.deleted ?? 0) > 0;
  }

  /** Every config's rules as stored (JSON text of each config's list), oldest config first. */
  async rules(env: string): Promise<string[]> {
    const [row] = await this.db.readRows(this.q.rules, { env });
    return row?.rules ?? [];
  }
}
