import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from '../errors';

/**
 * Runs after the router (CONTRACT section 9): a request no route served answers 405 with an
 * `Allow` header when its path is known under other methods (any method, TRACE, OPTIONS and
 * made-up ones included), else 404. Both are the contract's error body, never a 500.
 */
export function methodNotAllowed(router: Router) {
  return async (ctx: Context, next: Next) => {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const allowed = new Set<string>();
    for (const layer of router.match(ctx.path, ctx.method).path) for (const m of layer.methods) allowed.add(m);
    if (!allowed.size) throw new AppError(404, 'NOT_FOUND', `No endpoint at ${ctx.path}.`);
    ctx.set('allow', [...allowed].join(', '));
    throw new AppError(405, 'INVALID_INPUT', `${ctx.method} is not allowed on this endpoint; allowed: ${[...allowed].join(', ')}.`);
  };
}
