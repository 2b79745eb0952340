import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { LIVENESS_OPTIONS, watchLiveness } from '../common/redis/liveness';
import type { ChangeTopics, Topic } from './change-topics';

export interface RelayOptions {
  topics: ChangeTopics;
  /** Tells this process's messages from other replicas'. */
  instance: string;
  createRedis: (options: RedisOptions) => Redis;
  logger: Logger;
}

/**
 * This service's own writes published on Redis, and other replicas' heard, so that replicas evict them even while
 * their PostgreSQL channel is down. Redis cannot vouch for writes made elsewhere, so it proves nothing.
 */
export class RedisRelay {
  private readonly sub: Redis;
  private readonly pub: Redis;
  private readonly pubLiveness: { commandFailed: (e: unknown) => void };

  constructor(private readonly options: RelayOptions) {
    const common = {
      lazyConnect: true,
      connectTimeout: 2_000,
      retryStrategy: (times: number) => Math.min(times * 250, 2_000),
      ...LIVENESS_OPTIONS,
    };
    this.sub = options.createRedis({ ...common, maxRetriesPerRequest: null });
    this.pub = options.createRedis({
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
    });
    // ioredis emits 'error' on every failed reconnect; without a listener that would crash the process.
    this.pubLiveness = watchLiveness(this.pub);
    watchLiveness(this.sub);
    this.sub.on('error', () => undefined);
    this.pub.on('error', () => undefined);
    this.sub.on('message', (channel: string, message: string) => this.heard(channel, message));
  }

  start(): void {
    const { topics, logger } = this.options;
    this.sub.subscribe(...topics.redisChannels).catch((e: Error) => logger.warn(`Redis subscribe: ${e.message}`));
    this.pub.connect().catch(() => undefined);
  }

  /** Tells the other replicas that these keys changed; dropped while Redis is not ready. */
  publish(topic: Topic, keys: string[]): void {
    if (this.pub.status !== 'ready' || keys.length === 0) return;
    const message = JSON.stringify({ from: this.options.instance, names: keys });
    this.pub.publish(topic.redisChannel, message).catch((e: unknown) => this.pubLiveness.commandFailed(e));
  }

  stop(): void {
    this.sub.disconnect();
    this.pub.disconnect();
  }

  private heard(redisChannel: string, message: string): void {
    const topic = this.options.topics.byRedisChannel(redisChannel);
    if (!topic) return;
    try {
      const { from, names } = JSON.parse(message) as { from?: unknown; names?: unknown };
      if (from === this.options.instance || !Array.isArray(names)) return;
      for (const name of names) if (typeof name === 'string') topic.cache.evict(name);
    } catch {
      // not ours
    }
  }
}
