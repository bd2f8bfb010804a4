import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import { type BodyBounds, bodyLimitOf, bodyTooDeep, continueIfExpected, nestsDeeperThan } from './bodies';
import { unrouted } from './methods';
import { specRequestIdOf } from './middleware';
import { type Authenticator, routeOf } from './routeTable';
import type { RequestState } from './requestState';

/**
 * Who first, then what (docs/behaviour.md section 15), on koa's chain: before any byte of the body is
 * read, the request's route is found (an unknown path answers 404, a known one under another
 * method 405) and its caller authenticated (401/403 as docs/behaviour.md says); the router's handler
 * then uses that authentication (`answer` in routeTable.ts). Until then Node holds at most its
 * socket buffers of the body; a body left unread is not drained past 64 KiB (src/http/bodies.ts).
 */
export function credentialsFirst(router: Router, auth: Authenticator) {
  return async (ctx: Context, next: Next) => {
    const layer = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => l.methods.length > 0);
    const route = layer && routeOf(layer);
    if (!layer || !route) throw unrouted(router, ctx);
    const params = layer.params(ctx.path, layer.captures(ctx.path), {}) as Record<string, string>;
    ctx.state.route = route;
    // Another specification's route echoes the request id as sent (AuthZEN), not only a sane one.
    if (route.specWire) {
      const reqId = specRequestIdOf(ctx.get('x-request-id'));
      if (reqId !== ctx.state.reqId) {
        (ctx.state as RequestState).renameTo(reqId);
        ctx.set('x-request-id', reqId);
      }
    }
    // The route's label in the request metrics (the router sets the same once it runs).
    (ctx as { _matchedRoute?: string | RegExp })._matchedRoute = layer.path;
    ctx.state.who = await auth.authenticate(ctx, route, params);
    await next();
  };
}

/**
 * Reads a JSON body up to its route's limit (1 MiB, 8 MiB on bulk routes by default), counted as
 * it arrives: a declared length past it answers 413 before any byte is read, a chunked body as
 * soon as it passes it. A body nested deeper than the depth bound answers 422 before any route
 * sees it (checked on its text, without recursion).
 */
export function boundedBody(bounds: BodyBounds) {
  const parser = (limit: number) => bodyParser({ enableTypes: ['json'], jsonLimit: `${limit}b`, strict: true });
  /** One parser per limit (plain, bulk, and the routes with their own). */
  const parsers = new Map<number, ReturnType<typeof parser>>();
  return async (ctx: Context, next: Next) => {
    // A streamed body (an import) is read by its handler, under its own limit.
    if (ctx.state.route?.streamsBody) {
      continueIfExpected(ctx.req, ctx.res);
      return next();
    }
    const limit = ctx.state.route ? bodyLimitOf(ctx.state.route, bounds) : bounds.bytes;
    // A declared length past the limit is refused by the parser before the client is told to send.
    if (!(Number(ctx.request.length) > limit)) continueIfExpected(ctx.req, ctx.res);
    let parse = parsers.get(limit);
    if (!parse) parsers.set(limit, (parse = parser(limit)));
    await parse(ctx, async () => {
      const raw = (ctx.request as { rawBody?: string }).rawBody;
      if (raw && nestsDeeperThan(raw, bounds.depth)) throw bodyTooDeep(bounds.depth);
      await next();
    });
  };
}
