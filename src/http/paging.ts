import { pageTooLarge } from '../errors';

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
