/** Hits so far in the current window of a key, and milliseconds until that window ends. */
export interface WindowCount {
  hits: number;
  msLeft: number;
}

/**
 * Fixed windows counted in memory: by the one process without REDIS_URL, by a cluster's primary for all the
 * workers of its host, and as the fallback while Redis is away.
 */
export class MemoryWindows {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();
  private lastSweep = Date.now();

  /** Counts `count` hits of `key`; the count of the last one. */
  hit(key: string, windowMs: number, count = 1, now = Date.now()): WindowCount {
    if (now - this.lastSweep > windowMs) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { hits: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.hits += count;
    return { hits: w.hits, msLeft: w.resetAt - now };
  }

  /** Gives back one hit of a window still running (a request that turned out to count elsewhere). */
  refund(key: string, now = Date.now()): void {
    const w = this.windows.get(key);
    if (w && w.resetAt > now && w.hits > 0) w.hits -= 1;
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    this.lastSweep = now;
  }
}
