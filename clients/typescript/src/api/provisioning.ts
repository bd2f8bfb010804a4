import { type Http, type KeyScope, type Page, type PageParams, path, type Scope } from '../http.js';
import type { ApiKey, Environment, Project } from '../types.js';

/** `read` keys may only ask questions and read; `write` keys (the default) may also change the graph. */
export type AccessLevel = 'write' | 'read';

export interface ProjectCreate {
  key: string;
  name: string;
  description?: string;
}
export type EnvironmentCreate = ProjectCreate;

/** `/v2/projects` (admin key). */
export class ProjectsApi {
  constructor(private readonly http: Http) {}

  create(data: ProjectCreate): Promise<Project> {
    return this.http.request('POST', '/v2/projects', { body: data });
  }
  /** A plain array, as Permit answers (docs/behaviour.md section 14). */
  list(params: PageParams = {}): Promise<Project[]> {
    return this.http.request('GET', '/v2/projects', { query: { ...params } });
  }
  /** By id or key. */
  get(project: string): Promise<Project> {
    return this.http.request('GET', path`/v2/projects/${project}`);
  }
  /** Deletes the project and everything in it. */
  delete(project: string): Promise<void> {
    return this.http.request('DELETE', path`/v2/projects/${project}`);
  }
}

/** `/v2/projects/{project}/envs` (admin key; `get` also with the environment's own key). */
export class EnvironmentsApi {
  constructor(private readonly http: Http) {}

  create(project: string, data: EnvironmentCreate): Promise<Environment> {
    return this.http.request('POST', path`/v2/projects/${project}/envs`, { body: data });
  }
  /** A plain array, as Permit answers. */
  list(project: string, params: PageParams = {}): Promise<Environment[]> {
    return this.http.request('GET', path`/v2/projects/${project}/envs`, { query: { ...params } });
  }
  get(project: string, env: string): Promise<Environment> {
    return this.http.request('GET', path`/v2/projects/${project}/envs/${env}`);
  }
  /** Deletes the environment and everything in it. */
  delete(project: string, env: string): Promise<void> {
    return this.http.request('DELETE', path`/v2/projects/${project}/envs/${env}`);
  }
}

/** `/v2/api-key/...`: environment keys of the client's scope, or of `at` (admin key: docs/behaviour.md section 8). */
export class ApiKeysApi {
  constructor(private readonly http: Http) {}

  private async base(at?: Partial<Scope>): Promise<string> {
    const s = at?.project && at.env ? (at as Scope) : { ...(await this.http.scope()), ...at };
    return path`/v2/api-key/${s.project}/${s.env}`;
  }

  /**
   * Creates an environment key (admin key): `access_level` `write` (default) or `read` (permission
   * questions and reads only). The answer carries the `secret`, shown only this once.
   */
  async create(data: { name?: string; access_level?: AccessLevel } = {}, at?: Partial<Scope>): Promise<ApiKey & { secret: string }> {
    return this.http.request('POST', await this.base(at), { body: data });
  }
  /** A new secret for a key (admin key), shown only this once; the old one is refused from the next request on. */
  rotate(keyId: string): Promise<{ id: string; secret: string }> {
    return this.http.request('POST', path`/v2/api-key/${keyId}/rotate-secret`);
  }
  /** The environment's key as Permit's `APIKeyRead` (its oldest key), never its secret (admin key). */
  async environmentKey(at?: Partial<Scope>): Promise<ApiKey> {
    return this.http.request('GET', await this.base(at));
  }
  /** Key ids and prefixes, never secrets. */
  async list(params: PageParams = {}, at?: Partial<Scope>): Promise<Page<ApiKey>> {
    return this.http.request('GET', `${await this.base(at)}/keys`, { query: { ...params } });
  }
  /** Revokes a key: later calls with it answer 401. */
  async delete(keyId: string, at?: Partial<Scope>): Promise<void> {
    return this.http.request('DELETE', `${await this.base(at)}/${encodeURIComponent(keyId)}`);
  }
  /** The organisation, project and environment ids of the calling key (admin key: project/env null). */
  scope(): Promise<KeyScope> {
    return this.http.request('GET', '/v2/api-key/scope');
  }
}
