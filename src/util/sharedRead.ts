/** A read that has not started yet (callers may still join it), and the one running. */
interface Slot<V> {
  waiting?: Promise<V>;
  running?: Promise<V>;
}

/**
 * Reads of the same thing that arrive together share one read that starts after each of them
 * arrived, so every caller sees every write committed before it asked (read-your-revoke,
 * docs/behaviour.md section 9), while at most one read per key runs at a time. A caller arriving while a
 * read runs joins the next one, which starts when the running one ends: under load one read
 * answers a whole group of callers. When the running read fails, the next one fails with it.
 */
export class SharedReads<V> {
  private readonly slots = new Map<string, Slot<V>>();

  /** `read` runs for this key unless a read of it that has not started yet is joined. */
  get(key: string, read: () => Promise<V>): Promise<V> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = {}));
    if (slot.waiting) return slot.waiting;
    const s = slot;
    const next: Promise<V> = (s.running ?? Promise.resolve())
      .then(
        () => {
          s.waiting = undefined;
          s.running = next;
          return read();
        },
        // The callers that waited for a read that failed (a hung or unreachable database) fail
        // with it instead of starting another: each caller waits at most one deadline.
        (err: unknown) => {
          s.waiting = undefined;
          throw err;
        },
      )
      .finally(() => {
        if (s.running === next) s.running = undefined;
        if (!s.running && !s.waiting && this.slots.get(key) === s) this.slots.delete(key);
      });
    s.waiting = next;
    return next;
  }
}
