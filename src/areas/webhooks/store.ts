import { Db, Tx } from '../../db/db';
import type { Page } from '../../http/paging';

export type WebhookEvent = 'created' | 'approved' | 'denied' | 'canceled';

/** One event to deliver, with where to (the config's webhook as it is now). */
export interface DueDelivery {
  id: string;
  env: string;
  event: WebhookEvent;
  body: string;
  attempts: number;
  give_up_at: string;
  url: string;
  bearer_token: string | null;
  secret: string;
}

/** An event still in the outbox, as its config's delivery status shows it. */
export interface HeldDelivery {
  id: string;
  request_id: string;
  event: WebhookEvent;
  status: 'pending' | 'dead';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  give_up_at: string;
  created_at: string;
}

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
  async enqueue(tx: Tx, e: { env: string; id: string; requestId: string; event: WebhookEvent; body: string; now: string; giveUpAt: string }) {
    await tx.rows(this.q.enqueue, e);
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<DueDelivery[]> {
    return (await this.db.writeRows(this.q.claimDue, { now, leaseUntil, limit })) as unknown as DueDelivery[];
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

  /** The events of one config still in the outbox, newest first (`status` narrows). */
  async listDeliveries(env: string, configId: string, status: HeldDelivery['status'] | null, page: Page): Promise<{ total: number; data: HeldDelivery[] }> {
    const [row] = await this.db.readOnce(this.q.listDeliveries, { env, configId, status, skip: page.skip, limit: page.perPage });
    const data = (row.data as Record<string, unknown>[]).map((d) => ({ ...d, attempts: Number(d.attempts) }) as unknown as HeldDelivery);
    return { total: Number(row.total), data };
  }
}
