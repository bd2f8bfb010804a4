import { tooManyRequests } from '../errors';

/**
 * Admission of expensive work, fair between environments (docs/behaviour.md section 15, "Fair share"),
 * and work-conserving: at most `global` units run at once, and a free slot is never left idle
 * while someone waits. An environment alone may use every slot; its bound `perEnv` bites only
 * when other environments wait: a freed slot goes first to the waiting environments under their
 * bound, in turn (round robin), not to whoever came first, then (none under it) to the waiting
 * environment running the fewest. So one environment's flood waits behind its own line, and
 * another's single question takes the next slot that frees (a wait of one unit of work at most).
 * A wait is bounded: after `maxWaitMs`, or at once when `maxQueuedPerEnv` callers of the
 * environment already wait, the caller is refused with 429 TOO_MANY_REQUESTS and `Retry-After`;
 * with `waitAlone`, a caller whose environment is alone on the queue (no other environment runs
 * or waits) is not refused for its wait: it takes the next slot its own work frees (nobody else
 * wants it), so a single tenant below the queue's length is never refused.
 */
export interface FairQueueOptions {
  perEnv: number;
  global: number;
  maxWaitMs: number;
  maxQueuedPerEnv: number;
  /**
   * A caller of an environment alone on the queue is not refused when `maxWaitMs` passes: it waits
   * for the next slot (every slot's work ends within its own deadlines). Off: every wait is bounded
   * (a queue whose bound protects the service itself, not other environments: the secret gate).
   */
  waitAlone?: boolean;
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
    // A pump leaves no free slot while anyone waits, so a caller that finds one jumps nobody.
    if (this.inFlight < this.opts.global) return Promise.resolve(this.grant(env));
    const line = this.waiting.get(env) ?? [];
    if (line.length >= this.opts.maxQueuedPerEnv) return Promise.reject(this.refuse(env, 'queue_full'));
    return new Promise((resolve, reject) => {
      const expire = () => {
        const current = this.waiting.get(env);
        const at = current?.indexOf(waiter) ?? -1;
        if (at < 0) return;
        if (this.opts.waitAlone && this.alone(env)) {
          // Nobody else wants a slot: refusing would leave work undone below capacity.
          waiter.timer = setTimeout(expire, this.opts.maxWaitMs);
          waiter.timer.unref();
          return;
        }
        current!.splice(at, 1);
        if (!current!.length) this.waiting.delete(env);
        reject(this.refuse(env, 'timeout'));
      };
      const waiter: Waiter = { resolve, reject, timer: setTimeout(expire, this.opts.maxWaitMs) };
      waiter.timer.unref();
      line.push(waiter);
      this.waiting.set(env, line);
    });
  }

  /** No other environment runs or waits. */
  private alone(env: string): boolean {
    for (const other of this.running.keys()) if (other !== env) return false;
    for (const other of this.waiting.keys()) if (other !== env) return false;
    return true;
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

  /**
   * Hands free slots to waiting environments: those under their bound in turn, else the one
   * running the fewest (first in turn among equals); an environment served goes to the back of the turn.
   */
  private pump(): void {
    while (this.inFlight < this.opts.global && this.waiting.size) {
      let next: string | undefined;
      for (const env of this.waiting.keys()) {
        if (this.active(env) < this.opts.perEnv) {
          next = env;
          break;
        }
        if (next === undefined || this.active(env) < this.active(next)) next = env;
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
        `This environment has too many ${this.opts.what ?? 'requests'} in progress (at most ${this.opts.perEnv} at once ` +
          `while other environments wait, the others wait up to ${this.opts.maxWaitMs} ms); retry after ${seconds} s.`,
      seconds,
    );
  }
}
