/**
 * The command's HTTP client: every call goes through the service's public API with the same
 * Bearer key as any client. Failures become `CliError`s carrying the exit code
 * docs/behaviour.md section 16 gives them: 1 for a refused change, 2 for bad usage (no service at the URL,
 * a key that is not accepted, a project or environment that does not exist).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: an answer is JSON whose type the caller names; `any` keeps untyped calls short
export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

export interface Target {
  url: string;
  key: string;
  project: string;
  env: string;
}

export class Api {
  constructor(
    readonly url: string,
    private readonly key: string,
  ) {}

  /** The key, for the streamed calls that do not go through `call` (src/cli/snapshot.ts). */
  get keyValue(): string {
    return this.key;
  }

  /** One request; answers any HTTP status (the caller decides), throws only when the service cannot be reached. */
  // biome-ignore lint/suspicious/noExplicitAny: an answer is JSON whose type the caller names; `any` keeps untyped calls short
  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer<T>> {
    let res: Response;
    try {
      res = await fetch(this.url.replace(/\/+$/, '') + path, {
        method,
        headers: { authorization: `Bearer ${this.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new CliError(`cannot reach ${this.url}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, 2);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T };
  }

  /** A call that must succeed: an error answer becomes a CliError (401/403/404: usage, 2; the rest: refused, 1). */
  // biome-ignore lint/suspicious/noExplicitAny: an answer is JSON whose type the caller names; `any` keeps untyped calls short
  async ok<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, path, body);
    if (res.status < 300) return res.body;
    throw errorOf(method, path, res);
  }
}

export function errorOf(method: string, path: string, res: ApiAnswer): CliError {
  const b = res.body as { error_code?: string; message?: string; details?: { path: string; message: string }[] } | undefined;
  const lines = [
    `${method} ${path}: ${res.status} ${b?.error_code ?? ''} ${b?.message ?? (typeof res.body === 'string' ? res.body : '')}`.trim(),
  ];
  for (const d of b?.details ?? []) lines.push(`  ${d.path}: ${d.message}`);
  const usage = res.status === 401 || res.status === 403 || res.status === 404 || res.status === 405;
  return new CliError(lines.join('\n'), usage ? 2 : 1, res.body);
}

/** The project and environment the command works in: given, or the environment key's own. */
export async function resolveTarget(
  api: Api,
  project: string | undefined,
  env: string | undefined,
): Promise<{ project: string; env: string }> {
  if (project && env) return { project, env };
  const scope = await api.ok<{ project_id: string | null; environment_id: string | null }>('GET', '/v2/api-key/scope');
  if (!scope.project_id || !scope.environment_id) {
    throw new CliError('the admin key names no environment: pass --project and --env', 2);
  }
  return { project: project ?? scope.project_id, env: env ?? scope.environment_id };
}
