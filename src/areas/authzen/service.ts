import { createHash } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { badRequest } from '../../errors';
import type { StaticOf } from '../../http/schema';
import type { AuthzenDecisions, Consistency, Question } from './decisions';
import { ReadBatch } from './batchReader';
import type * as s from './schemas';
import type { SEMANTICS } from './schemas';

/**
 * The AuthZEN Authorization API 1.0 on our decisions (docs/authzen.md): each AuthZEN request is
 * mapped to the questions of the decision endpoints and asked through `AuthzenDecisions` (the
 * area's one door to them); the answers are put in the specification's shapes.
 *
 * The mapping: a subject `{type: "user", id, properties}` is the user whose key is `id`, its
 * properties overlaying the stored attributes; a resource `{type, id, properties}` the instance of
 * that type whose key is `id` with its stored attributes overlaid by the properties (an instance
 * that is not stored is asked as the type alone, with the properties as its attributes: tenant
 * roles and set rules decide it); the tenant `resource.properties.tenant`, else the stored
 * instance's, else the default tenant; the action's name is the action, and its properties are the
 * context's `action.<property>` (conditions name them `context.action.<property>`); `context` is
 * the question's context.
 */
type Bag = Record<string, unknown>;
type Entity = { type: string; id: string; properties?: Bag };
type SearchedEntity = { type: string; id?: string; properties?: Bag };
type Action = { name: string; properties?: Bag };
type Decision = { decision: boolean; context?: Bag };
type EvaluationsAnswer = { decision?: boolean; context?: Bag; evaluations?: Decision[]; depthLimited?: true };

/** The only subject type the service knows: its users. Another type is nobody (deny, empty searches). */
export const USER_TYPE = 'user';

/** The page size of a search that sends no `page.limit` (or 0), and the largest one it takes. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

const isObject = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The context of a question: the request's, and the action's properties as `action.<property>`. */
export function contextOf(context: Bag | undefined, action: Action): Bag {
  const out: Bag = Object.assign({}, context);
  for (const [k, v] of Object.entries(action.properties ?? {})) out[`action.${k}`] = v;
  return out;
}

/** The tenant a resource names (`properties.tenant`, a string), else null: the stored instance's, else the default. */
const tenantOf = (resource: SearchedEntity): string | null =>
  typeof resource.properties?.tenant === 'string' ? resource.properties.tenant : null;

/** The user of a question: its key, and the properties sent as attributes overlaying the stored ones. */
const askerOf = (subject: Entity) => ({ user: subject.id, userAttributes: subject.properties ?? null });

/**
 * The properties a resource sends, as the attributes a set rule reads, without `tenant` when it
 * names the question's tenant (a string): a rule reads `resource.tenant` as the question's tenant
 * either way (src/areas/conditions/rules.ts), so `{tenant}` alone is no attribute, and such a
 * question is keyed and cached as the `/allowed` question with that tenant (a JSON key of its
 * attributes made it a fifth dearer in a cached batch of 100). Null when nothing else is sent.
 */
function sentAttributesOf(resource: SearchedEntity): Bag | null {
  const props = resource.properties;
  if (props === undefined || props === null) return null;
  if (typeof props.tenant !== 'string') return props;
  let rest: Bag | null = null;
  for (const k of Object.keys(props)) if (k !== 'tenant') (rest ??= {})[k] = props[k];
  return rest;
}

/** The resource part of a question: by key when an id is given, else the type alone; the properties as its attributes. */
const resourceOf = (resource: SearchedEntity) => ({
  type: resource.type,
  key: resource.id ?? null,
  tenant: tenantOf(resource),
  resourceAttributes: sentAttributesOf(resource),
});

/** The question of one evaluation. */
export function questionOf(subject: Entity, action: Action, resource: Entity, context?: Bag): Question {
  // Field by field, not spreads (see src/areas/decisions/question.ts: a spread then properties costs microseconds).
  return {
    user: subject.id,
    userAttributes: subject.properties ?? null,
    action: action.name,
    type: resource.type,
    key: resource.id,
    tenant: tenantOf(resource),
    resourceAttributes: sentAttributesOf(resource),
    context: contextOf(context, action),
  };
}

const unknownSubjectType = (type: string): Decision => ({
  decision: false,
  context: {
    reason: `Subject type ${JSON.stringify(type)} is unknown: only "${USER_TYPE}" subjects (the environment's users) are decided.`,
  },
});

const named = (v: unknown) => typeof v === 'string' && v.length > 0;
const propertiesOk = (v: Bag) => v.properties === undefined || isObject(v.properties);
/** Whether an evaluation's subject or resource is `{type, id, properties?}` with non-empty strings. */
const entityOk = (v: unknown): boolean => isObject(v) && named(v.type) && named(v.id) && propertiesOk(v);

/** Why an evaluation item cannot be asked (it lacks an entity or has a malformed one), or undefined. */
function itemProblem(subject: unknown, action: unknown, resource: unknown): string | undefined {
  // Plain checks (no arrays or closures made per item: a batch asks this 100 times).
  if (subject === undefined) return 'subject is required (in the evaluation or at the top level)';
  if (!entityOk(subject)) return 'subject must be {type, id, properties?} with non-empty strings';
  if (resource === undefined) return 'resource is required (in the evaluation or at the top level)';
  if (!entityOk(resource)) return 'resource must be {type, id, properties?} with non-empty strings';
  if (action === undefined) return 'action is required (in the evaluation or at the top level)';
  if (!isObject(action) || !named(action.name) || !propertiesOk(action)) return 'action must be {name, properties?} with a non-empty name';
  return undefined;
}

/**
 * Search pages (the specification's opaque tokens): a token resumes the search it was given for
 * (a digest of the request without its page) after the last result it gave.
 */
function fingerprintOf(request: Bag): string {
  const { page: _page, ...asked } = request;
  return createHash('sha256').update(JSON.stringify(asked)).digest('base64url').slice(0, 16);
}
const tokenOf = (after: string, fingerprint: string) => Buffer.from(JSON.stringify({ a: after, q: fingerprint })).toString('base64url');
function afterOf(token: string, fingerprint: string): string {
  let t: unknown;
  try {
    t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    t = undefined;
  }
  if (!isObject(t) || typeof t.a !== 'string' || typeof t.q !== 'string') throw badRequest('page.token is not a token this endpoint gave.');
  if (t.q !== fingerprint)
    throw badRequest('page.token was given for another search: every entity, the context and page.limit must be as in the first request.');
  return t.a;
}
/** The consistency a request asks in its `options` (as `POST /allowed` takes it), or the default. */
const consistencyOf = (q: { options?: { consistency?: unknown } }) => q.options?.consistency as Consistency | undefined;

const pageSizeOf = (page: { limit?: number } | undefined) => Math.min(page?.limit || DEFAULT_PAGE, MAX_PAGE);

/** One page of a sorted list of names, after the token's name. */
function pageOf(names: string[], request: Bag, page: { token?: string; limit?: number } | undefined) {
  const fingerprint = fingerprintOf({ ...request, limit: page?.limit ?? null });
  const after = page?.token ? afterOf(page.token, fingerprint) : null;
  const rest = after === null ? names : names.filter((n) => n > after);
  const size = pageSizeOf(page);
  const shown = rest.slice(0, size);
  const next = rest.length > size ? tokenOf(shown[shown.length - 1], fingerprint) : '';
  return { page: { next_token: next, count: shown.length, total: names.length }, shown };
}

export class AuthzenService {
  constructor(private readonly decisions: AuthzenDecisions) {}

  /** `POST /access/v1/evaluation`: one question. */
  async evaluation(scope: Scope, q: StaticOf<typeof s.evaluationQuery>): Promise<Decision & { depthLimited?: true }> {
    if (q.subject.type !== USER_TYPE) return unknownSubjectType(q.subject.type);
    const { allow, depthLimited } = await this.decisions.decide(
      scope,
      [questionOf(q.subject, q.action, q.resource, q.context)],
      consistencyOf(q),
    );
    return depthLimited ? { decision: allow[0], depthLimited } : { decision: allow[0] };
  }

  /**
   * `POST /access/v1/evaluations`: the items with the top-level defaults (each key replaces its
   * default whole), asked in one bulk check, answered in order and cut as the semantic says.
   * Without items it is the single evaluation of the top-level keys. A batch the hot path read
   * from its bytes (`ReadBatch`, src/areas/authzen/batchReader.ts) comes with its questions made.
   */
  async evaluations(scope: Scope, q: StaticOf<typeof s.evaluationsQuery> | ReadBatch): Promise<EvaluationsAnswer> {
    if (q instanceof ReadBatch) {
      const askedAt = Array.from({ length: q.questions.length }, (_, i) => i);
      return this.answerBatch(scope, new Array<Decision>(q.questions.length), q.questions, askedAt, q.consistency, q.semantic);
    }
    if (!q.evaluations?.length) {
      const missing = (['subject', 'action', 'resource'] as const).filter((k) => q[k] === undefined);
      if (missing.length)
        throw badRequest(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required when the request has no evaluations.`);
      return this.evaluation(scope, q as StaticOf<typeof s.evaluationQuery>);
    }
    // One pass: each item is a question to ask or an answer already known (a malformed item, another
    // subject type), kept by position; no wrapper objects (a batch makes 100 of each).
    const n = q.evaluations.length;
    const answers = new Array<Decision>(n);
    const asked: Question[] = [];
    const askedAt: number[] = [];
    for (let i = 0; i < n; i++) {
      const e = q.evaluations[i];
      const subject = (e.subject ?? q.subject) as unknown;
      const action = (e.action ?? q.action) as unknown;
      const resource = (e.resource ?? q.resource) as unknown;
      const problem = itemProblem(subject, action, resource);
      if (problem) answers[i] = { decision: false, context: { error: { status: 400, message: problem } } };
      else if ((subject as Entity).type !== USER_TYPE) answers[i] = unknownSubjectType((subject as Entity).type);
      else {
        asked.push(questionOf(subject as Entity, action as Action, resource as Entity, (e.context ?? q.context) as Bag | undefined));
        askedAt.push(i);
      }
    }
    return this.answerBatch(scope, answers, asked, askedAt, consistencyOf(q), q.options?.evaluations_semantic ?? 'execute_all');
  }

  /** The batch's answers: `asked` decided into `answers` at `askedAt` (the others already known), cut as `semantic` says. */
  private async answerBatch(
    scope: Scope,
    answers: Decision[],
    asked: Question[],
    askedAt: number[],
    consistency: Consistency | undefined,
    semantic: (typeof SEMANTICS)[number],
  ): Promise<EvaluationsAnswer> {
    const { allow, depthLimited } = await this.decisions.decide(scope, asked, consistency);
    for (let j = 0; j < askedAt.length; j++) answers[askedAt[j]] = { decision: allow[j] };
    const stopAt =
      semantic === 'deny_on_first_deny'
        ? answers.findIndex((a) => !a.decision)
        : semantic === 'permit_on_first_permit'
          ? answers.findIndex((a) => a.decision)
          : -1;
    const evaluations = stopAt < 0 ? answers : answers.slice(0, stopAt + 1);
    if (stopAt >= 0 && stopAt < answers.length - 1)
      evaluations[stopAt] = { ...evaluations[stopAt], context: { ...evaluations[stopAt].context, reason: semantic } };
    return depthLimited ? { evaluations, depthLimited } : { evaluations };
  }

  /** `POST /access/v1/search/subject`: the users allowed the action on the resource (authorized users), by key. */
  async subjects(scope: Scope, q: StaticOf<typeof s.subjectSearchQuery>) {
    // The subject's id (and properties) are not part of the search: the specification says to ignore them.
    const request = { subject: { type: q.subject.type }, action: q.action, resource: q.resource, context: q.context ?? null };
    const users =
      q.subject.type === USER_TYPE
        ? await this.decisions.subjects(
            scope,
            { action: q.action.name, ...resourceOf(q.resource), context: contextOf(q.context, q.action) },
            consistencyOf(q),
          )
        : [];
    const { page, shown } = pageOf(users, request, q.page);
    return { page, results: shown.map((id) => ({ type: USER_TYPE, id })) };
  }

  /** `POST /access/v1/search/resource`: the instances of the type the user may act on (list-objects), paged by list-objects. */
  async resources(scope: Scope, q: StaticOf<typeof s.resourceSearchQuery>) {
    if (q.subject.type !== USER_TYPE) return { page: { next_token: '', count: 0 }, results: [] };
    const { keys, next } = await this.decisions.resources(
      scope,
      {
        ...askerOf(q.subject),
        action: q.action.name,
        type: q.resource.type,
        tenant: tenantOf(q.resource),
        context: contextOf(q.context, q.action),
        pageSize: pageSizeOf(q.page),
        token: q.page?.token || null,
      },
      consistencyOf(q),
    );
    return { page: { next_token: next ?? '', count: keys.length }, results: keys.map((id) => ({ type: q.resource.type, id })) };
  }

  /** `POST /access/v1/search/action`: the actions of the resource's type the user may do on it. */
  async actions(scope: Scope, q: StaticOf<typeof s.actionSearchQuery>) {
    const request = { subject: q.subject, resource: q.resource, context: q.context ?? null };
    const names =
      q.subject.type === USER_TYPE
        ? await this.decisions.actions(
            scope,
            { ...askerOf(q.subject), ...resourceOf(q.resource), context: q.context ?? {} },
            consistencyOf(q),
          )
        : [];
    const { page, shown } = pageOf(names, request, q.page);
    return { page, results: shown.map((name) => ({ name })) };
  }

  /** `GET /.well-known/authzen-configuration`: the absolute URL of each endpoint under `base` (an origin). */
  metadata(base: string) {
    return {
      policy_decision_point: base,
      access_evaluation_endpoint: `${base}/access/v1/evaluation`,
      access_evaluations_endpoint: `${base}/access/v1/evaluations`,
      search_subject_endpoint: `${base}/access/v1/search/subject`,
      search_resource_endpoint: `${base}/access/v1/search/resource`,
      search_action_endpoint: `${base}/access/v1/search/action`,
    };
  }
}
