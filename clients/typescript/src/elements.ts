import { UnexpectedError } from './errors.js';
import { type Http, type Page, type PageParams, path } from './http.js';

export type ApprovalLevel = 'LEVEL_1' | 'LEVEL_2' | 'LEVEL_3' | 'LEVEL_4';

export interface ElementsConfigCreate {
  key: string;
  name: string;
  elements_type: 'operation_approval' | 'access_request';
  /** Where approval and access request events are POSTed (signed with `webhook_secret`). */
  webhook?: { url: string; bearer_token?: string };
  /** The governed resources: each gets actions `operate`/`review` and roles `_Reviewer_`/`_Approved_`. */
  settings?: { resources?: string[] };
  /** Tenant roles per level; LEVEL_1 and LEVEL_2 roles make reviewers. */
  roles_to_levels: Partial<Record<ApprovalLevel, string[]>>;
}
export type ElementsConfigUpdate = Partial<Pick<ElementsConfigCreate, 'name' | 'settings' | 'roles_to_levels'>> & {
  webhook?: ElementsConfigCreate['webhook'] | null;
};
export interface ElementsConfig {
  id: string;
  key: string;
  name: string;
  elements_type: string;
  settings: { resources: string[] };
  roles_to_levels: Record<ApprovalLevel, string[]>;
  webhook: { url: string } | null;
  /** Only in the answer that created the config (or gave an older one its first secret): the webhook HMAC key. */
  webhook_secret?: string;
  organization_id: string;
  project_id: string;
  environment_id: string;
  created_at: string;
  updated_at: string;
}

export interface LoginAsInput {
  /** The user's key (from the application's own authentication). */
  userId: string;
  /** The tenant key (or id); the user must belong to it, else 404 USER_NOT_FOUND. */
  tenant: string;
}
/** The answer of the login step, plus the cookie to forward to the browser or to {@link Approvals}. */
export interface LoginResult {
  /** `authz_session=<token>`: the cookie to send with approval calls. */
  cookie: string;
  /** The whole `Set-Cookie` header (attributes included), to relay to a browser as is. */
  setCookie: string;
  token: string;
  element_bearer_token: string;
  redirect_url: string;
  user_id: string;
  tenant_id: string;
  expires_at: string;
}

/** Session cookie of a login result, or a cookie string as is. */
export type SessionRef = string | Pick<LoginResult, 'cookie'>;
export const cookieOf = (s: SessionRef): string => (typeof s === 'string' ? s : s.cookie);

/** Elements configs: `/v2/elements/{project}/{env}/config`. */
export class ElementsConfigsApi {
  constructor(private readonly http: Http) {}

  private async at(rest = ''): Promise<string> {
    const s = await this.http.scope();
    return path`/v2/elements/${s.project}/${s.env}/config` + rest;
  }

  async create(data: ElementsConfigCreate): Promise<ElementsConfig> {
    return this.http.request('POST', await this.at(), { body: data });
  }
  async list(params: PageParams = {}): Promise<Page<ElementsConfig>> {
    return this.http.request('GET', await this.at(), { query: { ...params } });
  }
  /** By id or key. */
  async get(config: string): Promise<ElementsConfig> {
    return this.http.request('GET', await this.at(path`/${config}`));
  }
  async update(config: string, data: ElementsConfigUpdate): Promise<ElementsConfig> {
    return this.http.request('PATCH', await this.at(path`/${config}`), { body: data });
  }
  /** Deletes the config and its operation approvals. */
  async delete(config: string): Promise<void> {
    return this.http.request('DELETE', await this.at(path`/${config}`));
  }
}

/** `client.elements`: the server-side login step and elements configs (docs/behaviour.md sections 6 and 7). */
export class Elements {
  readonly configs: ElementsConfigsApi;

  constructor(private readonly http: Http) {
    this.configs = new ElementsConfigsApi(http);
  }

  /**
   * Logs `userId` in to the elements of `tenant` (seed 4.3). Call it from the application's
   * backend with the SDK key; forward `cookie` (or the `setCookie` header) to the user's session.
   */
  async loginAs(input: LoginAsInput): Promise<LoginResult> {
    const s = await this.http.scope();
    const res = await this.http.send<Omit<LoginResult, 'cookie' | 'setCookie'>>('POST', '/v2/auth/elements_login_as', {
      body: { user_id: input.userId, tenant_id: input.tenant },
      query: { proj_id: s.project, env_id: s.env },
    });
    const setCookie = setCookies(res.headers).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!setCookie) {
      throw new UnexpectedError(
        res.status,
        { error_code: 'UNEXPECTED_ERROR', message: 'The login step answered without a session cookie.' },
        'POST /v2/auth/elements_login_as',
      );
    }
    return { ...res.body, cookie: setCookie.split(';')[0], setCookie };
  }

  /** Ends the session: the user leaves the tenant, and later calls with the cookie answer 401. */
  async logout(session: SessionRef): Promise<void> {
    await this.http.request('POST', '/v2/auth/logout', { auth: false, headers: { cookie: cookieOf(session) } });
  }
}

/** Name of the session cookie. */
export const SESSION_COOKIE = 'authz_session';

function setCookies(headers: Headers): string[] {
  const h = headers as Headers & { getSetCookie?: () => string[] };
  if (typeof h.getSetCookie === 'function') return h.getSetCookie();
  const one = headers.get('set-cookie');
  return one ? one.split(/,(?=\s*[^;,=\s]+=)/).map((c) => c.trim()) : [];
}
