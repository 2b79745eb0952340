import type { WindowCount } from './memory-windows';

/**
 * The hits of one key asked for in one turn of the event loop, and who waits for their counts. The first hit's
 * window is the one a new counter starts with, as it would be were the hits sent one after another.
 */
export interface HitGroup {
  key: string;
  windowMs: number;
  waiting: ((count: WindowCount | undefined) => void)[];
}

/**
 * Gathers the hits asked for in one turn of the event loop by key and hands them over together when the turn
 * ends: behind a gateway, or for a busy key, a turn holds many hits of one key, and one round trip for them
 * costs the event loop far less than one each.
 */
export class HitsPerTurn {
  private groups = new Map<string, HitGroup>();

  constructor(private readonly send: (groups: HitGroup[]) => void) {}

  /** The hit's count once the turn's hits are counted; undefined when they could not be. */
  add(key: string, windowMs: number): Promise<WindowCount | undefined> {
    return new Promise((resolve) => {
      let group = this.groups.get(key);
      if (!group) {
        if (this.groups.size === 0) setImmediate(this.flush);
        group = { key, windowMs, waiting: [] };
        this.groups.set(key, group);
      }
      group.waiting.push(resolve);
    });
  }

  private readonly flush = (): void => {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    this.send(groups);
  };
}

/** Numbers a group's hits in the order they were asked: the counts n hits in a row would have given. */
export function settle({ waiting }: HitGroup, last: number, msLeft: number): void {
  const first = last - waiting.length + 1;
  waiting.forEach((resolve, i) => resolve({ hits: first + i, msLeft }));
}
