import type { WindowCount } from './memory-windows';

export type CountSource = 'redis' | 'host';

interface Carried {
  hits: number;
  endsAt: number;
}

interface LastCount extends Carried {
  source: CountSource;
  /** The other source's count of a window still running when this key's counting switched. */
  carried?: Carried;
}

/**
 * Carries a key's count across a switch between Redis and the host (either way): until the window counted before
 * the switch ends, its hits are added to the new source's, so that a switch never hands out a fresh budget.
 */
export class SwitchCarry {
  private readonly last = new Map<string, LastCount>();
  private sweepAt = 1024;

  count(key: string, source: CountSource, own: WindowCount, now = Date.now()): WindowCount {
    const prev = this.last.get(key);
    let carried = prev?.carried && prev.carried.endsAt > now ? prev.carried : undefined;
    if (prev && prev.source !== source && prev.endsAt > now) carried = { hits: prev.hits, endsAt: prev.endsAt };
    if (this.last.size >= this.sweepAt) this.sweep(now);
    this.last.set(key, { source, hits: own.hits, endsAt: now + own.msLeft, carried });
    return carried ? { hits: own.hits + carried.hits, msLeft: own.msLeft } : own;
  }

  get size(): number {
    return this.last.size;
  }

  private sweep(now: number): void {
    for (const [key, c] of this.last) {
      if (c.endsAt <= now && (!c.carried || c.carried.endsAt <= now)) this.last.delete(key);
    }
    this.sweepAt = Math.max(1024, this.last.size * 2);
  }
}
