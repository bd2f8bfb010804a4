import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The values that work carries down its awaits (the actor of a write, a rehearsal's transaction, a
 * channel deadline, the revisions a request produced), all in one AsyncLocalStorage. Node 20 copies
 * the value of every storage in use onto each promise the process makes (a property a storage, in
 * the promise hook of each `init`), on every path, the hot one included: one storage holding a
 * frame of slots costs each promise one copy where a storage a value cost one a value.
 */
const frames = new AsyncLocalStorage<readonly unknown[]>();
let slotsMade = 0;

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
      return frames.run(frame, fn);
    },
    get: () => frames.getStore()?.[at] as T | undefined,
  };
}
