import { EventEmitter } from 'node:events';
import type { ChangeTarget } from '../../src/cache/change-topics';

/** The listening connection: records its statements; the test emits its notifications. */
export class FakeClient extends EventEmitter {
  queries: string[] = [];
  ended = false;
  async connect(): Promise<void> {}
  async query(sql: string): Promise<void> {
    this.queries.push(sql);
  }
  async end(): Promise<void> {
    this.ended = true;
  }
  notify(channel: string, payload: string): void {
    this.emit('notification', { channel, payload, processId: 1 });
  }
}

/** A Redis connection: records what is published and subscribed; the test emits its messages. */
export class FakeRedis extends EventEmitter {
  status = 'ready';
  published: [string, string][] = [];
  subscribed: string[] = [];
  disconnected = false;
  async connect(): Promise<void> {}
  async subscribe(...channels: string[]): Promise<void> {
    this.subscribed.push(...channels);
  }
  async publish(channel: string, message: string): Promise<number> {
    this.published.push([channel, message]);
    return 1;
  }
  disconnect(): void {
    this.disconnected = true;
  }
}

/** A cache as the change feed sees it, recording what was done to it. */
export class FakeTarget implements ChangeTarget {
  evicted: string[] = [];
  evictedAll = 0;
  confirmedAt = -Infinity;
  resets = 0;
  lastUsedAt = -Infinity;
  evict(key: string): void {
    this.evicted.push(key);
  }
  evictAll(): void {
    this.evictedAll++;
  }
  confirm(sentAt: number): void {
    this.confirmedAt = Math.max(this.confirmedAt, sentAt);
  }
  reset(): void {
    this.resets++;
    this.confirmedAt = -Infinity;
  }
  unconfirm(): void {
    this.confirmedAt = -Infinity;
  }
  get confirmed(): boolean {
    return this.confirmedAt > -Infinity;
  }
}
