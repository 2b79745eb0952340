import cluster from 'node:cluster';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { rateLimitRedisUp } from '../metrics/metrics';
import { HostWindows } from './host-windows';
import { MemoryWindows, WindowCount } from './memory-windows';
import { RedisWindows } from './redis-windows';
import { SwitchCarry } from './switch-carry';

export type { WindowCount } from './memory-windows';

/**
 * Fixed-window counters of the rate-limit guard. With REDIS_URL they live in Redis, so all replicas share one
 * budget; while Redis cannot be reached they are counted on this host, with a warning. On the host, the one
 * process counts in its memory, and the workers of a cluster (WORKERS > 1) count on the primary's, so that a
 * limit is the configured number whatever the number of workers.
 */
@Injectable()
export class RateLimitStorage implements OnModuleInit, OnApplicationShutdown {
  private readonly memory?: MemoryWindows;
  private readonly host?: HostWindows;
  private readonly redis?: RedisWindows;
  private readonly carry = new SwitchCarry();

  constructor(config: AppConfig) {
    rateLimitRedisUp.set(0);
    if (cluster.isWorker) this.host = new HostWindows();
    else this.memory = new MemoryWindows();
    if (config.redisUrl) this.redis = new RedisWindows(config.redisUrl, `${config.redisKeyPrefix}rl:`);
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
