import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Tx } from '../../db/db';
import { now } from '../../util/time';
import type { WebhookEvent, WebhookStore } from './store';

/** How long an event is retried before it is given up. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/** A new config's webhook secret (returned once, at creation). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** `X-Authz-Signature`: `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the config's secret. */
export const signatureOf = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * Announces approval and access request events: the event goes into the outbox in the caller's
 * transaction (so it exists exactly when the change does), and the dispatcher delivers it later;
 * a transition never waits for, or fails because of, a receiver.
 */
export class WebhookOutbox {
  constructor(private readonly store: WebhookStore) {}

  async announce(tx: Tx, env: string, e: { requestId: string; type: string; event: WebhookEvent; data: unknown }) {
    const id = randomUUID();
    const at = now();
    const body = JSON.stringify({ id, event: e.event, type: e.type, occurred_at: at, data: e.data });
    const giveUpAt = new Date(Date.parse(at) + RETRY_WINDOW_MS).toISOString();
    await this.store.enqueue(tx, { env, id, requestId: e.requestId, event: e.event, body, nowIso: at, giveUpAt });
  }
}
