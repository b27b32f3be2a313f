/**
 * A bounded in-process cache whose entries each expire at a time of their
 * own: used where an answer is reused for many requests (verified operator
 * tokens, operator standings) to spare the work or round trip behind it.
 *
 * Past `maxEntries` the oldest entry goes. A Map keeps insertion order, which
 * is all the eviction this needs (entries also die at their expiry), so no
 * LRU library is pulled in for it.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();

  constructor(private readonly maxEntries: number) {}

  /** The value stored under `key` if it has not expired at `nowMs`, else undefined (and it is dropped). */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, expiresAtMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs });
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
