import { Db, Tx } from '../../db/db';
import type { WebhookEvent } from '../../db/records';
import type { StatementRows } from '../../db/statements.generated';

export type { WebhookEvent } from '../../db/records';

/** One event to deliver, with where to (the config's webhook as it is now). */
export type DueDelivery = StatementRows['webhooks/claimDue'];

/** The durable webhook outbox: rows written in the transaction of the change they announce. */
export class WebhookStore {
  private readonly q = this.db.statements({
    enqueue: 'webhooks/enqueue',
    claimDue: 'webhooks/claimDue',
    markDelivered: 'webhooks/markDelivered',
    markFailed: 'webhooks/markFailed',
    configsWithWebhook: 'webhooks/configsWithWebhook',
  });

  constructor(private readonly db: Db) {}

  /** Adds the event to the outbox inside `tx` (nothing when the request's config has no webhook). */
  async enqueue(tx: Tx, e: { env: string; id: string; requestId: string; event: WebhookEvent; body: string; nowIso: string; giveUpAt: string }) {
    await tx.rows(this.q.enqueue, e);
  }

  async claimDue(nowIso: string, leaseUntil: string, limit: number): Promise<DueDelivery[]> {
    return this.db.writeRows(this.q.claimDue, { nowIso, leaseUntil, limit });
  }

  async markDelivered(env: string, id: string) {
    await this.db.writeRows(this.q.markDelivered, { env, id });
  }

  /** Every config with a webhook, all environments, with the count of its events still pending. */
  async configsWithWebhook(): Promise<{ env: string; key: string; url: string; pending: number }[]> {
    const rows = await this.db.readOnce(this.q.configsWithWebhook, {});
    return rows.map((r) => ({ env: r.env as string, key: r.key as string, url: r.url as string, pending: Number(r.pending) }));
  }

  async markFailed(env: string, id: string, f: { nextAttemptAt: string; error: string; dead: boolean }) {
    await this.db.writeRows(this.q.markFailed, { env, id, ...f });
  }
}
