import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { observeRequest } from './httpMetrics';
import type { Metrics } from '../metrics/metrics';
import { errorAnswer, requestIdOf, SPEC_ERROR_TYPE, specErrorAnswer, specRequestIdOf } from './middleware';
import { type BodyBounds, bodyLimitOf, bodyTooDeep, continueIfExpected, nestsDeeperThan } from './bodies';
import { RequestState } from './requestState';
import { answer, type Authenticator, ReadBody, type Req, type RevisionOf, type RouteDef } from './routeTable';

/** A `__proto__` key, written plainly or with escapes (the test bourne makes before it looks closer). */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/** A hot route and the decoded parameters of its path. */
interface Found {
  route: RouteDef;
  template: string;
  params: Record<string, string>;
}

/**
 * Writes one answer: through Node's response, or on the lane's connection (which adds its own
 * status line, `Date` and keep-alive headers).
 */
export type LaneReply = (status: number, headers: Record<string, string>, text: string) => void;

/** A request read whole (its body in hand: the lane; or to be read: Node's request), and how it is answered. */
interface Call {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body(): Buffer | Promise<Buffer>;
  reply: LaneReply;
}

/** A request the lane (src/http/lane.ts) read whole from its connection. */
export interface LaneRequest {
  method: string;
  url: string;
  /** Lower-case names, one value each (the lane leaves a repeated header to Node). */
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Serves a request the lane read when it goes to a hot route (true), else leaves it to Node's HTTP server (false). */
export type LaneDoor = (request: LaneRequest, reply: LaneReply) => boolean;

export interface HotDoors {
  /** Node's request listener: a hot route's request served here, any other given to koa. */
  door(req: IncomingMessage, res: ServerResponse): void;
  lane: LaneDoor;
}

/**
 * The permission questions' own door, in front of koa (routes marked `hot`: single and bulk
 * checks, list-objects; and `GET /healthz`, the probe a load balancer asks as often). A repeated
 * check answered from the decision cache spent most of its CPU in the koa chain (context objects,
 * compose, body parser, router, method check; list-objects 13 % of its service CPU:
 * docs/benchmarks.md); this path reads the JSON body itself and goes straight to `answer`
 * (src/http/routeTable.ts), the same authentication, schemas and handler as the koa route, with
 * the same request id, log line, metrics and error bodies. Anything it does not expect (another
 * method or path, a query string, a POST body that is not declared JSON with a length, or longer
 * than the route's limit, a GET with a body) goes to koa untouched. As on koa's chain, the caller
 * is authenticated before the body is read (docs/behaviour.md section 15), and a body nested deeper than
 * the depth bound answers 422. Two doors serve the same way: `door` takes Node's request objects;
 * `lane` takes a request the lane (src/http/lane.ts) read whole from a keep-alive connection without
 * them, which halves the cost of a cached check (docs/benchmarks.md, "The lane").
 */
export function hotPath(
  routes: RouteDef[],
  deps: { auth: Authenticator; log: Logger; metrics: Metrics; revisionOf?: RevisionOf; bounds: BodyBounds },
  koa: (req: IncomingMessage, res: ServerResponse) => void,
): HotDoors {
  const byPath = new Map<string, RouteDef>();
  const templates: { route: RouteDef; template: string; re: RegExp; names: string[] }[] = [];
  /** Hot GET routes: paths without parameters only (`/healthz`). */
  const gets = new Map<string, RouteDef>();
  for (const route of routes.filter((r) => r.hot && r.method === 'GET')) {
    for (const template of Array.isArray(route.path) ? route.path : [route.path]) if (!template.includes(':')) gets.set(template, route);
  }
  for (const route of routes.filter((r) => r.hot && r.method === 'POST')) {
    for (const template of Array.isArray(route.path) ? route.path : [route.path]) {
      const names = [...template.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      if (!names.length) byPath.set(template, route);
      else templates.push({ route, template, names, re: new RegExp(`^${template.replace(/:[A-Za-z_]+/g, '([^/]+)')}$`) });
    }
  }

  /** Each hot route's body limit, worked out once (not a split of its path a request). */
  const limits = new Map(routes.filter((r) => r.hot).map((r) => [r, bodyLimitOf(r, deps.bounds)]));

  /** The route and its decoded path parameters, or undefined (koa then answers, 404 and 405 included). */
  const match = (path: string): Found | undefined => {
    const exact = byPath.get(path);
    if (exact) return { route: exact, template: path, params: {} };
    for (const t of templates) {
      const m = t.re.exec(path);
      if (!m) continue;
      try {
        return {
          route: t.route,
          template: t.template,
          params: Object.fromEntries(t.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])),
        };
      } catch {
        return undefined; // a malformed escape: koa's router answers it
      }
    }
    return undefined;
  };

  /**
   * The hot route a request goes to, or undefined (koa then answers it): a GET without a body
   * and without a query string to a declared path; a POST of declared JSON (not compressed) with a
   * length, within the route's limit (a longer one koa answers 413, after the credentials, as it
   * does every other refusal of a body), without a query string.
   */
  const hotRoute = (method: string, url: string, headers: IncomingHttpHeaders): Found | undefined => {
    if (method === 'GET') {
      const route = headers['transfer-encoding'] === undefined && !(Number(headers['content-length']) > 0) ? gets.get(url) : undefined;
      return route && { route, template: url, params: {} };
    }
    const length = Number(headers['content-length']);
    const type = headers['content-type'] ?? '';
    // A compressed body (Content-Encoding) is koa's to inflate or refuse (415).
    const plain = headers['content-encoding'] === undefined;
    const found =
      method === 'POST' && plain && !url.includes('?') && length > 0 && /^application\/json\s*(;|$)/i.test(type) ? match(url) : undefined;
    return found && length <= limits.get(found.route)! ? found : undefined;
  };

  return {
    door: (req, res) => {
      const found = hotRoute(req.method!, req.url!, req.headers);
      if (!found) return koa(req, res);
      void serve(found, performance.now(), {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: () =>
          bodyOf(req, res).catch(() => {
            res.destroy();
            throw CLOSED;
          }),
        reply: (status, headers, text) => {
          res.writeHead(status, headers);
          res.end(text);
        },
      });
    },
    lane: (request, reply) => {
      const found = hotRoute(request.method, request.url, request.headers);
      if (!found) return false;
      // Field by field, not `{ ...request, more }` (docs/benchmarks.md, "Object spreads").
      void serve(found, performance.now(), {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: () => request.body,
        reply,
      });
      return true;
    },
  };

  /**
   * The body, read whole (Node holds it to its declared length, within the route's limit: checked
   * above). Rejects when the request closes first. Node emits 'close' on every request once its
   * answer is done: nothing is made then for a body that was read (an Error takes a stack trace: it
   * was a tenth of the hot path's own CPU).
   */
  function bodyOf(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
    continueIfExpected(req, res);
    return new Promise((ok, fail) => {
      const chunks: Buffer[] = [];
      let settled = false;
      req.on('data', (c: Buffer) => chunks.push(c));
      req.once('end', () => {
        settled = true;
        ok(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      });
      req.once('error', () => {
        settled = true;
        fail(CLOSED);
      });
      req.once('close', () => {
        if (!settled) fail(CLOSED);
      });
    });
  }

  async function serve(found: Found, arrivedAt: number, call: Call): Promise<void> {
    const reqId = idOf(found.route, call.headers);
    const headers: Record<string, string> = { 'x-request-id': reqId };
    // Its logger is made when something logs (src/http/requestState.ts: a class's getter, no object's own).
    const state = new RequestState(arrivedAt, reqId, deps.log);
    // What `answer`, the authenticator and the decision handlers use of koa's context.
    const ctx = {
      path: call.url,
      method: call.method,
      state,
      get: (name: string) => (call.headers[name.toLowerCase()] as string | undefined) ?? '',
      set: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    } as unknown as Context;
    let status: number;
    let payload: unknown;
    let errorText: string | undefined;
    try {
      // Who first, then what: the body is read only for a caller that may call the route.
      const who: Partial<Req> = await deps.auth.authenticate(ctx, found.route, found.params);
      const out = await answer(
        found.route,
        deps.auth,
        deps.revisionOf,
        ctx,
        {
          params: found.params,
          query: {},
          headers: call.headers,
          body: call.method === 'GET' ? undefined : jsonBody(found.route, await call.body()),
        },
        who,
      );
      status = out.status;
      payload = out.body;
    } catch (err) {
      if (err === CLOSED) return;
      // Another specification's route answers its errors as it says (src/http/middleware.ts).
      const out = found.route.specWire ? specErrorAnswer(err, state.log) : errorAnswer(err, state.log);
      status = out.status;
      if ('text' in out) errorText = out.text;
      else payload = out.body;
      Object.assign(headers, out.headers);
    }
    const json = errorText ?? JSON.stringify(payload);
    headers['content-type'] = errorText === undefined ? 'application/json; charset=utf-8' : SPEC_ERROR_TYPE;
    headers['content-length'] = String(Buffer.byteLength(json));
    call.reply(status, headers, json);
    const seconds = (performance.now() - arrivedAt) / 1000;
    observeRequest(deps.metrics, call.method, found.template, status, seconds, headers['x-authz-depth-limited']);
    // One line a request, with the request id (no child logger made for it: src/http/middleware.ts writes the same line).
    if (deps.log.isLevelEnabled('info'))
      deps.log.info({ reqId, method: call.method, path: call.url, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
  }

  /**
   * The JSON body of an authenticated caller, or what the route's own reader made of it (`readBody`,
   * src/http/routeTable.ts); throws the errors of docs/behaviour.md section 1.
   */
  function jsonBody(route: RouteDef, raw: Buffer): unknown {
    const read = route.readBody?.(raw, deps.bounds.depth);
    if (read !== undefined) return new ReadBody(read);
    if (nestsDeeperThan(raw, deps.bounds.depth)) throw bodyTooDeep(deps.bounds.depth);
    let body: unknown;
    try {
      const text = raw.toString('utf8');
      // koa's parser (co-body, bourne) refuses a `__proto__` key anywhere: so does this door
      // (the reviver, slower, only for a body that may hold one).
      body = PROTO_KEY.test(text)
        ? JSON.parse(text, (key, value: unknown) => {
            if (key === '__proto__') throw parseFailed();
            return value;
          })
        : JSON.parse(text);
    } catch {
      throw parseFailed();
    }
    if (typeof body !== 'object' || body === null) throw parseFailed();
    return body;
  }
}

/** The request's id: another specification's route echoes what was sent (src/http/middleware.ts). */
const idOf = (route: RouteDef, headers: IncomingHttpHeaders): string => {
  const incoming = headers['x-request-id'] as string | undefined;
  return route.specWire ? specRequestIdOf(incoming) : requestIdOf(incoming);
};

/** Refused as koa-bodyparser refuses it (strict: an object or an array), with the same answer (toAppError); made only on failure (an Error takes a stack trace). */
const parseFailed = () => Object.assign(new Error('invalid JSON'), { type: 'entity.parse.failed' });

/** Thrown when the request closed before its body was read: nothing is answered. */
const CLOSED = Symbol('closed');
