import { FairQueue } from '../util/fairQueue';
import { LruCache } from '../util/lruCache';

/** Digests remembered as failed, and as succeeded: a bound on memory. */
const REMEMBERED = 10_000;

/** Lookups waiting for a slot, per slot: past that, a new one is refused at once. */
const WAITING_PER_SLOT = 32;

export interface SecretGateSettings {
  /** AUTH_FAILURE_TTL_MS: how long a failed digest is refused from memory (0: not remembered). */
  failureTtlMs: number;
  /** AUTH_LOOKUPS_IN_FLIGHT: lookups of secrets not known to succeed, running at once. */
  lookupsInFlight: number;
  /** AUTH_LOOKUP_WAIT_MS: how long such a lookup waits for a slot before the request answers 429. */
  waitMs: number;
}

/**
 * Keeps unknown secrets from becoming the next flood (docs/behaviour.md section 15), for API keys and
 * session tokens alike, by their SHA-256 digest (never the secret):
 * - a digest whose lookup found nothing is refused from memory for AUTH_FAILURE_TTL_MS (a random
 *   256-bit secret that failed does not start to exist later: keys and sessions get new secrets);
 * - a lookup of a digest not seen to succeed runs under one global bound of slots; past it, it
 *   waits at most AUTH_LOOKUP_WAIT_MS, then answers 429 with Retry-After (not 401: the key may be
 *   good, and a client told 401 would drop it). Digests that succeeded skip the bound, so a flood
 *   of made-up keys does not hold up the service's known callers.
 */
export class SecretGate {
  private readonly failed: LruCache<true>;
  private readonly succeeded = new LruCache<true>(REMEMBERED);
  /** The global bound: one line for every caller (the fair queue's per-environment bound is the global one). */
  private readonly lookups: FairQueue;

  constructor(settings: SecretGateSettings) {
    this.failed = new LruCache<true>(settings.failureTtlMs > 0 ? REMEMBERED : 0, settings.failureTtlMs);
    const slots = settings.lookupsInFlight;
    this.lookups = new FairQueue({
      perEnv: slots,
      global: slots,
      maxWaitMs: settings.waitMs,
      maxQueuedPerEnv: slots * WAITING_PER_SLOT,
      message: (seconds) => `Too many requests with credentials this service has not seen are being checked; retry after ${seconds} s.`,
    });
  }

  /** True when this digest failed within AUTH_FAILURE_TTL_MS. */
  failedRecently(digest: string): boolean {
    return this.failed.get(digest) !== undefined;
  }

  /** What a lookup found: a digest that let nobody in is remembered as failed. */
  learn(digest: string, found: boolean): void {
    if (found) {
      this.failed.delete(digest);
      this.succeeded.set(digest, true);
    } else {
      this.succeeded.delete(digest);
      this.failed.set(digest, true);
    }
  }

  /** Runs `lookup`, under the global bound unless the digest succeeded before. */
  lookup<T>(digest: string, lookup: () => Promise<T>): Promise<T> {
    return this.succeeded.get(digest) ? lookup() : this.lookups.run('', lookup);
  }
}
