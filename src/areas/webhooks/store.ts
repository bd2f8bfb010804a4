import type { Db, Tx } from '../../db/db';
import type { Page } from '../../http/paging';
import type { WebhookEvent } from '../../db/records';
import type { StatementRows } from '../../db/statements.generated';

export type { WebhookEvent } from '../../db/records';

/** One event to deliver, with where to (the config's webhook as it is now). */
export type DueDelivery = StatementRows['webhooks/claimDue'];

/** An event still in the outbox, as its config's delivery status shows it. */
export type HeldDelivery = StatementRows['webhooks/listDeliveries']['data'][number];

/** The durable webhook outbox: rows written in the transaction of the change they announce. */
export class WebhookStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = this.db.statements({
      enqueue: 'webhooks/enqueue',
      claimDue: 'webhooks/claimDue',
      markDelivered: 'webhooks/markDelivered',
      markFailed: 'webhooks/markFailed',
      configsWithWebhook: 'webhooks/configsWithWebhook',
      listDeliveries: 'webhooks/listDeliveries',
    });
  }

  /** Adds the event to the outbox inside `tx` (nothing when the request's config has no webhook). */
  async enqueue(
    tx: Tx,
    e: { env: string; id: string; requestId: string; event: WebhookEvent; body: string; nowIso: string; giveUpAt: string },
  ) {
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
    return this.db.readOnce(this.q.configsWithWebhook, {});
  }

  async markFailed(env: string, id: string, f: { nextAttemptAt: string; error: string; dead: boolean }) {
    await this.db.writeRows(this.q.markFailed, { env, id, ...f });
  }

  /** The events of one config still in the outbox, newest first (`status` narrows). */
  async listDeliveries(
    env: string,
    configId: string,
    status: HeldDelivery['status'] | null,
    page: Page,
  ): Promise<{ total: number; data: HeldDelivery[] }> {
    // One row always (the statement collects); integers arrive as numbers (the driver's setting).
    const [row] = await this.db.readOnce(this.q.listDeliveries, { env, configId, status, skip: page.skip, limit: page.perPage });
    return row;
  }
}
