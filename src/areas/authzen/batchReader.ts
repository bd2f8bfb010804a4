import { CONSISTENCY_LEVELS } from '../decisions/schemas';
import type { Consistency, Question } from './decisions';
import { MAX_EVALUATIONS, SEMANTICS } from './schemas';

/**
 * The evaluations batch read straight from its bytes into the engine's questions (docs/authzen.md,
 * "Speed"), for the plain shape a client sends most: every evaluation a `subject` of type `user`,
 * an `action` and a `resource`, in any order, each entity with `type` then `id` (a resource then
 * `properties: {tenant}` at most), the top-level defaults of the same shapes and `options` with
 * `consistency` and `evaluations_semantic` as strings; JSON whitespace anywhere; every string printable
 * ASCII without escapes. Such a body costs no `JSON.parse`, no depth scan, no schema pass and no
 * mapping of parsed objects: one sticky regular expression a member, run by V8's compiled matcher.
 *
 * Anything else (another key order, a key we do not list, a duplicate key, a `context`, properties
 * other than a resource's tenant, another subject type, an item that lacks an entity, an escape or
 * a character outside printable ASCII, an empty or too long string, more than 100 evaluations, a
 * depth bound below the shape's) is not read here: `readBatch` answers undefined and the request
 * takes the general way (`JSON.parse`, the route's schema, `AuthzenService.evaluations`), which
 * answers every such body as before. So this reader decides no answer of its own: for every body it
 * reads, the questions are the ones the general way asks (test/unit/authzenBatchReader.test.ts
 * compares the two on generated bodies).
 */
export class ReadBatch {
  constructor(
    readonly questions: Question[],
    readonly consistency: Consistency | undefined,
    readonly semantic: (typeof SEMANTICS)[number],
  ) {}
}

/** The deepest this reader's shapes nest: body, evaluations, item, resource, properties. */
const READ_DEPTH = 5;

const W = '[ \\t\\n\\r]*';
/** A JSON string of printable ASCII without escapes, `min` to `max` characters: its text is a group. */
const S = (min: number, max: number) => `"([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]{${min},${max}})"`;
const key = (name: string) => `${W}"${name}"${W}:${W}`;
const sticky = (source: string) => new RegExp(source, 'y');

/** The bounds of the route's schema (src/areas/authzen/schemas.ts): a type or a name 1-256 characters, an id 1-1024. */
const NAME = S(1, 256);
const ID = S(1, 1024);
/** A tenant is any string of the resource's free `properties` (bounded here only to stay a plain string). */
const TENANT = S(0, 1024);

const SUBJECT = `\\{${key('type')}"user"${W},${key('id')}${ID}${W}\\}`;
const ACTION = `\\{${key('name')}${NAME}${W}\\}`;
const RESOURCE = `\\{${key('type')}${NAME}${W},${key('id')}${ID}${W}(?:,${key('properties')}\\{${key('tenant')}${TENANT}${W}\\}${W})?\\}`;
/**
 * One entity member of an evaluation or of the top level with the separator after it, in one match
 * (a batch of 100 makes 300): group 1 the subject's id; 2 the action's name; 3, 4, 5 the
 * resource's type, id and tenant; 6 the separator, a comma or the object's close.
 */
const member = (name: string, value: string) => `${name}"${W}:${W}${value}`;
const MEMBER = sticky(`${W}"(?:${member('subject', SUBJECT)}|${member('action', ACTION)}|${member('resource', RESOURCE)})${W}([,}])`);
/** The top level's other members' keys (and colons). */
const TOP_KEY = sticky(`${W}"(evaluations|options)"${W}:`);
/** A member of `options`, a string, with the separator after it. */
const OPTION = sticky(`${W}"(consistency|evaluations_semantic)"${W}:${W}${S(1, 64)}${W}([,}])`);
const OPEN = sticky(`${W}\\{`);
const CLOSE = sticky(`${W}\\}`);
const OPEN_ARRAY = sticky(`${W}\\[`);
/** After an element of an array: a comma, or the close. */
const NEXT = sticky(`${W}[,\\]]`);
/** After a member of the top level: a comma, or the body's close. */
const SEPARATOR = sticky(`${W}[,}]`);
const END = sticky(`${W}$`);

/**
 * V8 makes a match of 13 characters or more a slice that keeps the whole body's text alive: such a
 * string (a long id) is copied out, so nothing the request leaves behind (a decision log entry, a
 * question in flight) holds the body.
 */
const own = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/** The entities read by `readBatch`, by evaluation (the top-level defaults as one more): undefined (never written) where none was sent. */
class Entities {
  user: (string | undefined)[] = [];
  action: (string | undefined)[] = [];
  type: (string | undefined)[] = [];
  key: (string | undefined)[] = [];
  tenant: (string | null | undefined)[] = [];
}

/** A stop: the body is not of this reader's shape (the general way reads it). */
const NOT_PLAIN = Symbol('not plain');

/**
 * The batch of `POST /access/v1/evaluations` read from its body, or undefined when the body is not
 * of the plain shape above (or nests deeper than `maxDepth` allows it to be read here).
 */
export function readBatch(raw: Buffer, maxDepth: number): ReadBatch | undefined {
  if (maxDepth < READ_DEPTH) return undefined;
  try {
    return read(raw.toString('latin1'));
  } catch (err) {
    if (err === NOT_PLAIN) return undefined;
    throw err;
  }
}

/** `re` must match at `from` (its end is then `re.lastIndex`), else NOT_PLAIN; no match array is made. */
function test(re: RegExp, text: string, from: number): void {
  re.lastIndex = from;
  if (!re.test(text)) throw NOT_PLAIN;
}

/** `re`'s match at `from` (its end is `re.lastIndex`), or NOT_PLAIN. */
function at(re: RegExp, text: string, from: number): RegExpExecArray {
  re.lastIndex = from;
  const m = re.exec(text);
  if (m === null) throw NOT_PLAIN;
  return m;
}

/**
 * An entity member (MEMBER's match) into `into` at `k`, unless `seen` (a bit an entity) has it
 * already (a duplicate key is the general way's): answers `seen` with its bit.
 */
function take(m: RegExpExecArray, into: Entities, k: number, seen: number): number {
  const bit = m[1] !== undefined ? 1 : m[2] !== undefined ? 2 : 4;
  if (seen & bit) throw NOT_PLAIN;
  if (bit === 1) into.user[k] = own(m[1]);
  else if (bit === 2) into.action[k] = own(m[2]);
  else {
    into.type[k] = own(m[3]);
    into.key[k] = own(m[4]);
    into.tenant[k] = m[5] === undefined ? null : own(m[5]);
  }
  return seen | bit;
}

function read(text: string): ReadBatch {
  const items = new Entities();
  const defaults = new Entities();
  let n = 0;
  let seen = 0; // the top level's members read, a bit each: the entities', evaluations 8, options 16
  let consistency: string | undefined;
  let semantic: string | undefined;
  test(OPEN, text, 0);
  let i = OPEN.lastIndex;
  for (;;) {
    TOP_KEY.lastIndex = i;
    const top = TOP_KEY.exec(text);
    if (top === null) {
      const m = at(MEMBER, text, i);
      seen = take(m, defaults, 0, seen);
      i = MEMBER.lastIndex;
      if (m[6] === '}') break;
      continue;
    }
    i = TOP_KEY.lastIndex;
    const bit = top[1] === 'evaluations' ? 8 : 16;
    if (seen & bit) throw NOT_PLAIN;
    seen |= bit;
    if (bit === 8) {
      test(OPEN_ARRAY, text, i);
      i = OPEN_ARRAY.lastIndex;
      for (;;) {
        if (n === MAX_EVALUATIONS) throw NOT_PLAIN;
        test(OPEN, text, i);
        i = readItem(text, OPEN.lastIndex, items, n++);
        test(NEXT, text, i);
        i = NEXT.lastIndex;
        if (text[i - 1] === ']') break;
      }
    } else {
      // options: `consistency` and `evaluations_semantic`, strings of their enums, each at most once.
      test(OPEN, text, i);
      i = OPEN.lastIndex;
      let m: RegExpExecArray;
      do {
        m = at(OPTION, text, i);
        i = OPTION.lastIndex;
        if (m[1] === 'consistency') {
          if (consistency !== undefined || !(CONSISTENCY_LEVELS as readonly string[]).includes(m[2])) throw NOT_PLAIN;
          consistency = m[2];
        } else {
          if (semantic !== undefined || !(SEMANTICS as readonly string[]).includes(m[2])) throw NOT_PLAIN;
          semantic = m[2];
        }
      } while (m[3] === ',');
    }
    // After evaluations or options: a comma, or the body's close.
    test(SEPARATOR, text, i);
    i = SEPARATOR.lastIndex;
    if (text[i - 1] === '}') break;
  }
  test(END, text, i);
  // Without evaluations it is the single evaluation: the general way's.
  if (n === 0) throw NOT_PLAIN;
  const questions = new Array<Question>(n);
  for (let k = 0; k < n; k++) {
    // An item's entity replaces the default whole; an item left without one is the general way's (it answers that item's error).
    const user = items.user[k] ?? defaults.user[0];
    const action = items.action[k] ?? defaults.action[0];
    const sent = items.type[k] !== undefined;
    const resource = sent ? items : defaults;
    const r = sent ? k : 0;
    const type = resource.type[r];
    if (user === undefined || action === undefined || type === undefined) throw NOT_PLAIN;
    // Field by field, in the order of `questionOf` (src/areas/authzen/service.ts), which the general way asks.
    questions[k] = {
      user,
      userAttributes: null,
      action,
      type,
      key: resource.key[r] as string,
      tenant: resource.tenant[r] as string | null,
      resourceAttributes: null,
      context: {},
    };
  }
  return new ReadBatch(questions, consistency as Consistency | undefined, (semantic ?? 'execute_all') as (typeof SEMANTICS)[number]);
}

/** One evaluation from `from` (after its opening brace) into `items` at `k`; answers where it ends (after its closing brace). */
function readItem(text: string, from: number, items: Entities, k: number): number {
  let i = from;
  let seen = 0;
  for (;;) {
    MEMBER.lastIndex = i;
    const m = MEMBER.exec(text);
    if (m === null) {
      // `{}`: every entity the top level's.
      if (seen !== 0) throw NOT_PLAIN;
      test(CLOSE, text, i);
      return CLOSE.lastIndex;
    }
    seen = take(m, items, k, seen);
    i = MEMBER.lastIndex;
    if (m[6] === '}') return i;
  }
}
