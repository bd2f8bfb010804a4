import { Api } from './api/index.js';
import { AccessRequests } from './accessRequests.js';
import { Approvals } from './approvals.js';
import {
  Decisions,
  type AuthorizedUsers,
  type CheckQuery,
  type ExplainResult,
  type ResourceRef,
  type UserPermissions,
  type UserPermissionsQuery,
  type UserRef,
} from './decisions.js';
import { Elements, type SessionRef } from './elements.js';
import { type ClientOptions, Http, type Scope } from './http.js';

/**
 * The graph-authz client.
 *
 * ```ts
 * const authz = new AuthzClient({ baseUrl: 'http://127.0.0.1:8080', token: process.env.AUTHZ_KEY! });
 * await authz.api.groups.create({ group_instance_key: 'eng', group_tenant: 'acme' });
 * if (await authz.check('alice', 'read', 'doc:report')) { ... }
 * ```
 *
 * With an environment key, project and environment come from the key (asked once, lazily);
 * with the admin key, pass `project` and `env`.
 */
export class AuthzClient {
  /** Schema, facts, groups and provisioning collections. */
  readonly api: Api;
  /** The login step (`loginAs`/`logout`) and elements configs. */
  readonly elements: Elements;
  private readonly http: Http;
  private readonly decisions: Decisions;

  constructor(options: ClientOptions) {
    this.http = new Http(options);
    this.api = new Api(this.http);
    this.elements = new Elements(this.http);
    this.decisions = new Decisions(this.http);
  }

  /** The project and environment the client works in (resolved through the key when not given). */
  scope(): Promise<Scope> {
    return this.http.scope();
  }

  /** May `user` do `action` on `resource` (`"type:key"`, `"type"` or `{type, key?, tenant?}`)? */
  check(user: UserRef, action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<boolean> {
    return this.decisions.check(user, action, resource, context);
  }

  /** Up to 100 checks in one call; answers in order. */
  bulkCheck(queries: CheckQuery[]): Promise<boolean[]> {
    return this.decisions.bulkCheck(queries);
  }

  /** A check with its explanation: every granting path, or why not. */
  explain(user: UserRef, action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<ExplainResult> {
    return this.decisions.explain(user, action, resource, context);
  }

  /** Everything a user may do, per instance (`"type:key"`) and tenant (`"__tenant:t"`); Permit's signature. */
  getUserPermissions(user: UserRef, tenants?: string[], resources?: string[], resourceTypes?: string[]): Promise<UserPermissions> {
    const q: UserPermissionsQuery = { user };
    if (tenants) q.tenants = tenants;
    if (resources) q.resources = resources;
    if (resourceTypes) q.resource_types = resourceTypes;
    return this.decisions.getUserPermissions(q);
  }

  /** Every user allowed `action` on `resource`, with the granting assignments. */
  authorizedUsers(action: string, resource: ResourceRef, context?: Record<string, unknown>): Promise<AuthorizedUsers> {
    return this.decisions.authorizedUsers(action, resource, context);
  }

  /**
   * Operation approvals of the elements config `elementsConfigId`, as the user of `session`
   * (a {@link Elements.loginAs} result or its cookie string).
   */
  approvals(session: SessionRef, elementsConfigId: string): Approvals {
    return new Approvals(this.http, session, elementsConfigId);
  }

  /** Access requests of the elements config `elementsConfigId` (an `access_request` config), as the user of `session`. */
  accessRequests(session: SessionRef, elementsConfigId: string): AccessRequests {
    return new AccessRequests(this.http, session, elementsConfigId);
  }
}

export { Api } from './api/index.js';
export * from './api/index.js';
export * from './accessRequests.js';
export * from './approvals.js';
export * from './elementsRequests.js';
export * from './decisions.js';
export * from './elements.js';
export * from './errors.js';
export { Http, path } from './http.js';
export type { ClientOptions, KeyScope, Page, PageParams, RawResponse, RequestOptions, Scope } from './http.js';
export type * from './types.js';
export default AuthzClient;
