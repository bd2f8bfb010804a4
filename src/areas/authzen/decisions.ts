import type { Scope } from '../../auth/types';
import { NotFound } from '../../db/storeErrors';
import type { ListObjectsService } from '../decisions/listObjects';
import type { CheckQuery, DecisionService } from '../decisions/service';
import type { SchemaService } from '../schema/service';

/**
 * The one door from the AuthZEN area to the decisions (docs/authzen.md): every question an
 * AuthZEN request asks goes through these four functions, and nothing else of this area calls
 * the decision services. A question is what `/allowed` takes (user with attributes, action,
 * resource with tenant and attributes, context), so each AuthZEN answer is the answer of the same
 * question on the decision endpoints.
 */
type Bag = Record<string, unknown>;

/** One permission question, as the decision endpoints take it. */
export type Question = CheckQuery;

/** A subject search: who may do `action` on the resource (by key, or the type alone). */
export interface SubjectsQuery {
  action: string;
  resource: CheckQuery['resource'];
  context: Bag;
}

/** A resource search: the instances of `type` on which the user may do `action`, one page. */
export interface ResourcesQuery {
  user: { key: string; attributes: Bag | null };
  action: string;
  type: string;
  tenant: string | null;
  context: Bag;
  pageSize: number;
  token: string | null;
}

/** The most questions one call of the bulk check takes (POST /allowed/bulk). */
const BULK_MAX = 100;

export class AuthzenDecisions {
  constructor(
    private readonly decisions: DecisionService,
    private readonly listing: ListObjectsService,
    private readonly schema: SchemaService,
  ) {}

  /**
   * The answers, in order: one question is the single check of `POST /allowed` (its cache and
   * batching), more the bulk check of `POST /allowed/bulk` (by 100).
   */
  async decide(scope: Scope, questions: Question[]): Promise<{ allow: boolean[]; depthLimited?: true }> {
    if (questions.length === 0) return { allow: [] };
    if (questions.length === 1) {
      const one = await this.decisions.allowed(scope, questions[0]);
      return one.depthLimited ? { allow: [one.allow], depthLimited: true } : { allow: [one.allow] };
    }
    const allow: boolean[] = [];
    let depthLimited = false;
    for (let i = 0; i < questions.length; i += BULK_MAX) {
      const part = await this.decisions.allowedBulk(scope, questions.slice(i, i + BULK_MAX));
      allow.push(...part.allow.map((a) => a.allow));
      depthLimited ||= part.depthLimited === true;
    }
    return depthLimited ? { allow, depthLimited: true } : { allow };
  }

  /** Every user allowed (authorized users), sorted by key. */
  async subjects(scope: Scope, q: SubjectsQuery): Promise<string[]> {
    const found = await this.decisions.authorizedUsers(scope, q);
    return Object.keys(found.users).sort();
  }

  /** One page of the instances allowed (list-objects), in key order, and the token of the next page (null: none). */
  async resources(scope: Scope, q: ResourcesQuery): Promise<{ keys: string[]; next: string | null }> {
    const page = await this.listing.listObjects(scope, {
      user: q.user,
      action: q.action,
      resource_type: q.type,
      tenant: q.tenant,
      context: q.context,
      page_size: q.pageSize,
      continuation_token: q.token,
    });
    return { keys: page.objects.map((o) => o.key), next: page.continuation_token };
  }

  /**
   * The actions of the resource's type the user may do on it: each action of the type asked as
   * one question with everything the request sent (the user's permissions on that one resource).
   * A type that does not exist has none.
   */
  async actions(scope: Scope, q: Omit<Question, 'action'>): Promise<string[]> {
    let names: string[];
    try {
      names = Object.keys((await this.schema.getResource(scope, q.resource.type)).actions).sort();
    } catch (err) {
      if (err instanceof NotFound) return [];
      throw err;
    }
    const { allow } = await this.decide(
      scope,
      names.map((action) => ({ ...q, action })),
    );
    return names.filter((_, i) => allow[i]);
  }
}
