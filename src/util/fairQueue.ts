import { tooManyRequests } from '../errors';

/**
 * Admission of expensive work, fair between environments (docs/behaviour.md section 15, "Fair share").
 * At most `perEnv` units of one environment and `global` units in all run at once. Past that a
 * caller waits in its environment's line; a freed slot goes to the environments with waiting
 * work in turn (round robin), not to whoever came first, so one environment's flood waits behind
 * its own line while another's single question goes next. A wait is bounded: after `maxWaitMs`,
 * or at once when `maxQueuedPerEnv` callers of the environment already wait, the caller is
 * refused with 429 TOO_MANY_REQUESTS and `Retry-After`.
 */
export interface FairQueueOptions {
  perEnv: number;
  global: number;
  maxWaitMs: number;
  maxQueuedPerEnv: number;
  /** Told of each refusal (the `authz_admission_refused_total` metric). */
  onRefused?: (env: string, reason: 'timeout' | 'queue_full') => void;
  /** Names the work in the refusal's message ("heavy questions", "permission checks"). */
  what?: string;
  /** The refusal's whole message instead (a queue not kept per environment), given the seconds to wait. */
  message?: (retryAfterSeconds: number) => string;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class FairQueue {
  private inFlight = 0;
  private readonly running = new Map<string, number>();
  /** Environments with waiting callers, in turn order: the next slot goes to the first one eligible. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly opts: FairQueueOptions) {
    if (opts.perEnv < 1 || opts.global < 1) throw new Error('FairQueue bounds must be at least 1');
  }

  /** Work running now (all environments, or one). */
  active(env?: string): number {
    return env === undefined ? this.inFlight : (this.running.get(env) ?? 0);
  }

  /** Callers waiting now (all environments, or one). */
  queued(env?: string): number {
    if (env !== undefined) return this.waiting.get(env)?.length ?? 0;
    let n = 0;
    for (const line of this.waiting.values()) n += line.length;
    return n;
  }

  /** Runs `work` once admitted, and frees its slot when it settles. */
  async run<T>(env: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(env);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** A slot for `env`: resolves with its release (call it once), or rejects with a 429 error. */
  acquire(env: string): Promise<() => void> {
    // A pump leaves no free slot an eligible waiter could take, so a caller that finds one under
    // its environment's bound jumps nobody.
    if (this.inFlight < this.opts.global && this.active(env) < this.opts.perEnv) return Promise.resolve(this.grant(env));
    const line = this.waiting.get(env) ?? [];
    if (line.length >= this.opts.maxQueuedPerEnv) return Promise.reject(this.refuse(env, 'queue_full'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const current = this.waiting.get(env);
          const at = current?.indexOf(waiter) ?? -1;
          if (at < 0) return;
          current!.splice(at, 1);
          if (!current!.length) this.waiting.delete(env);
          reject(this.refuse(env, 'timeout'));
        }, this.opts.maxWaitMs),
      };
      waiter.timer.unref();
      line.push(waiter);
      this.waiting.set(env, line);
    });
  }

  private grant(env: string): () => void {
    this.inFlight++;
    this.running.set(env, this.active(env) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      const left = this.active(env) - 1;
      if (left > 0) this.running.set(env, left);
      else this.running.delete(env);
      this.pump();
    };
  }

  /** Hands free slots to waiting environments in turn; an environment served goes to the back of the turn. */
  private pump(): void {
    while (this.inFlight < this.opts.global) {
      let next: string | undefined;
      for (const env of this.waiting.keys()) {
        if (this.active(env) < this.opts.perEnv) {
          next = env;
          break;
        }
      }
      if (next === undefined) return;
      const line = this.waiting.get(next)!;
      const waiter = line.shift()!;
      this.waiting.delete(next);
      if (line.length) this.waiting.set(next, line);
      clearTimeout(waiter.timer);
      waiter.resolve(this.grant(next));
    }
  }

  private refuse(env: string, reason: 'timeout' | 'queue_full'): Error {
    this.opts.onRefused?.(env, reason);
    const seconds = Math.max(1, Math.ceil(this.opts.maxWaitMs / 1000));
    return tooManyRequests(
      this.opts.message?.(seconds) ??
        `This environment has too many ${this.opts.what ?? 'requests'} in progress (at most ${this.opts.perEnv} at once, ` +
          `the others wait up to ${this.opts.maxWaitMs} ms); retry after ${seconds} s.`,
      seconds,
    );
  }
}
