import cluster from 'node:cluster';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { HostWindows } from './host-windows';
import { MemoryWindows, WindowCount } from './memory-windows';
import { RedisWindows } from './redis-windows';
import { SwitchCarry } from './switch-carry';

export type { WindowCount } from './memory-windows';

/** Throttler's record of a hit (its package does not export the type's name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Fixed-window counters of the rate-limit guard. With REDIS_URL they live in Redis, so all replicas share one
 * budget; while Redis cannot be reached they are counted on this host, with a warning. On the host, the one
 * process counts in its memory, and the workers of a cluster (WORKERS > 1) count on the primary's, so that a
 * limit is the configured number whatever the number of workers. It is throttler's storage (ThrottlerModule also
 * calls its hooks: both are idempotent), with a `refund` throttler's interface lacks.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly memory?: MemoryWindows;
  private readonly host?: HostWindows;
  private readonly redis?: RedisWindows;
  private readonly carry = new SwitchCarry();

  constructor(config: AppConfig, metrics: Metrics = new Metrics()) {
    metrics.rateLimitRedisUp.set(0);
    if (cluster.isWorker) this.host = new HostWindows();
    else this.memory = new MemoryWindows();
    if (config.redisUrl)
      this.redis = new RedisWindows(config.redisUrl, `${config.redisKeyPrefix}rl:`, metrics.rateLimitRedisUp);
  }

  async onModuleInit(): Promise<void> {
    await this.redis?.connect();
  }

  /** Round trip to Redis for the readiness report; false when not configured or unreachable. */
  async pingRedis(): Promise<boolean> {
    return (await this.redis?.ping()) ?? false;
  }

  /**
   * The count of a hit when this process counts it alone (no REDIS_URL, no cluster), at once; otherwise
   * undefined, so that the caller asks `hit`.
   */
  hitInProcess(key: string, windowMs: number): WindowCount | undefined {
    return this.redis ? undefined : this.memory?.hit(key, windowMs);
  }

  /**
   * Counts one hit of `key`: in Redis when it is configured and answers, else on this host; the window counted
   * before a switch between the two still counts until it ends (no burst across a switch).
   */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    if (!this.redis) return this.hitOnHost(key, windowMs);
    const shared = await this.redis.hit(key, windowMs);
    if (shared) return this.carry.count(key, 'redis', shared);
    return this.carry.count(key, 'host', await this.hitOnHost(key, windowMs));
  }

  /**
   * Throttler's count of one hit (ttl in ms): fixed windows, so a blocked client waits for its window's end and
   * blockDuration is not used; hits past the limit still count.
   */
  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const count = this.hitInProcess(key, ttl) ?? (await this.hit(key, ttl));
    const secondsLeft = Math.max(1, Math.ceil(count.msLeft / 1000));
    const isBlocked = count.hits > limit;
    return {
      totalHits: count.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  /** Gives back one hit of the current window, where it was counted (Redis when it answers). */
  async refund(key: string): Promise<void> {
    if (await this.redis?.refund(key)) return;
    if (this.host) this.host.refund(key);
    else this.memory?.refund(key);
  }

  async onApplicationShutdown(): Promise<void> {
    this.host?.close();
    await this.redis?.close();
  }

  private hitOnHost(key: string, windowMs: number): WindowCount | Promise<WindowCount> {
    return this.host ? this.host.hit(key, windowMs) : this.memory!.hit(key, windowMs);
  }
}
