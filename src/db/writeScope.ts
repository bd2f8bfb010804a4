import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The environment a request writes to. Every write transaction run inside it also bumps that
 * environment's revision, in the same transaction: a committed write always moves the revision,
 * so no cached decision from before it can be used again.
 */
export interface WriteScope {
  envId: string;
  /** The revision after the request's last write, for the `X-Authz-Revision` header. */
  revision?: number;
}

export const writeScope = new AsyncLocalStorage<WriteScope>();
