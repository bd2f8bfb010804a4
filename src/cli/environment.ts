import { randomUUID } from 'node:crypto';
import { type Api, CliError } from './api';

/**
 * The environments test files run in: a throwaway one made and deleted by the command (admin
 * key), or an existing empty one (`--env`, a write key suffices) that is emptied again after.
 */
type Item = { key: string; id?: string; group_instance_key?: string };
const itemsOf = (body: unknown): Item[] => (Array.isArray(body) ? body : ((body as { data?: Item[] } | undefined)?.data ?? []));

export class Environments {
  constructor(
    private readonly api: Api,
    private readonly project: string,
  ) {}

  private path(env: string, rest: string) {
    const [area, ...tail] = rest.split('/');
    return `/v2/${area}/${encodeURIComponent(this.project)}/${encodeURIComponent(env)}/${tail.join('/')}`;
  }

  /** Every record of a collection (pages of 100). */
  private async all(env: string, rest: string): Promise<Item[]> {
    const out: Item[] = [];
    for (let page = 1; ; page++) {
      const items = itemsOf(await this.api.ok('GET', `${this.path(env, rest)}${rest.includes('?') ? '&' : '?'}page=${page}&per_page=100`));
      out.push(...items);
      if (items.length < 100) return out;
    }
  }

  async createThrowaway(label: string): Promise<string> {
    const key = `test-${label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60)}-${randomUUID().slice(0, 8)}`;
    await this.api.ok('POST', `/v2/projects/${encodeURIComponent(this.project)}/envs`, { key, name: `graph-authz test ${label}` });
    return key;
  }

  async deleteEnv(env: string): Promise<void> {
    await this.api.ok('DELETE', `/v2/projects/${encodeURIComponent(this.project)}/envs/${encodeURIComponent(env)}`);
  }

  /** What the environment holds beyond a new one's default tenant (empty: nothing). */
  async contents(env: string, defaultTenant: string): Promise<string[]> {
    const found: string[] = [];
    const count = async (what: string, rest: string, skip: (i: Item) => boolean = () => false) => {
      const n = (await this.all(env, rest)).filter((i) => !skip(i)).length;
      if (n) found.push(`${n} ${what}`);
    };
    await count('resources', 'schema/resources');
    await count('tenant roles', 'schema/roles');
    await count('users', 'facts/users');
    await count('tenants', 'facts/tenants', (t) => t.key === defaultTenant);
    await count('elements configs', 'elements/config');
    return found;
  }

  /** Removes everything a test put there: groups, elements configs, users, tenants (but the default), resources (instances with them), tenant roles. */
  async empty(env: string, defaultTenant: string): Promise<void> {
    for (const g of await this.all(env, 'schema/groups'))
      await this.gone('DELETE', this.path(env, `schema/groups/${encodeURIComponent(g.group_instance_key ?? g.key)}`));
    for (const c of await this.all(env, 'elements/config'))
      await this.gone('DELETE', this.path(env, `elements/config/${encodeURIComponent(c.id ?? c.key)}`));
    for (const u of await this.all(env, 'facts/users'))
      await this.gone('DELETE', this.path(env, `facts/users/${encodeURIComponent(u.key)}`));
    for (const r of await this.all(env, 'schema/resources'))
      await this.gone('DELETE', this.path(env, `schema/resources/${encodeURIComponent(r.key)}`));
    for (const r of await this.all(env, 'schema/roles'))
      await this.gone('DELETE', this.path(env, `schema/roles/${encodeURIComponent(r.key)}`));
    for (const t of await this.all(env, 'facts/tenants')) {
      if (t.key !== defaultTenant) await this.gone('DELETE', this.path(env, `facts/tenants/${encodeURIComponent(t.key)}`));
    }
  }

  /** A deletion; already gone (404, deleted with something else) is fine. */
  private async gone(method: string, path: string) {
    const res = await this.api.call(method, path);
    if (res.status >= 300 && res.status !== 404) throw new CliError(`${method} ${path}: ${res.status} while emptying the environment`, 1);
  }
}
