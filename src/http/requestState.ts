import type { Logger } from 'pino';

/**
 * What a request carries through the layers that serve it (`ctx.state`, on koa's chain and on the hot
 * path): when it arrived, its id, and its logger, a child of the service's made only when something
 * logs. The logger is a getter of this class, one for every request, and never a getter of each
 * request's own (a `get` in an object literal, or `Object.defineProperty`): on Node 20's V8 each of
 * those gives its object a hidden class and accessor pair of its own, made in the old generation and
 * pointing at the request's young closures, so every request's objects outlived the scavenges until
 * the next full collection (a fifth of what a request allocated was promoted; docs/benchmarks.md,
 * "A getter per request").
 */
export class RequestState {
  private child: Logger | undefined = undefined;
  /** Set by the layers as they learn them (src/http/credentialsFirst.ts, src/http/routeTable.ts). */
  route: unknown = undefined;
  who: unknown = undefined;
  status: unknown = undefined;

  constructor(
    /** performance.now() when the request arrived: what it is answered from includes every write acknowledged before. */
    readonly arrivedAt: number,
    public reqId: string,
    private readonly base: Logger,
  ) {}

  /** The request's logger, made at its first use with the request id of that moment. */
  get log(): Logger {
    return (this.child ??= this.base.child({ reqId: this.reqId }));
  }

  /**
   * Another id for the request (a route of another specification echoes the caller's own:
   * src/http/credentialsFirst.ts): lines logged from now on carry it, once (a child of the request's
   * logger would write both ids' key in every line).
   */
  renameTo(reqId: string): void {
    this.reqId = reqId;
    this.child = undefined;
  }
}
