import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { observeRequest } from './httpMetrics';
import type { Metrics } from '../metrics/metrics';
import { errorAnswer, requestIdOf, SPEC_ERROR_TYPE, specErrorAnswer, specRequestIdOf } from './middleware';
import { type BodyBounds, bodyLimitOf, bodyTooDeep, continueIfExpected, nestsDeeperThan } from './bodies';
import { answer, type Authenticator, type Req, type RevisionOf, type RouteDef } from './routeTable';

/** A `__proto__` key, written plainly or with escapes (the test bourne makes before it looks closer). */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/**
 * The permission questions' own door, in front of koa (routes marked `hot`: single and bulk
 * checks, list-objects). A repeated check answered from the decision cache spent most of its CPU
 * in the koa chain (context objects, compose, body parser, router, method check; list-objects
 * 13 % of its service CPU: docs/benchmarks.md); this path reads the JSON body itself and goes
 * straight to `answer` (src/http/routeTable.ts), the same authentication, schemas and handler as
 * the koa route, with the same request id, log line, metrics and error bodies. Anything it does
 * not expect (another method or path, a query string, a body that is not declared JSON with a
 * length, or longer than the route's limit) goes to koa untouched. As on koa's chain, the caller is
 * authenticated before the body is read (docs/behaviour.md section 15), and a body nested deeper than the
 * depth bound answers 422.
 */
export function hotPath(
  routes: RouteDef[],
  deps: { auth: Authenticator; log: Logger; metrics: Metrics; revisionOf?: RevisionOf; bounds: BodyBounds },
  koa: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const byPath = new Map<string, RouteDef>();
  const templates: { route: RouteDef; template: string; re: RegExp; names: string[] }[] = [];
  for (const route of routes.filter((r) => r.hot && r.method === 'POST')) {
    for (const template of Array.isArray(route.path) ? route.path : [route.path]) {
      const names = [...template.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      if (!names.length) byPath.set(template, route);
      else templates.push({ route, template, names, re: new RegExp(`^${template.replace(/:[A-Za-z_]+/g, '([^/]+)')}$`) });
    }
  }

  /** The route and its decoded path parameters, or undefined (koa then answers, 404 and 405 included). */
  const match = (path: string): { route: RouteDef; template: string; params: Record<string, string> } | undefined => {
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

  return (req, res) => {
    const length = Number(req.headers['content-length']);
    const type = req.headers['content-type'] ?? '';
    // A compressed body (Content-Encoding) is koa's to inflate or refuse (415).
    const plain = req.headers['content-encoding'] === undefined;
    const found =
      req.method === 'POST' && plain && !req.url!.includes('?') && length > 0 && /^application\/json\s*(;|$)/i.test(type)
        ? match(req.url!)
        : undefined;
    // Longer than the route's limit: koa answers 413 (after the credentials), as it does every other refusal of a body.
    if (!found || length > bodyLimitOf(found.route, deps.bounds)) return koa(req, res);
    const incomingId = req.headers['x-request-id'] as string | undefined;
    void serve(found, performance.now(), found.route.specWire ? specRequestIdOf(incomingId) : requestIdOf(incomingId), req, res);
  };

  /** The body, read whole (Node holds it to its declared length, within the route's limit: checked above). */
  function bodyOf(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
    continueIfExpected(req, res);
    return new Promise((ok, fail) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => ok(Buffer.concat(chunks)));
      req.on('error', fail);
      req.on('close', () => fail(new Error('the request closed before its body was read')));
    });
  }

  async function serve(
    found: { route: RouteDef; template: string; params: Record<string, string> },
    arrivedAt: number,
    reqId: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const headers: Record<string, string> = { 'x-request-id': reqId };
    let childLog: Logger | undefined;
    const log = () => (childLog ??= deps.log.child({ reqId }));
    const state: Record<string, unknown> = { arrivedAt, reqId };
    Object.defineProperty(state, 'log', { get: log, enumerable: true });
    // What `answer`, the authenticator and the decision handlers use of koa's context.
    const ctx = {
      path: req.url,
      method: req.method,
      state,
      get: (name: string) => (req.headers[name.toLowerCase()] as string | undefined) ?? '',
      set: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    } as unknown as Context;
    let status: number;
    let payload: unknown;
    let errorText: string | undefined;
    try {
      // Who first, then what: the body is read only for a caller that may call the route.
      const who: Partial<Req> = await deps.auth.authenticate(ctx, found.route, found.params);
      let raw: Buffer;
      try {
        raw = await bodyOf(req, res);
      } catch {
        res.destroy();
        return;
      }
      if (nestsDeeperThan(raw, deps.bounds.depth)) throw bodyTooDeep(deps.bounds.depth);
      // Refused as koa-bodyparser refuses it (strict: an object or an array), with the same answer (toAppError).
      const parseFailed = Object.assign(new Error('invalid JSON'), { type: 'entity.parse.failed' });
      let body: unknown;
      try {
        const text = raw.toString('utf8');
        // koa's parser (co-body, bourne) refuses a `__proto__` key anywhere: so does this door
        // (the reviver, slower, only for a body that may hold one).
        body = PROTO_KEY.test(text)
          ? JSON.parse(text, (key, value: unknown) => {
              if (key === '__proto__') throw parseFailed;
              return value;
            })
          : JSON.parse(text);
      } catch {
        throw parseFailed;
      }
      if (typeof body !== 'object' || body === null) throw parseFailed;
      const out = await answer(
        found.route,
        deps.auth,
        deps.revisionOf,
        ctx,
        { params: found.params, query: {}, headers: req.headers, body },
        who,
      );
      status = out.status;
      payload = out.body;
    } catch (err) {
      // Another specification's route answers its errors as it says (src/http/middleware.ts).
      const out = found.route.specWire ? specErrorAnswer(err, log()) : errorAnswer(err, log());
      status = out.status;
      if ('text' in out) errorText = out.text;
      else payload = out.body;
      Object.assign(headers, out.headers);
    }
    const json = errorText ?? JSON.stringify(payload);
    headers['content-type'] = errorText === undefined ? 'application/json; charset=utf-8' : SPEC_ERROR_TYPE;
    headers['content-length'] = String(Buffer.byteLength(json));
    res.writeHead(status, headers);
    res.end(json);
    const seconds = (performance.now() - arrivedAt) / 1000;
    observeRequest(deps.metrics, 'POST', found.template, status, seconds, headers['x-authz-depth-limited']);
    if (deps.log.isLevelEnabled('info'))
      log().info({ method: 'POST', path: req.url, status, ms: Math.round(seconds * 10_000) / 10 }, 'request');
  }
}
