import { type Http, path } from './http.js';

/** A user: its key, or an object with `key` (Permit's user object; only `key` matters). */
export type UserRef = string | { key: string; [field: string]: unknown };

/** A resource: `"type"`, `"type:key"` (split at the first `:`), or `{type, key?, tenant?}`. */
export type ResourceRef = string | ResourceInput;
export interface ResourceInput {
  type: string;
  key?: string | null;
  tenant?: string | null;
  attributes?: Record<string, unknown>;
}

export interface CheckQuery {
  user: UserRef;
  action: string;
  resource: ResourceRef;
  context?: Record<string, unknown>;
}

export interface Explanation {
  /** Every path that grants it, e.g. `user -member-> group:eng -...-> repo:api#editor`. */
  paths: string[];
  /** Why not, when denied. */
  reason?: string;
  granting_roles: string[];
  tenant?: string;
  states_visited?: number;
}
export interface ExplainResult {
  allow: boolean;
  explanation: Explanation;
}

export interface UserPermissionsQuery {
  user: UserRef;
  tenants?: string[];
  /** `"type:key"` references. */
  resources?: string[];
  resource_types?: string[];
}
export interface UserPermissionsEntry {
  tenant: { key: string; attributes: Record<string, unknown> };
  resource: { type: string; key: string; attributes: Record<string, unknown> } | null;
  /** `"type:action"` */
  permissions: string[];
  roles: string[];
}
/** `"<type>:<key>"` or `"__tenant:<tenant>"` -> what the user may do there. */
export type UserPermissions = Record<string, UserPermissionsEntry>;

export interface AuthorizedUsers {
  resource: string;
  tenant: string;
  users: Record<string, Array<{ user: string; tenant: string; resource: string; role: string }>>;
}

/** `"type:key"` -> `{type, key}`; objects pass through (without undefined fields). */
export function toResource(ref: ResourceRef): ResourceInput {
  if (typeof ref !== 'string') {
    return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== undefined)) as unknown as ResourceInput;
  }
  const at = ref.indexOf(':');
  return at < 0 ? { type: ref } : { type: ref.slice(0, at), key: ref.slice(at + 1) };
}

const toQuery = (q: CheckQuery) => ({
  user: q.user,
  action: q.action,
  resource: toResource(q.resource),
  ...(q.context ? { context: q.context } : {}),
});

/** Permission questions: `/v2/allowed/{project}/{env}` (docs/behaviour.md section 5). */
export class Decisions {
  constructor(private readonly http: Http) {}

  private async at(rest = ''): Promise<string> {
    const s = await this.http.scope();
    return path`/v2/allowed/${s.project}/${s.env}` + rest;
  }

  /** May `user` do `action` on `resource`? Unknown user, resource or action: false. */
  async check(user: UserRef, action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<boolean> {
    const answer = await this.http.request<{ allow: boolean }>('POST', await this.at(), {
      body: toQuery({ user, action, resource, context }),
    });
    return answer.allow === true;
  }

  /** Up to 100 questions at once; the answers keep the order. */
  async bulkCheck(queries: CheckQuery[]): Promise<boolean[]> {
    const answer = await this.http.request<{ allow: Array<{ allow: boolean }> }>('POST', await this.at('/bulk'), {
      body: queries.map(toQuery),
    });
    return answer.allow.map((a) => a.allow === true);
  }

  /** Like {@link check}, with every granting path (or why not). */
  async explain(user: UserRef, action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<ExplainResult> {
    return this.http.request('POST', await this.at(), { body: toQuery({ user, action, resource, context }), query: { explain: true } });
  }

  /** Everything `user` may do, per instance and tenant. */
  async getUserPermissions(query: UserPermissionsQuery): Promise<UserPermissions> {
    return this.http.request('POST', await this.at('/user-permissions'), { body: query });
  }

  /** Every user allowed `action` on `resource`, with the assignments that grant it. */
  async authorizedUsers(action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<AuthorizedUsers> {
    return this.http.request('POST', await this.at('/authorized_users'), {
      body: { action, resource: toResource(resource), ...(context ? { context } : {}) },
    });
  }
}
