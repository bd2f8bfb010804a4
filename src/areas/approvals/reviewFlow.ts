import type { Scope, Session } from '../../auth/types';
import { forbidden, invalidInput, invalidState, notFound, tooManyRequests } from '../../errors';
import type { Page } from '../../http/paging';
import { now } from '../../util/time';
import type { DecisionEngine, Reading } from '../decisions/engine';
import type { Question } from '../decisions/question';
import { type ElementsConfig, type ElementsService, REVIEWER_LEVELS } from '../elements/service';
import type { WebhookOutbox } from '../webhooks/outbox';
import type { WebhookEvent } from '../webhooks/store';
import {
  type Announce,
  type ApprovalFilter,
  type ApprovalNode,
  type ApprovalPlace,
  type ApprovalStatus,
  type ApprovalStore,
  type Grant,
  RequestLimitReached,
} from './store';

/** Decision questions per round trip when finding the requests a user may review. */
const REVIEW_BATCH = 200;

/** When a grant approved now for `seconds` ends (ISO 8601, as stored on the edge); null: never. */
export const expiresAfter = (seconds: number | undefined): string | null =>
  seconds === undefined ? null : new Date(Date.now() + seconds * 1000).toISOString();

/** Which elements flow: the config type it runs on and the noun its answers use. */
/** A request's creation, answered 429 with `Retry-After` when the user reached ELEMENTS_REQUESTS_PER_HOUR. */
export async function withinRequestLimit<T>(create: Promise<T>): Promise<T> {
  try {
    return await create;
  } catch (err) {
    if (!(err instanceof RequestLimitReached)) throw err;
    throw tooManyRequests(
      `A user may create at most ${err.perHour} requests per elements config per hour; retry in ${err.seconds} s.`,
      err.seconds,
    );
  }
}

export interface FlowKind {
  elementsType: 'operation_approval' | 'access_request';
  noun: string;
  /** The request as the API answers it (also the `data` of its webhook events). */
  view: (scope: Scope, a: ApprovalNode) => unknown;
}
const EVENT_OF: Record<ApprovalStatus, WebhookEvent> = { approved: 'approved', deny: 'denied', cancel: 'canceled' };

/**
 * The review flow shared by operation approvals and access requests (docs/behaviour.md sections 7, 11):
 * every call works in the session's tenant; a reviewer of a request holds a LEVEL_1/LEVEL_2 role
 * of the config in its tenant, or is allowed `review` on its instance (directly, through groups or
 * derivations). Others see their own requests only. Answers are stored nodes; views are the callers'.
 */
export class ReviewFlow {
  constructor(
    readonly store: ApprovalStore,
    private readonly elements: ElementsService,
    private readonly decisions: DecisionEngine,
    private readonly kind: FlowKind,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Puts the event into the webhook outbox, in the transaction that makes the change. */
  announcer(scope: Scope, event: WebhookEvent): Announce {
    return (tx, a) =>
      this.outbox.announce(tx, scope.envId, { requestId: a.id, type: this.kind.elementsType, event, data: this.kind.view(scope, a) });
  }

  async list(scope: Scope, session: Session, configRef: string, filter: ApprovalFilter, page: Page) {
    const { config, place } = await this.place(scope, session, configRef);
    const user = session.userKey;
    // One reading of the environment for every question of the listing (docs/consistency.md).
    const at = await this.decisions.reading(scope);
    const everything = await this.isLevelReviewer(at, config, user, place.tenant);
    const reviewable: string[] = [];
    // Without a live grant of the user in the tenant or a set rule granting `review`, every check would deny.
    if (!everything && (await this.decisions.mayGrantIn(at, user, place.tenant, 'review'))) {
      const candidates = await this.store.reviewCandidates(place, user, filter);
      for (let i = 0; i < candidates.length; i += REVIEW_BATCH) {
        const batch = candidates.slice(i, i + REVIEW_BATCH);
        const answers = await this.decisions.decide(
          at,
          batch.map((c) => reviewQuestion(user, c.resource, c.instance, place.tenant)),
        );
        batch.forEach((c, j) => {
          if (answers[j].allow) reviewable.push(`${c.resource}:${c.instance}`);
        });
      }
    }
    return this.store.list(place, { user, everything, reviewable }, filter, page);
  }

  async setReviewerComment(scope: Scope, session: Session, configRef: string, id: string, comment: string | null | undefined) {
    const { place } = await this.reviewable(scope, session, configRef, id);
    const a = await this.store.setReviewerComment(place, id, comment, now());
    if (!a) throw notFound(this.kind.noun, id);
    return a;
  }

  /** Approve or deny; `grant` says what an approval grants, given the request (it may refuse with an error). */
  async review(
    scope: Scope,
    session: Session,
    configRef: string,
    id: string,
    status: 'approved' | 'deny',
    comment: string | null | undefined,
    grant?: (a: ApprovalNode) => Promise<Grant>,
  ) {
    const { a, place } = await this.reviewable(scope, session, configRef, id);
    if (a.status) throw this.notPending(id, a.status, status);
    const g = status === 'approved' && grant ? await grant(a) : undefined;
    return this.transition(scope, place, id, status, { reviewer: session.userKey, comment, cancelReason: null, grant: g });
  }

  async cancel(scope: Scope, session: Session, configRef: string, id: string, reason: string | undefined) {
    const { a, place, reviewer } = await this.visible(scope, session, configRef, id);
    if (a.requesting_user_id !== session.userKey) {
      throw reviewer ? forbidden(`Only the requesting user may cancel an ${this.kind.noun.toLowerCase()}.`) : notFound(this.kind.noun, id);
    }
    return this.transition(scope, place, id, 'cancel', { reviewer: null, cancelReason: reason ?? null });
  }

  /** The request when the session's user requested it or reviews it; 404 for anyone else. */
  async visible(scope: Scope, session: Session, configRef: string, id: string) {
    const { config, place } = await this.place(scope, session, configRef);
    const a = await this.store.get(place, id);
    if (!a) throw notFound(this.kind.noun, id);
    const reviewer = await this.isReviewer(scope, config, session.userKey, a);
    if (!reviewer && a.requesting_user_id !== session.userKey) throw notFound(this.kind.noun, id);
    return { a, place, reviewer };
  }

  /** The config (404 when missing, 422 when it runs another flow) and where its requests live for this session. */
  async place(scope: Scope, session: Session, configRef: string): Promise<{ config: ElementsConfig; place: ApprovalPlace }> {
    const config = await this.elements.find(scope, configRef);
    if (!config) throw notFound('Elements config', configRef);
    if (config.elementsType !== this.kind.elementsType) {
      throw invalidInput(
        `Elements config ${JSON.stringify(config.key)} is of type ${config.elementsType}, not ${this.kind.elementsType}.`,
        [{ path: '/params/elements_config_id', message: `must name an elements config of type ${this.kind.elementsType}` }],
      );
    }
    return { config, place: { env: scope.envId, config: config.id, tenant: session.tenantKey } };
  }

  private async transition(
    scope: Scope,
    place: ApprovalPlace,
    id: string,
    status: ApprovalStatus,
    t: { reviewer: string | null; comment?: string | null; cancelReason: string | null; grant?: Grant },
  ) {
    const res = await this.store.transition(place, id, { status, ...t, nowIso: now() }, this.announcer(scope, EVENT_OF[status]));
    if (!res) throw notFound(this.kind.noun, id);
    if (!res.won && res.approval.status == null && res.instanceGone) {
      const a = res.approval;
      throw invalidState(
        `Resource instance ${a.resource}:${a.resource_instance} of ${this.kind.noun.toLowerCase()} ${id} no longer exists: ` +
          'it cannot be approved (the grant would not be on that instance); it can be denied or cancelled.',
      );
    }
    if (!res.won && res.approval.status == null && res.roleGone) {
      throw invalidState(
        `Role ${JSON.stringify(t.grant?.role)} no longer exists: ${this.kind.noun.toLowerCase()} ${id} cannot be approved with it; ` +
          'it can be denied or cancelled (or, for an access request, approved with another role).',
      );
    }
    if (!res.won) throw this.notPending(id, res.approval.status, status);
    return res.approval;
  }

  private notPending(id: string, current: ApprovalStatus | null, wanted: ApprovalStatus) {
    const verb = wanted === 'deny' ? 'denied' : wanted === 'cancel' ? 'cancelled' : 'approved';
    return invalidState(`${this.kind.noun} ${id} is ${current ?? 'pending'}; only a pending one can be ${verb}.`);
  }

  /** The request, for a reviewer who did not request it: others get 403 (requester) or 404. */
  private async reviewable(scope: Scope, session: Session, configRef: string, id: string) {
    const v = await this.visible(scope, session, configRef, id);
    if (!v.reviewer) throw forbidden(`Only a reviewer may review an ${this.kind.noun.toLowerCase()}.`);
    if (v.a.requesting_user_id === session.userKey) throw forbidden(`A reviewer cannot review their own ${this.kind.noun.toLowerCase()}.`);
    return v;
  }

  private async isReviewer(scope: Scope, config: ElementsConfig, user: string, a: ApprovalNode): Promise<boolean> {
    const at = await this.decisions.reading(scope);
    if (await this.isLevelReviewer(at, config, user, a.tenant)) return true;
    if (!a.resource_instance) return false;
    const [answer] = await this.decisions.decide(at, [reviewQuestion(user, a.resource, a.resource_instance, a.tenant)]);
    return answer.allow;
  }

  private isLevelReviewer(at: Reading, config: ElementsConfig, user: string, tenant: string): Promise<boolean> {
    return this.decisions.holdsTenantRole(
      at,
      user,
      tenant,
      REVIEWER_LEVELS.flatMap((l) => config.rolesToLevels[l]),
    );
  }
}

/** The question a reviewer of an instance is allowed (`review` on it, in the request's tenant). */
const reviewQuestion = (user: string, type: string, key: string, tenant: string): Question => ({
  user,
  userAttributes: null,
  action: 'review',
  type,
  key,
  tenant,
  resourceAttributes: null,
  context: {},
});
