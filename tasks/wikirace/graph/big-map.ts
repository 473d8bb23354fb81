/**
 * A Map split over shards: one JavaScript Map holds at most 2^24 (about 16.7 million) entries, and
 * English Wikipedia has more main-namespace pages (redirects included) and link targets than that.
 */
export class BigMap<K extends string | number, V> {
  private readonly shards: Map<K, V>[];

  constructor(private readonly shardCount = 16) {
    this.shards = Array.from({ length: shardCount }, () => new Map<K, V>());
  }

  private shard(key: K): Map<K, V> {
    if (typeof key === 'number') return this.shards[(key >>> 0) % this.shardCount]!;
    let h = 0;
    for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
    return this.shards[(h >>> 0) % this.shardCount]!;
  }

  get(key: K): V | undefined {
    return this.shard(key).get(key);
  }

  set(key: K, value: V): this {
    this.shard(key).set(key, value);
    return this;
  }

  get size(): number {
    return this.shards.reduce((sum, s) => sum + s.size, 0);
  }

  clear(): void {
    for (const s of this.shards) s.clear();
  }
}
