import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { Scope } from '../../src/auth/types';
import { ReadBatch, readBatch } from '../../src/areas/authzen/batchReader';
import type { AuthzenDecisions, Consistency, Question } from '../../src/areas/authzen/decisions';
import * as schemas from '../../src/areas/authzen/schemas';
import { AuthzenService } from '../../src/areas/authzen/service';

/**
 * The AuthZEN batch read straight from its bytes (src/areas/authzen/batchReader.ts) asks exactly
 * what the general way asks (`JSON.parse`, the route's schema, `AuthzenService.evaluations`), or
 * leaves the body to it: compared on generated bodies, every key order, whitespace, defaults,
 * options and the shapes it must not read.
 */
const validate = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  addFormats(ajv);
  return ajv.compile(schemas.evaluationsQuery);
})();

/** The service on a stand-in decision door that records what it was asked and answers by a rule of the question. */
function service() {
  const asked: { questions: Question[]; consistency?: Consistency }[] = [];
  const decide = async (_scope: Scope, questions: Question[], consistency?: Consistency) => {
    asked.push({ questions, consistency });
    return { allow: questions.map((q) => (q.user.length + q.key!.length) % 3 !== 0) };
  };
  return { svc: new AuthzenService({ decide } as unknown as AuthzenDecisions), asked };
}
const scope = { projectId: 'p', envId: 'e' } as unknown as Scope;

/** What the general way answers and asks for `text`, or 'refused' when the schema refuses it (400). */
async function generalWay(text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'refused' as const;
  }
  if (!validate(body)) return 'refused' as const;
  const { svc, asked } = service();
  try {
    const answer = await svc.evaluations(scope, body as never);
    return { answer, asked };
  } catch {
    return 'refused' as const;
  }
}

/** What the reader answers and asks for `text`, or 'general' when it leaves the body to the general way. */
async function readWay(text: string, maxDepth = 32) {
  const read = readBatch(Buffer.from(text, 'utf8'), maxDepth);
  if (read === undefined) return 'general' as const;
  expect(read).toBeInstanceOf(ReadBatch);
  const { svc, asked } = service();
  return { answer: await svc.evaluations(scope, read), asked };
}

/** A seeded generator (the same bodies every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Json = Record<string, unknown>;
/** Writes `o` as JSON with its keys in their order, with whitespace from `space` between tokens. */
function write(o: unknown, space: () => string): string {
  if (Array.isArray(o)) return `[${space()}${o.map((v) => write(v, space)).join(`${space()},${space()}`)}${space()}]`;
  if (o === null || typeof o !== 'object') return JSON.stringify(o);
  const keys = Object.keys(o);
  return `{${space()}${keys.map((k) => `${JSON.stringify(k)}${space()}:${space()}${write((o as Json)[k], space)}`).join(`${space()},${space()}`)}${space()}}`;
}
const shuffle = <T>(xs: T[], random: () => number): T[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
};
const ordered = (o: Json, random: () => number): Json => Object.fromEntries(shuffle(Object.entries(o), random));

/** A plain batch (every item of the reader's shape), with its keys in random orders and random whitespace. */
function plainBatch(random: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const id = () =>
    pick(['u1', 'alice', 'x'.repeat(12), 'y'.repeat(13), 'user-with-a-long-key-0042', 'z'.repeat(1024), "o'brien", 'a b/c:d']);
  const subject = () => ({ type: 'user', id: id() });
  const action = () => ({ name: pick(['read', 'write', 'delete', 'can_read_a_long_action']) });
  const resource = () => {
    const r: Json = { type: pick(['repo', 'record', 'document_of_some_kind']), id: id() };
    if (random() < 0.5) r.properties = { tenant: pick(['default', 'acme', '', 'tenant-number-one-long']) };
    return r;
  };
  const top: Json = {};
  const defaults = random() < 0.5;
  if (defaults) {
    if (random() < 0.7) top.subject = subject();
    if (random() < 0.7) top.action = action();
    if (random() < 0.5) top.resource = resource();
  }
  const n = 1 + Math.floor(random() * 100);
  top.evaluations = Array.from({ length: n }, () => {
    const item: Json = {};
    if (!defaults || top.subject === undefined || random() < 0.3) item.subject = subject();
    if (!defaults || top.action === undefined || random() < 0.3) item.action = action();
    if (!defaults || top.resource === undefined || random() < 0.3) item.resource = resource();
    return ordered(item, random);
  });
  if (random() < 0.4) {
    const options: Json = {};
    if (random() < 0.7) options.consistency = pick(['minimize_latency', 'fully_consistent']);
    if (random() < 0.7) options.evaluations_semantic = pick([...schemas.SEMANTICS]);
    if (Object.keys(options).length) top.options = ordered(options, random);
  }
  const spaces = random() < 0.5 ? [''] : ['', ' ', '\n  ', '\t', '\r\n'];
  return write(ordered(top, random), () => pick(spaces));
}

describe('the AuthZEN batch reader', () => {
  it('reads every plain batch, and asks and answers what the general way asks and answers', async () => {
    const random = rng(20261206);
    for (let i = 0; i < 400; i++) {
      const text = plainBatch(random);
      const general = await generalWay(text);
      const read = await readWay(text);
      expect(general).not.toBe('refused');
      expect(read).not.toBe('general');
      expect(read).toEqual(general);
    }
  });

  it("reads the specification's own order of members and the bench's", async () => {
    for (const item of [
      { subject: { type: 'user', id: 'alice' }, resource: { type: 'record', id: 'record-1' }, action: { name: 'read' } },
      {
        subject: { type: 'user', id: 'alice' },
        action: { name: 'read' },
        resource: { type: 'repo', id: 'r', properties: { tenant: 'default' } },
      },
    ]) {
      const text = JSON.stringify({ evaluations: [item, item] });
      expect(await readWay(text)).toEqual(await generalWay(text));
      expect(await readWay(text)).not.toBe('general');
    }
  });

  /** Bodies the reader leaves to the general way, each next to the plain batch it changes. */
  const plain = {
    evaluations: [{ subject: { type: 'user', id: 'alice' }, action: { name: 'read' }, resource: { type: 'repo', id: 'r1' } }],
  };
  const item = plain.evaluations[0];
  const text = (o: unknown) => JSON.stringify(o);
  const others: [string, string][] = [
    ['an escape in a string', text(plain).replace('alice', 'al\\u0069ce')],
    ['a quote escaped in an id', text(plain).replace('alice', 'a\\"b')],
    ['a character outside ASCII', text(plain).replace('alice', 'alicé')],
    ['a control character', text(plain).replace('alice', 'ali\tce')],
    ['an empty id', text(plain).replace('"alice"', '""')],
    ['an id longer than the schema allows', text(plain).replace('alice', 'a'.repeat(1025))],
    ['another subject type', text(plain).replace('"user"', '"service"')],
    ['id before type', text({ evaluations: [{ ...item, subject: { id: 'alice', type: 'user' } }] })],
    ['subject properties', text({ evaluations: [{ ...item, subject: { type: 'user', id: 'alice', properties: { role: 'admin' } } }] })],
    ['action properties', text({ evaluations: [{ ...item, action: { name: 'read', properties: { soft: true } } }] })],
    [
      'resource properties beyond a tenant',
      text({ evaluations: [{ ...item, resource: { type: 'repo', id: 'r1', properties: { tenant: 'a', owner: 'b' } } }] }),
    ],
    ['empty resource properties', text({ evaluations: [{ ...item, resource: { type: 'repo', id: 'r1', properties: {} } }] })],
    [
      'a tenant that is not a string',
      text({ evaluations: [{ ...item, resource: { type: 'repo', id: 'r1', properties: { tenant: 7 } } }] }),
    ],
    ['a context', text({ ...plain, context: { ip: '10.0.0.1' } })],
    ['an item context', text({ evaluations: [{ ...item, context: {} }] })],
    ['an unknown top-level key', text({ ...plain, trace: 'x' })],
    ['an unknown item key', text({ evaluations: [{ ...item, extra: 1 }] })],
    ['a __proto__ key', text(plain).replace('{"subject"', '{"__proto__":{},"subject"')],
    ['a duplicate item key', text(plain).replace('{"subject"', '{"action":{"name":"write"},"subject"')],
    ['a duplicate top-level key', text(plain).replace('{"evaluations"', '{"evaluations":[],"evaluations"')],
    ['an item without a subject', text({ evaluations: [{ action: item.action, resource: item.resource }] })],
    ['no evaluations', text({ evaluations: [], ...item })],
    ['more than 100 evaluations', text({ evaluations: Array(101).fill(item) })],
    ['a consistency object', text({ ...plain, options: { consistency: { at_least: '5' } } })],
    ['an unknown consistency', text({ ...plain, options: { consistency: 'eventual' } })],
    ['an unknown semantic', text({ ...plain, options: { evaluations_semantic: 'first' } })],
    ['empty options', text({ ...plain, options: {} })],
    ['a trailing comma', text(plain).replace(/}}]}$/, '}},]}')],
    ['text after the body', `${text(plain)} x`],
    ['two bodies', `${text(plain)}${text(plain)}`],
    ['an array', `[${text(plain)}]`],
  ];
  it.each(others)('leaves %s to the general way, which answers as before', async (_what, body) => {
    expect(await readWay(body)).toBe('general');
  });

  it('reads nothing when the depth bound is below its shapes (5), so the bound is never passed', async () => {
    const body = text({ evaluations: [{ ...item, resource: { type: 'repo', id: 'r1', properties: { tenant: 'a' } } }] });
    expect(await readWay(body, 4)).toBe('general');
    expect(await readWay(body, 5)).not.toBe('general');
  });
});
