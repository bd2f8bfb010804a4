import type { Scope } from '../../auth/types';
import { NotFound } from '../../db/storeErrors';
import type { DecisionEngine } from '../decisions/engine';
import type { ListObjectsService } from '../decisions/listObjects';
import type { Asker, Bag, Consistency, Question, UsersQuery } from '../decisions/question';
import type { DecisionService } from '../decisions/service';
import type { SchemaService } from '../schema/service';

/**
 * The one door from the AuthZEN area to the decision engine (docs/authzen.md,
 * docs/decisions.md): every question an AuthZEN request asks goes through these four functions,
 * and nothing else of this area calls the decisions. A question is the engine's `Question`, the
 * one every decision endpoint asks, so each AuthZEN answer is the answer of the same question on
 * those endpoints, at one reading of the environment per request.
 */
export type { Consistency, Question };

/** A subject search: who may do the action on the resource (by key, or the type alone). */
export type SubjectsQuery = UsersQuery;

/** A resource search: the instances of `type` on which the user may do `action`, one page. */
export interface ResourcesQuery extends Asker {
  action: string;
  type: string;
  tenant: string | null;
  context: Bag;
  pageSize: number;
  token: string | null;
}

export class AuthzenDecisions {
  constructor(
    private readonly engine: DecisionEngine,
    /** `decide` as `/allowed` and its bulk ask it (the same answers, decision log and metrics). */
    private readonly decisions: DecisionService,
    /** list-objects' pages and tokens over the engine's `objects` enumeration. */
    private readonly listing: ListObjectsService,
    private readonly schema: SchemaService,
  ) {}

  /** The answers, in order: one question is the check of `POST /allowed`, more the bulk check of `POST /allowed/bulk`. */
  async decide(scope: Scope, questions: Question[], consistency?: Consistency): Promise<{ allow: boolean[]; depthLimited?: true }> {
    if (questions.length === 0) return { allow: [] };
    if (questions.length === 1) {
      const one = await this.decisions.allowed(scope, questions[0], { consistency });
      return one.depthLimited ? { allow: [one.allow], depthLimited: true } : { allow: [one.allow] };
    }
    return this.decisions.allowedMany(scope, questions, consistency);
  }

  /** Every user allowed (the engine's `users` enumeration: authorized users), sorted by key. */
  async subjects(scope: Scope, q: SubjectsQuery, consistency?: Consistency): Promise<string[]> {
    const found = await this.engine.enumerate({ scope, consistency }, { kind: 'users', ...q });
    return Object.keys(found.users).sort();
  }

  /** One page of the instances allowed (list-objects), in key order, and the token of the next page (null: none). */
  async resources(scope: Scope, q: ResourcesQuery, consistency?: Consistency): Promise<{ keys: string[]; next: string | null }> {
    const { pageSize, token, ...asked } = q;
    const page = await this.listing.listObjects(scope, { ...asked, pageSize, continuationToken: token }, consistency);
    return { keys: page.objects.map((o) => o.key), next: page.continuation_token };
  }

  /**
   * The actions of the resource's type the user may do on it: each action of the type asked as
   * one question with everything the request sent (the user's permissions on that one resource),
   * in one bulk decision. A type that does not exist has none.
   */
  async actions(scope: Scope, q: Omit<Question, 'action'>, consistency?: Consistency): Promise<string[]> {
    let names: string[];
    try {
      names = Object.keys((await this.schema.getResource(scope, q.type)).actions).sort();
    } catch (err) {
      if (err instanceof NotFound) return [];
      throw err;
    }
    const { allow } = await this.decide(
      scope,
      names.map((action) => ({ ...q, action })),
      consistency,
    );
    return names.filter((_, i) => allow[i]);
  }
}
