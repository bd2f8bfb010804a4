import { ConfigurationError, errorFor, type ErrorBody, UnavailableError, UnexpectedError } from './errors.js';

/** Options of {@link AuthzClient}. */
export interface ClientOptions {
  /** Base address of the service, e.g. `http://127.0.0.1:8080` (no `/v2`). */
  baseUrl: string;
  /** The API key: an environment key, or the admin key. */
  token: string;
  /** Project id or key. With an environment key it defaults to the key's project; with the admin key it is required for scoped calls. */
  project?: string;
  /** Environment id or key (see `project`). */
  env?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

/** The project and environment the scoped calls go to (ids or keys). */
export interface Scope {
  project: string;
  env: string;
}

/** The list envelope of every collection. */
export interface Page<T> {
  data: T[];
  total_count: number;
  page_count: number;
}

/** Paging of every list (page >= 1, per_page 1..100; above 100 the service answers 422). */
export interface PageParams {
  page?: number;
  per_page?: number;
}

/** A list repeats the parameter (`?user=a&user=b`). */
export type QueryValue = string | number | boolean | null | undefined | readonly string[];

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** `false`: do not send the API key (session calls). */
  auth?: boolean;
}

export interface RawResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Builds a path from a template, `encodeURIComponent`-ing every interpolated value:
 * path`/v2/facts/${proj}/${env}/users/${key}` is safe for keys with `/`, quotes or unicode.
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((out, s, i) => out + s + (i < values.length ? encodeURIComponent(String(values[i])) : ''), '');
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) q.append(k, item);
    else if (v !== undefined && v !== null) q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The transport shared by every part of the client: auth header, JSON, typed errors, the scope. */
export class Http {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private scopePromise: Promise<Scope> | undefined;

  constructor(readonly options: ClientOptions) {
    if (!options.baseUrl) throw new ConfigurationError('baseUrl is required');
    if (!options.token) throw new ConfigurationError('token is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Sends a request; answers the parsed body of a 2xx, throws a typed {@link AuthzError} otherwise. */
  async request<T>(method: string, p: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.send<T>(method, p, opts)).body;
  }

  /** Like {@link request}, but also answers status and headers. */
  async send<T>(method: string, p: string, opts: RequestOptions = {}): Promise<RawResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...opts.headers };
    if (opts.auth !== false) headers.authorization = `Bearer ${this.options.token}`;
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const what = `${method} ${p}`;
    let res: Response;
    try {
      res = await this.fetchImpl(this.baseUrl + p + queryString(opts.query), { method, headers, body: payload });
    } catch (err) {
      const e = new UnexpectedError(0, { error_code: 'NETWORK_ERROR', message: `${what} failed: ${(err as Error).message}` }, what);
      (e as { cause?: unknown }).cause = err;
      throw e;
    }
    const body = await readBody(res);
    if (!res.ok) {
      const errBody = body && typeof body === 'object' ? (body as ErrorBody) : undefined;
      const err = errorFor(res.status, errBody, what, body);
      if (err instanceof UnavailableError) {
        const after = Number(res.headers.get('retry-after'));
        err.retryAfterSeconds = Number.isFinite(after) && after > 0 ? after : undefined;
      }
      throw err;
    }
    return { status: res.status, body: body as T, headers: res.headers };
  }

  /**
   * The project and environment of scoped calls: the ones given to the client, else those of the
   * environment key (`GET /v2/api-key/scope`, asked once). The admin key has none: give them.
   */
  scope(): Promise<Scope> {
    const { project, env } = this.options;
    if (project && env) return Promise.resolve({ project, env });
    this.scopePromise ??= this.request<KeyScope>('GET', '/v2/api-key/scope').then(
      (s) => {
        const resolved = { project: project ?? s.project_id, env: env ?? s.environment_id };
        if (!resolved.project || !resolved.env) {
          throw new ConfigurationError('This key is not bound to an environment (admin key): pass `project` and `env` to the client.');
        }
        return resolved as Scope;
      },
      (err: unknown) => {
        this.scopePromise = undefined;
        throw err;
      },
    );
    return this.scopePromise;
  }

  /** `/v2/<area>/<project>/<env>` with both segments encoded. */
  async base(area: string): Promise<string> {
    const s = await this.scope();
    return `/v2/${area}/${encodeURIComponent(s.project)}/${encodeURIComponent(s.env)}`;
  }
}

/** Answer of `GET /v2/api-key/scope`. */
export interface KeyScope {
  organization_id: string;
  project_id: string | null;
  environment_id: string | null;
}
