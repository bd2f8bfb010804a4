import { type Http, type Page, path } from './http.js';
import { cookieOf, type SessionRef } from './elements.js';

/** List filters and paging, sent as HTTP headers (seed 4.2). */
export interface RequestFilters<S extends string> {
  status?: S;
  resource?: string;
  resource_instance?: string;
  page?: number;
  /** 1..100, default 30. */
  per_page?: number;
}

/**
 * What operation approvals and access requests share, as the logged-in user of `session`:
 * every call sends the session cookie and the `element_id` header; reading, listing, the
 * reviewer comment, deny and cancel work alike (docs/behaviour.md sections 7 and 11).
 */
export abstract class ElementsRequests<R, I, S extends string> {
  protected abstract readonly segment: string;

  constructor(
    protected readonly http: Http,
    private readonly session: SessionRef,
    readonly elementsConfigId: string,
  ) {}

  protected async call<T>(method: string, rest: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const s = await this.http.scope();
    const at = path`/v2/elements/${s.project}/${s.env}/config/${this.elementsConfigId}/` + this.segment + rest;
    const headers = { cookie: cookieOf(this.session), element_id: this.elementsConfigId, ...extra };
    return this.http.request<T>(method, at, { auth: false, headers, body });
  }

  /** Reviewers and the requester; anyone else gets 404. */
  get(id: string): Promise<R> {
    return this.call('GET', path`/${id}`);
  }

  /** One page, newest first: reviewers see every request of the config in their tenant, others their own. */
  list(filters: RequestFilters<S> = {}): Promise<Page<I>> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== null) headers[k] = String(v);
    return this.call('GET', '', undefined, headers);
  }

  /** Every request matching `filters`, page after page (`per_page` default 100). */
  async *all(filters: Omit<RequestFilters<S>, 'page'> = {}): AsyncGenerator<I, void, undefined> {
    const per_page = filters.per_page ?? 100;
    for (let page = 1; ; page++) {
      const res = await this.list({ ...filters, page, per_page });
      yield* res.data;
      if (page >= res.page_count || res.data.length === 0) return;
    }
  }

  /** Sets the reviewer comment (reviewer, any state). */
  updateReviewer(id: string, reviewerComment: string | null): Promise<R> {
    return this.call('PATCH', path`/${id}/reviewer`, { reviewer_comment: reviewerComment });
  }

  /** Denies a pending request (409 INVALID_STATE otherwise). */
  deny(id: string, reviewerComment?: string): Promise<R> {
    return this.call('PUT', path`/${id}/deny`, reviewerComment === undefined ? {} : { reviewer_comment: reviewerComment });
  }

  /** Cancels one's own pending request; the answer keeps the original `reason`. */
  cancel(id: string, reason?: string): Promise<R> {
    return this.call('PUT', path`/${id}/cancel`, reason === undefined ? {} : { reason });
  }
}
