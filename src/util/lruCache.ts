/**
 * A bounded map that forgets its least recently used entries, and entries older than `ttlMs`.
 *
 * The map keeps its entries in order of use (insertion order: the oldest first). A hit moves its
 * entry to the newest end only when it is in the older half of the order (more than half the
 * size's sets ago): a hit on an entry used or set since then leaves the map alone (a `delete` and
 * a `set` spared: the decision cache takes 100 hits a bulk check). So an entry that was read is
 * never forgotten before half the size of newer entries are set after that read; with a size of
 * 2 or 3, that is exactly least recently used.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; at: number; seq: number }>();
  /** Counts moves to the newest end (sets, and hits that moved their entry): each entry's `seq` is its last. */
  private seq = 0;
  private readonly half: number;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Infinity,
  ) {
    this.half = Math.max(1, Math.floor(maxEntries / 2));
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.ttlMs !== Infinity && Date.now() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.seq - e.seq >= this.half) {
      this.entries.delete(key);
      e.seq = ++this.seq;
      this.entries.set(key, e);
    }
    return e.value;
  }

  set(key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.ttlMs === Infinity ? 0 : Date.now(), seq: ++this.seq });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
