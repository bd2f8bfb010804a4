import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The values that work carries down its awaits (the actor of a write, a rehearsal's transaction, a
 * channel deadline, the revisions a request produced), all in one AsyncLocalStorage. Node 20 copies
 * the value of every enabled storage onto each promise the process makes (a property a storage, in
 * the promise hook of each `init`), whatever path made it: one storage holding a frame of slots
 * costs each promise one copy where a storage a value cost one a value, and the storage is enabled
 * only while a run is in progress (below).
 */
const frames = new AsyncLocalStorage<readonly unknown[]>();
let slotsMade = 0;

/**
 * Runs in progress (a run lasts until the promise its function answered settles). Node 20 runs its
 * promise hooks for every promise of the process while any storage is enabled, and a storage, once
 * run, stays enabled for good: since the migrations run at start-up (`withoutAnswerDeadline`), every
 * promise of every request paid them, a check's and a probe's included, that carry no slot at all
 * (docs/benchmarks.md, "The promise hooks"). So the storage is disabled whenever no run is in
 * progress, and enabled again by the next run. What a slot answers is unchanged: work started inside
 * a run ends before the run's promise settles (the slots' users await it: a write's handler, a
 * migration, an admin operation, a rehearsal's step) or is handed to `keepSlotsFor`, and outside
 * every run a slot holds nothing.
 */
let running = 0;
const release = (): void => {
  if (--running === 0) frames.disable();
};

/**
 * Keeps the slots of the run this code runs in (if any) for `work`'s awaits until it settles, even
 * when the run itself ends first: for work that may outlive the caller's wait (a write transaction
 * still running after its caller's deadline answered: it must still read its actor when it records
 * its changes). Outside every run it does nothing.
 */
export function keepSlotsFor<T>(work: Promise<T>): Promise<T> {
  if (frames.getStore() !== undefined) {
    running++;
    releaseWhenSettled(work);
  }
  return work;
}

/** Runs `fn` in `frame`, counted in `running` (from before it starts) until what it answers settles. */
function runCounted<R>(frame: readonly unknown[], fn: () => R): R {
  running++;
  let out: R;
  try {
    out = frames.run(frame, fn);
  } catch (err) {
    release();
    throw err;
  }
  releaseWhenSettled(out);
  return out;
}

/** Ends one counted run when `out` settles: at once when it is no promise. */
function releaseWhenSettled(out: unknown): void {
  const then = (out as { then?: unknown } | null | undefined)?.then;
  if (typeof then === 'function') (out as PromiseLike<unknown>).then(release, release);
  else release();
}

export interface AsyncSlot<T> {
  /** Runs `fn` with this slot holding `value` (the other slots as they are), as AsyncLocalStorage.run. */
  run<R>(value: T, fn: () => R): R;
  /** The value of the innermost `run` this code runs in, or undefined. */
  get(): T | undefined;
}

/** A slot of the shared frame: what an AsyncLocalStorage of its own would be, at no further cost to each promise. */
export function asyncSlot<T>(): AsyncSlot<T> {
  const at = slotsMade++;
  return {
    run(value, fn) {
      const outer = frames.getStore();
      const frame = outer ? outer.slice() : [];
      frame[at] = value;
      return runCounted(frame, fn);
    },
    get: () => frames.getStore()?.[at] as T | undefined,
  };
}
