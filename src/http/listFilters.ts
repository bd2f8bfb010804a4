import { paging } from './paging';
import type { Req } from './routeTable';

/** The filters of an elements list (operation approvals, access requests), as headers or query parameters. */
export type ListFilters = { status?: string; resource?: string; resource_instance?: string; page?: number; per_page?: number };

/**
 * Seed 4.2: filters come as headers; query parameters of the same names are read too (headers win).
 * `stored` maps the status filter's wire value to the stored one (access requests spell them otherwise).
 */
export function listArgs<S = string>(r: Req<unknown, ListFilters, unknown, ListFilters>, stored: (status: string) => S = (x) => x as S) {
  const pick = <K extends keyof ListFilters>(k: K) => r.headers[k] ?? r.query[k];
  const status = pick('status') as string | undefined;
  return {
    filter: {
      status: status === undefined ? null : stored(status),
      resource: pick('resource') ?? null,
      instance: pick('resource_instance') ?? null,
    },
    page: paging({ page: pick('page') as number | undefined, per_page: pick('per_page') as number | undefined }),
  };
}
