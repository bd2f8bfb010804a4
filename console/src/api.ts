/**
 * Calls to the service with the admin key. The key lives in sessionStorage (this tab only, gone
 * when it closes) and travels only in the Authorization header, never in a URL.
 */
const KEY = 'authz.adminKey';

export const adminKey = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A read answered 503 (the database did not answer in time) is asked again this many times, after its Retry-After (at most 5 s). */
const READ_RETRIES = 2;

// biome-ignore lint/suspicious/noExplicitAny: an answer is JSON whose type the caller names; `any` keeps untyped calls short
export async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
  /** A reviewer's elements session instead of the admin key (the queue's decisions), and its element. */
  as?: { token: string; elementId: string },
): Promise<T> {
  // `x-authz-actor: console`: the service records the console's writes with the actor `admin:console`
  // (honoured with the admin key only, src/auth/actor.ts), so the audit log shows them.
  const headers: Record<string, string> = as
    ? { authorization: `Bearer ${as.token}`, element_id: as.elementId }
    : { authorization: `Bearer ${adminKey.get() ?? ''}`, 'x-authz-actor': 'console' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  // No cookies either way: a login step's session cookie is never kept by the console's tab.
  const send = () => fetch(path, { method, headers, credentials: 'omit', body: body === undefined ? undefined : JSON.stringify(body) });
  let res = await send();
  for (let retry = 0; method === 'GET' && res.status === 503 && retry < READ_RETRIES; retry++) {
    const wait = Math.min(Number(res.headers.get('retry-after')) || 1, 5);
    await new Promise((r) => setTimeout(r, wait * 1000));
    res = await send();
  }
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, parsed?.message ?? `${method} ${path}: ${res.status}`);
  return parsed as T;
}

/** The items of a list answer, paged (`{data}`) or not. */
export function itemsOf<T>(answer: unknown): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const data = (answer as { data?: unknown })?.data;
  return Array.isArray(data) ? (data as T[]) : [];
}

/** The chosen project and environment, the prefix of every scoped path. */
export const scope = { proj: '', env: '' };
export const enc = encodeURIComponent;
export const facts = (rest: string) => `/v2/facts/${enc(scope.proj)}/${enc(scope.env)}/${rest}`;
export const schema = (rest: string) => `/v2/schema/${enc(scope.proj)}/${enc(scope.env)}/${rest}`;
export const graphPath = (rest = '') => `/v2/graph/${enc(scope.proj)}/${enc(scope.env)}${rest}`;
export const allowedPath = (rest = '') => `/v2/allowed/${enc(scope.proj)}/${enc(scope.env)}${rest}`;
export const impactPath = () => `/v2/impact/${enc(scope.proj)}/${enc(scope.env)}`;
export const consolePath = (rest = '') => `/v2/console/${enc(scope.proj)}/${enc(scope.env)}${rest}`;

/** Every item of a paged list (up to `maxPages` pages of 100): a shared server holds many projects. */
export async function allPages<T>(path: string, maxPages = 50): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const items = itemsOf<T>(await api('GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}&per_page=100`));
    all.push(...items);
    if (items.length < 100) break;
  }
  return all;
}
