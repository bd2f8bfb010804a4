/** A bounded map that forgets its least recently used entries, and entries older than `ttlMs`. */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = Infinity,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (Date.now() - e.at > this.ttlMs) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, at: Date.now() });
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
