/** What the feed does to a cache (RecordCache): evict changed keys, and say how far the channel is proven. */
export interface ChangeTarget {
  evict(key: string): void;
  evictAll(): void;
  confirm(sentAt: number): void;
  reset(): void;
  unconfirm(): void;
  readonly confirmed: boolean;
  readonly lastUsedAt: number;
}

export interface Topic {
  /** The PostgreSQL channel a trigger notifies with each changed key (`*`: everything, for a TRUNCATE). */
  channel: string;
  redisChannel: string;
  cache: ChangeTarget;
}

/** The caches the change feed keeps current, by channel; shared by its listener, probe and relay. */
export class ChangeTopics {
  private readonly byChannel = new Map<string, Topic>();

  add(topic: Topic): void {
    this.byChannel.set(topic.channel, topic);
  }

  get(channel: string): Topic | undefined {
    return this.byChannel.get(channel);
  }

  get size(): number {
    return this.byChannel.size;
  }

  get channels(): string[] {
    return [...this.byChannel.keys()];
  }

  get redisChannels(): string[] {
    return [...this.byChannel.values()].map((t) => t.redisChannel);
  }

  byRedisChannel(redisChannel: string): Topic | undefined {
    return [...this.byChannel.values()].find((t) => t.redisChannel === redisChannel);
  }

  forEachCache(action: (cache: ChangeTarget) => void): void {
    for (const topic of this.byChannel.values()) action(topic.cache);
  }

  /** When any cache was last read through. */
  get lastUsedAt(): number {
    let last = -Infinity;
    for (const topic of this.byChannel.values()) last = Math.max(last, topic.cache.lastUsedAt);
    return last;
  }

  get confirmed(): boolean {
    return [...this.byChannel.values()].every((t) => t.cache.confirmed);
  }

  /** A key heard on `channel` (`*`: every key) evicted from that channel's cache. */
  evict(channel: string, key: string): void {
    const cache = this.byChannel.get(channel)?.cache;
    if (!cache) return;
    if (key === '*') cache.evictAll();
    else cache.evict(key);
  }
}
