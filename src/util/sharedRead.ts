/** A read that has not started yet (callers may still join it), and the one running. */
interface Slot<V> {
  waiting?: Promise<V>;
  running?: Promise<V>;
}

/**
 * Reads of the same thing that arrive together share one read that starts after each of them
 * arrived, so every caller sees every write committed before it asked (read-your-revoke,
 * CONTRACT section 9), while at most one read per key runs at a time. A caller arriving while a
 * read runs joins the next one, which starts when the running one ends: under load one read
 * answers a whole group of callers.
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
      .catch(() => undefined)
      .then(() => {
        s.waiting = undefined;
        s.running = next;
        return read();
      })
      .finally(() => {
        if (s.running === next) s.running = undefined;
        if (!s.running && !s.waiting && this.slots.get(key) === s) this.slots.delete(key);
      });
    s.waiting = next;
    return next;
  }
}
