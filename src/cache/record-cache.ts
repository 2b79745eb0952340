import { LRUCache } from 'lru-cache';

/**
 * A write or delete is visible within one second on every replica. Entries loaded less than
 * UNCONFIRMED_MAX_AGE_MS ago are served in any case; older ones only while the change channel has been proven,
 * less than CONFIRMATION_WINDOW_MS ago, to have delivered every change committed before that proof (each change
 * evicts its key, so what is left is current). Both stay under the second with room for timers and transit.
 */
export const UNCONFIRMED_MAX_AGE_MS = 800;
export const CONFIRMATION_WINDOW_MS = 800;
/** Even with a proven channel an entry is read again after this long. */
export const CONFIRMED_MAX_AGE_MS = 60_000;
export const MAX_ENTRIES = 10_000;
/** Rough bound on the characters held, so that large values (names with many records) cannot exhaust memory. */
export const MAX_CHARS = 8 * 1024 * 1024;

interface Entry<V> {
  value: V;
  loadedAt: number;
}

interface Load<V> {
  promise: Promise<V>;
}

export interface RecordCacheOptions<V> {
  maxEntries?: number;
  maxChars?: number;
  sizeOf?: (value: V) => number;
  now?: () => number;
  onLookup?: (hit: boolean) => void;
}

/**
 * A bounded LRU of loaded values by key (negative results included), with the freshness rule above. A load that
 * an eviction overtakes is served to its callers but not kept, since it may have read what the change replaced.
 * Concurrent misses of one key share one load. ChangeFeed evicts, confirms and resets it. Values are shared:
 * callers must not modify them.
 */
export class RecordCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly loads = new Map<string, Load<V>>();
  private confirmedAt = -Infinity;
  /** When a value was last asked for; the change channel proves itself only while someone reads. */
  lastUsedAt = -Infinity;
  protected readonly now: () => number;
  private readonly onLookup: (hit: boolean) => void;

  constructor(options: RecordCacheOptions<V> = {}) {
    const sizeOf = options.sizeOf ?? (() => 1);
    // A value larger than maxSize is not kept (lru-cache refuses it).
    this.entries = new LRUCache<string, Entry<V>>({
      max: options.maxEntries ?? MAX_ENTRIES,
      maxSize: options.maxChars ?? MAX_CHARS,
      sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)),
    });
    this.now = options.now ?? Date.now;
    this.onLookup = options.onLookup ?? (() => undefined);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of `key`: cached while fresh, else from `load` (whose result is kept unless evicted meanwhile). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    this.lastUsedAt = now;
    const entry = this.entries.get(key);
    if (entry && this.isFresh(entry, now)) {
      this.onLookup(true);
      return entry.value;
    }
    this.onLookup(false);
    if (entry) this.entries.delete(key);
    const running = this.loads.get(key);
    if (running) return running.promise;
    const current: Load<V> = { promise: load() };
    this.loads.set(key, current);
    try {
      const value = await current.promise;
      if (this.loads.get(key) === current) this.entries.set(key, { value, loadedAt: now });
      return value;
    } finally {
      if (this.loads.get(key) === current) this.loads.delete(key);
    }
  }

  /** A change of `key` was committed: forget it, and keep no load that was already running. */
  evict(key: string): void {
    this.entries.delete(key);
    this.loads.delete(key);
  }

  evictAll(): void {
    this.entries.clear();
    this.loads.clear();
  }

  /** Every change committed before `sentAt` has been delivered (and evicted). */
  confirm(sentAt: number): void {
    this.confirmedAt = Math.max(this.confirmedAt, sentAt);
  }

  /** The channel was down: changes may have been missed. Forget everything and trust no earlier proof. */
  reset(): void {
    this.confirmedAt = -Infinity;
    this.evictAll();
  }

  /** The channel is down from now on: entries live UNCONFIRMED_MAX_AGE_MS at most until it is proven again. */
  unconfirm(): void {
    this.confirmedAt = -Infinity;
  }

  get confirmed(): boolean {
    return this.confirmedAt > this.now() - CONFIRMATION_WINDOW_MS;
  }

  private isFresh(entry: Entry<V>, now: number): boolean {
    const age = now - entry.loadedAt;
    if (age < UNCONFIRMED_MAX_AGE_MS) return true;
    return age < CONFIRMED_MAX_AGE_MS && this.confirmedAt > now - CONFIRMATION_WINDOW_MS;
  }
}
