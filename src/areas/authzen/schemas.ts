import { arr, bool, freeObject, int, obj, str } from '../../http/schema';
import { consistency } from '../decisions/schemas';

/**
 * The AuthZEN Authorization API 1.0 shapes (docs/authzen.md). The specification wins over docs/behaviour.md
 * on these paths: fields we do not know are ignored (every object is open), a missing or
 * mistyped field answers 400 (the route's `specWire`), and the entities are the specification's.
 */
const OPEN = { additionalProperties: true };

/** An entity's `type` and `id`: non-empty strings (bounded: a longer one names nothing we store). */
const name = () => str({ minLength: 1, maxLength: 256 });
const id = () => str({ minLength: 1, maxLength: 1024 });
const properties = () => freeObject();

/** Subject and resource: `{type, id, properties?}`; a search leaves out the id of the entity it searches. */
export const entity = obj({ type: name(), id: id(), properties: properties() }, ['type', 'id'], OPEN);
export const searchedEntity = obj({ type: name(), id: id(), properties: properties() }, ['type'], OPEN);
export const action = obj({ name: name(), properties: properties() }, ['name'], OPEN);
const context = () => freeObject();

export const SEMANTICS = ['execute_all', 'deny_on_first_deny', 'permit_on_first_permit'] as const;

/**
 * `options`, which the specification leaves to each PDP: `consistency` as `POST /allowed` takes it
 * (docs/consistency.md; default: every write acknowledged before the request is seen), on every
 * path; and, on `evaluations`, the specification's `evaluations_semantic`.
 */
const options = () => obj({ consistency }, [], OPEN);

export const evaluationQuery = obj(
  { subject: entity, action, resource: entity, context: context(), options: options() },
  ['subject', 'action', 'resource'],
  OPEN,
);

/**
 * An item of `evaluations`: any of the four keys, each replacing the top-level default whole.
 * Its entities are checked once merged, per item: an item that lacks one answers a denial with
 * the error in its `context` (the `execute_all` reading of the specification), not a 400.
 */
const item = obj(
  {
    subject: { type: 'object', description: 'A subject `{type, id, properties?}`; replaces the top-level `subject`' },
    action: { type: 'object', description: 'An action `{name, properties?}`; replaces the top-level `action`' },
    resource: { type: 'object', description: 'A resource `{type, id, properties?}`; replaces the top-level `resource`' },
    context: { type: 'object', description: 'Replaces the top-level `context`' },
  },
  [],
  OPEN,
);

/** At most this many evaluations in one request (as the bulk check takes). */
export const MAX_EVALUATIONS = 100;

export const evaluationsQuery = obj(
  {
    subject: entity,
    action,
    resource: entity,
    context: context(),
    evaluations: arr(item, { maxItems: MAX_EVALUATIONS }),
    options: obj({ evaluations_semantic: str({ enum: SEMANTICS }), consistency }, [], OPEN),
  },
  [],
  OPEN,
);

export const decision = obj({ decision: bool(), context: freeObject() }, ['decision']);
export const evaluationsAnswer = obj({ decision: bool(), context: freeObject(), evaluations: arr(decision) });

/** The specification's `page` of a search request: an opaque token, a limit, implementation properties (ignored). */
const page = obj({ token: str({ maxLength: 4096 }), limit: int({ minimum: 0 }), properties: freeObject() }, [], OPEN);

export const subjectSearchQuery = obj(
  { subject: searchedEntity, action, resource: entity, context: context(), page, options: options() },
  ['subject', 'action', 'resource'],
  OPEN,
);
export const resourceSearchQuery = obj(
  { subject: entity, action, resource: searchedEntity, context: context(), page, options: options() },
  ['subject', 'action', 'resource'],
  OPEN,
);
export const actionSearchQuery = obj(
  { subject: entity, resource: entity, context: context(), page, options: options() },
  ['subject', 'resource'],
  OPEN,
);

const pageAnswer = obj({ next_token: str(), count: int(), total: int() }, ['next_token']);
const found = obj({ type: str(), id: str() }, ['type', 'id']);
export const entitiesAnswer = obj({ page: pageAnswer, results: arr(found) }, ['results']);
export const actionsAnswer = obj({ page: pageAnswer, results: arr(obj({ name: str() }, ['name'])) }, ['results']);

export const metadata = obj(
  {
    policy_decision_point: str(),
    access_evaluation_endpoint: str(),
    access_evaluations_endpoint: str(),
    search_subject_endpoint: str(),
    search_resource_endpoint: str(),
    search_action_endpoint: str(),
  },
  ['policy_decision_point', 'access_evaluation_endpoint'],
);
