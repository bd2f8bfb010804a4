import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from 'pino';
import { BlockedDestination, type BlockedNetworks } from '../../util/networks';
import { signatureOf } from './outbox';
import type { DueDelivery, WebhookStore } from './store';

/** Deliveries claimed per poll, how long a claim holds, and how long one POST may take. */
const BATCH = 20;
const LEASE_MS = 60_000;
const POST_TIMEOUT_MS = 10_000;
/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 3600_000;

export interface DispatcherOptions {
  pollMs: number;
  /** The wait after the first failure; it doubles after each further one (up to an hour). */
  retryBaseMs: number;
  /** Addresses a delivery may not go to (WEBHOOK_BLOCKED_NETWORKS, special ranges not in WEBHOOK_ALLOWED_NETWORKS); such a delivery fails as "blocked". */
  blocked: BlockedNetworks;
}

/**
 * Delivers the webhook outbox: every poll claims the due events (the oldest pending one of each
 * request, so a request's events arrive in order), POSTs them, and deletes those answered 2xx.
 * A failure is retried with exponential backoff until 24 h after the event. At least once: a crash
 * between the POST and the delete sends the event again once its claim lapses.
 */
export class WebhookDispatcher {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly store: WebhookStore,
    private readonly opts: DispatcherOptions,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.opts.pollMs);
    this.timer.unref();
  }

  /**
   * Names in the log each stored config whose URL this version's settings refuse (after an
   * upgrade that refuses internal addresses by default): its events stay in the outbox, each
   * attempt failing as "blocked" (kept for retry until its 24 h pass), until the URL is changed or
   * WEBHOOK_ALLOWED_NETWORKS lets it through. Answers those configs; a failed read only warns.
   */
  async reportRefusedUrls(): Promise<{ env: string; key: string; url: string; pending: number }[]> {
    try {
      const refused = (await this.store.configsWithWebhook()).filter((c) => this.opts.blocked.blocksLiteral(c.url));
      for (const c of refused) {
        this.log.warn(
          { env: c.env, config: c.key, host: new URL(c.url).host, pendingEvents: c.pending },
          'webhook URL of an elements config is refused by WEBHOOK_BLOCKED_NETWORKS / WEBHOOK_ALLOWED_NETWORKS: its deliveries fail as "blocked" until the URL is changed or its network is allowed',
        );
      }
      return refused;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not check the stored webhook URLs at start-up');
      return [];
    }
  }

  /** Stops polling; resolves once the poll in flight (if any) has recorded its outcomes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One poll; a poll still running when the next is due makes that one a no-op. */
  tick(): Promise<void> {
    if (!this.running) this.running = this.poll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async poll(): Promise<void> {
    try {
      const at = Date.now();
      const due = await this.store.claimDue(new Date(at).toISOString(), new Date(at + LEASE_MS).toISOString(), BATCH);
      await Promise.all(due.map((d) => this.deliver(d)));
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'webhook poll failed; retrying on the next one');
    }
  }

  private async deliver(d: DueDelivery): Promise<void> {
    const error = await postEvent(d, this.opts.blocked);
    if (!error) return this.store.markDelivered(d.env, d.id);
    const wait = Math.min(this.opts.retryBaseMs * 2 ** d.attempts, MAX_BACKOFF_MS);
    const next = new Date(Date.now() + wait).toISOString();
    const dead = next > d.give_up_at;
    this.log[dead ? 'warn' : 'debug'](
      { delivery: d.id, attempts: d.attempts + 1, error },
      dead ? 'webhook given up after 24 h' : 'webhook delivery failed; will retry',
    );
    await this.store.markFailed(d.env, d.id, { nextAttemptAt: next, error, dead });
  }
}

/**
 * POSTs one event; the reason it failed, or undefined when the receiver answered 2xx. Redirects
 * are not followed. The connection goes only to an address outside the blocked networks: a URL
 * naming one literally, or a host name resolving to one, fails as "blocked: ...".
 */
export async function postEvent(d: DueDelivery, blocked: BlockedNetworks): Promise<string | undefined> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(d.body)),
    'x-authz-signature': signatureOf(d.secret, d.body),
    'x-authz-event': d.event,
    'x-authz-delivery': d.id,
  };
  if (d.bearer_token) headers.authorization = `Bearer ${d.bearer_token}`;
  if (blocked.blocksLiteral(d.url)) return `blocked: ${new URL(d.url).hostname} is in a blocked network`;
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const request = d.url.toLowerCase().startsWith('https:') ? httpsRequest : httpRequest;
      // agent: false: a new connection each time, so every delivery resolves and checks the name again.
      const req = request(
        d.url,
        { method: 'POST', headers, agent: false, lookup: blocked.lookup, signal: AbortSignal.timeout(POST_TIMEOUT_MS) },
        (res) => {
          res
            .on('error', reject)
            .on('end', () => resolve(res.statusCode ?? 0))
            .resume();
        },
      );
      req.on('error', reject).end(d.body);
    });
    return status >= 200 && status < 300 ? undefined : `HTTP ${status}`;
  } catch (err) {
    if (err instanceof BlockedDestination) return `blocked: ${err.message}`;
    const e = err as Error;
    return e.name === 'TimeoutError' || e.name === 'AbortError' ? 'timeout' : 'unreachable';
  }
}
