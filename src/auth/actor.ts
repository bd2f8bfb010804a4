import { asyncSlot } from '../util/asyncSlot';
import type { Principal, Session } from './types';

/** Who made a change (docs/behaviour.md section 12): the admin key, an environment key (its id), a session (its user). */
export interface Actor {
  kind: 'admin' | 'env_key' | 'session';
  id: string;
}

/**
 * The header by which the admin console names itself (`x-authz-actor: console`, docs/console.md):
 * honoured only with the admin key, and only for that one value, so it can label the admin's own
 * writes but never make a change look like another key's or a user's. Sent by anyone else, or with
 * another value, it is ignored.
 */
export const ACTOR_HEADER = 'x-authz-actor';
export const CONSOLE_ACTOR: Actor = { kind: 'admin', id: 'console' };

export function actorOf(who: { principal?: Principal; session?: Session }, named?: string): Actor | undefined {
  if (who.session) return { kind: 'session', id: who.session.userKey };
  if (who.principal?.kind === 'admin') return named === CONSOLE_ACTOR.id ? CONSOLE_ACTOR : { kind: 'admin', id: 'admin' };
  if (who.principal?.kind === 'env') return { kind: 'env_key', id: who.principal.keyId };
  return undefined;
}

/**
 * The actor of the request being served, for the change events db.write records. Entered by the
 * route table only around writing routes (never around GETs or decision questions, the hot path),
 * so the stores need not pass it down through every service.
 */
const current = asyncSlot<Actor>();

export const runAs = <T>(actor: Actor | undefined, fn: () => Promise<T>): Promise<T> => (actor ? current.run(actor, fn) : fn());

/** The actor of the current request; `system` work (bootstrap, sweeps) has none. */
export const currentActor = (): Actor | undefined => current.get();
