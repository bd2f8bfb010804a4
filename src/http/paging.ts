import { invalidInput, pageTooLarge } from '../errors';

export const MAX_PER_PAGE = 100;

export interface Page {
  page: number;
  perPage: number;
  skip: number;
}

export function paging(query: { page?: number; per_page?: number }): Page {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 30;
  if (perPage > MAX_PER_PAGE) throw pageTooLarge(MAX_PER_PAGE);
  return { page, perPage, skip: (page - 1) * perPage };
}

export interface Envelope<T> {
  data: T[];
  total_count: number;
  page_count: number;
}

export function envelopeOf<T>(data: T[], total: number, p: Page): Envelope<T> {
  return { data, total_count: total, page_count: Math.ceil(total / p.perPage) };
}

/**
 * A list's answer (docs/behaviour.md section 14): a plain array where Permit answers one, the envelope when
 * the request sends `include_total_count=true` (on the endpoints where Permit takes it).
 */
export function listAnswer<T>(data: T[], total: number, p: Page, withTotal: boolean | undefined): T[] | Envelope<T> {
  return withTotal ? envelopeOf(data, total, p) : data;
}

/** A filter of Permit's that we cannot apply (docs/behaviour.md section 14): 422 naming it, never silently ignored. */
export function refuseFilter(name: string, why: string): never {
  throw invalidInput(`The query parameter ${name} is not supported here: ${why}.`, [{ path: `/query/${name}`, message: why }]);
}
