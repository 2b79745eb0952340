import cluster from 'node:cluster';
import { HitGroup, HitsPerTurn, settle } from './hits-per-turn';
import { MemoryWindows, WindowCount } from './memory-windows';

const HITS = 'rate-limit:hits';
const COUNTS = 'rate-limit:counts';
const REFUND = 'rate-limit:refund';
const HELLO = 'rate-limit:hello';
const WELCOME = 'rate-limit:welcome';

/** A worker's hits of one turn: [key, window, number of hits] each. */
interface HitsMessage {
  type: typeof HITS;
  id: number;
  hits: [string, number, number][];
}
/** The primary's answer: the count of each key's last hit and its window's time left, in the order asked. */
interface CountsMessage {
  type: typeof COUNTS;
  id: number;
  counts: [number, number][];
}
interface RefundMessage {
  type: typeof REFUND;
  key: string;
}

const isMessage = <T extends { type: string }>(msg: unknown, type: T['type']): msg is T =>
  typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === type;
const ignore = () => undefined;

/**
 * In a cluster's primary: holds the windows of the whole host and counts every worker's hits, so that a limit
 * is the configured number however many workers serve.
 */
export function serveHostWindows(): void {
  const windows = new MemoryWindows();
  cluster.on('message', (worker, msg: unknown) => {
    if (isMessage<HitsMessage>(msg, HITS)) {
      const counts = msg.hits.map(([key, windowMs, n]): [number, number] => {
        const count = windows.hit(key, windowMs, n);
        return [count.hits, count.msLeft];
      });
      // A worker that died meanwhile has no one to answer; the callback keeps that from being an 'error'.
      if (worker.isConnected()) worker.send({ type: COUNTS, id: msg.id, counts } satisfies CountsMessage, ignore);
    } else if (isMessage<RefundMessage>(msg, REFUND)) {
      windows.refund(msg.key);
    } else if (isMessage(msg, HELLO) && worker.isConnected()) {
      worker.send({ type: WELCOME }, ignore);
    }
  });
}

/**
 * In a cluster's worker: counts on the host's windows, which the primary holds; the hits of one turn of the
 * event loop go in one message. Under a primary that is not ours, or once ours is gone (the worker is on its way
 * out), it counts alone.
 */
export class HostWindows {
  private readonly turn = new HitsPerTurn((groups) => this.send(groups));
  private readonly pending = new Map<number, HitGroup[]>();
  private readonly alone = new MemoryWindows();
  private nextId = 1;
  // Another cluster manager's primary (PM2's) would never answer: until ours says it holds the windows, count alone.
  private welcomed = false;

  constructor() {
    process.on('message', this.receive);
    process.once('disconnect', this.orphan);
    process.send?.({ type: HELLO }, undefined, undefined, ignore);
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    if (!this.welcomed || !process.connected) return Promise.resolve(this.alone.hit(key, windowMs));
    return this.turn.add(key, windowMs).then((count) => count ?? this.alone.hit(key, windowMs));
  }

  refund(key: string): void {
    if (this.welcomed && process.connected)
      process.send!({ type: REFUND, key } satisfies RefundMessage, undefined, undefined, ignore);
    else this.alone.refund(key);
  }

  close(): void {
    process.off('message', this.receive);
    process.off('disconnect', this.orphan);
    this.orphan();
  }

  private send(groups: HitGroup[]): void {
    if (!process.connected) return groups.forEach((g) => g.waiting.forEach((resolve) => resolve(undefined)));
    const id = this.nextId++;
    this.pending.set(id, groups);
    const hits = groups.map((g): [string, number, number] => [g.key, g.windowMs, g.waiting.length]);
    process.send!({ type: HITS, id, hits } satisfies HitsMessage, undefined, undefined, (e) => e && this.unsent(id));
  }

  private unsent(id: number): void {
    this.pending.get(id)?.forEach((group) => group.waiting.forEach((resolve) => resolve(undefined)));
    this.pending.delete(id);
  }

  private readonly receive = (msg: unknown): void => {
    if (isMessage(msg, WELCOME)) this.welcomed = true;
    if (!isMessage<CountsMessage>(msg, COUNTS)) return;
    const groups = this.pending.get(msg.id);
    if (!groups) return;
    this.pending.delete(msg.id);
    groups.forEach((group, i) => settle(group, msg.counts[i][0], msg.counts[i][1]));
  };

  /** Hits still waiting for a primary that is gone are counted here instead. */
  private readonly orphan = (): void => {
    for (const id of [...this.pending.keys()]) this.unsent(id);
  };
}
