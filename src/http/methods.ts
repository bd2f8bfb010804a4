import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from '../errors';

/**
 * A request no route serves (docs/behaviour.md section 9): 405 with an `Allow` header when its path is
 * known under other methods (any method, TRACE, OPTIONS and made-up ones included), else 404.
 * Both are the error body of docs/behaviour.md section 1, never a 500.
 */
export function unrouted(router: Router, ctx: Context): AppError {
  const allowed = new Set<string>();
  for (const layer of router.match(ctx.path, ctx.method).path) for (const m of layer.methods) allowed.add(m);
  if (!allowed.size) return new AppError(404, 'NOT_FOUND', `No endpoint at ${ctx.path}.`);
  ctx.set('allow', [...allowed].join(', '));
  return new AppError(405, 'INVALID_INPUT', `${ctx.method} is not allowed on this endpoint; allowed: ${[...allowed].join(', ')}.`);
}

/** Runs after the router: a request it left unanswered gets `unrouted`'s answer. */
export function methodNotAllowed(router: Router) {
  return async (ctx: Context, next: Next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    throw unrouted(router, ctx);
  };
}
