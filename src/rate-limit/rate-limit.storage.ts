import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { rateLimitRedisUp } from '../metrics/metrics';

/** Hits so far in the current window of a key, and milliseconds until that window ends. */
export interface WindowCount {
  hits: number;
  msLeft: number;
}

/** Fixed windows counted in this process: the fallback, and the only store without REDIS_URL. */
export class MemoryWindows {
  private readonly windows = new Map<string, { hits: number; resetAt: number }>();
  private lastSweep = Date.now();

  hit(key: string, windowMs: number, now = Date.now()): WindowCount {
    if (now - this.lastSweep > windowMs) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { hits: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.hits += 1;
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

// One round trip: count ARGV[2] hits, start the window on the first one, say how long the window has left.
const HIT_SCRIPT = `
local hits = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

// Gives back one hit, never below zero, leaving the window's expiry alone.
const REFUND_SCRIPT = `
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
if hits > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/** After a Redis failure, count in process for this long before one request tries Redis again. */
const REDIS_RETRY_AFTER_MS = 5_000;
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_STARTUP_WAIT_MS = 3_000;

type RedisWithHit = Redis & {
  rateLimitHit(key: string, windowMs: number, count: number): Promise<[number, number]>;
  rateLimitRefund(key: string): Promise<number>;
};

export type RateLimitBackend = 'memory' | 'redis' | 'memory-fallback';

/**
 * The hits of one key asked for in one turn of the event loop, and who waits for their counts. The first hit's
 * window is the one a new counter starts with, as it would be were the hits sent one after another.
 */
interface Gathered {
  key: string;
  windowMs: number;
  waiting: ((count: WindowCount | undefined) => void)[];
}

/**
 * Fixed-window counters of the rate-limit guard. With REDIS_URL they live in Redis, so all replicas share one
 * budget; while Redis cannot be reached they fall back to this process (the limit then applies per replica),
 * with a warning, and go back to Redis by themselves once it answers again. A request never waits for Redis
 * longer than REDIS_COMMAND_TIMEOUT_MS, and during an outage only one request every REDIS_RETRY_AFTER_MS does.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new MemoryWindows();
  private readonly redis?: RedisWithHit;
  private redisFailedAt = 0;
  private probing = false;
  private degraded = false;
  private closed = false;
  private started = false;
  private gathered = new Map<string, Gathered>();

  constructor(config: AppConfig) {
    rateLimitRedisUp.set(0);
    if (!config.redisUrl) return;
    this.redis = new Redis(config.redisUrl, {
      keyPrefix: `${config.redisKeyPrefix}rl:`,
      // Fail at once instead of queueing while disconnected, and bound every command: a request is never
      // held hostage by the rate limiter.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 250, 2_000),
      lazyConnect: true,
      // No auto-pipelining: hitRedis already sends one command per key and turn, and ioredis's pipeline object
      // per turn cost more than the writes it saved (paired, with REDIS_URL: resolution +6 %, CPU -6 % without).
      enableAutoPipelining: false,
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('rateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    // ioredis emits 'error' on every failed reconnect; without a listener that would crash the process.
    this.redis.on('error', (e: Error) => this.fail(e));
    this.redis.on('close', () => this.fail(new Error('connection closed')));
    this.redis.on('ready', () => this.recover());
  }

  /** Waits briefly for Redis so the first requests already share the budget; starts regardless. */
  async onModuleInit(): Promise<void> {
    // Nest may call this twice: the instance is also the throttler module's storage provider.
    if (!this.redis || this.started) return;
    this.started = true;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, REDIS_STARTUP_WAIT_MS).unref());
    await Promise.race([this.redis.connect().catch((e: Error) => this.fail(e)), timeout]);
  }

  get backend(): RateLimitBackend {
    if (!this.redis) return 'memory';
    return this.degraded || this.redis.status !== 'ready' ? 'memory-fallback' : 'redis';
  }

  /** Round trip to Redis for the readiness report; false when not configured or unreachable. */
  async pingRedis(): Promise<boolean> {
    if (!this.redis || this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /**
   * The count of a hit when it is counted in this process (no REDIS_URL), at once; undefined when Redis is
   * configured, so that the caller asks `increment` (which also falls back to this process while Redis is away).
   */
  hitInProcess(key: string, windowMs: number): WindowCount | undefined {
    return this.redis ? undefined : this.memory.hit(key, windowMs);
  }

  /** Counts one hit of `key`: in Redis when it is configured and answers, else in this process. */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    return (await this.hitRedis(key, windowMs)) ?? this.memory.hit(key, windowMs);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    _throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const count = await this.hit(key, ttl);
    const secondsLeft = Math.max(1, Math.ceil(count.msLeft / 1000));
    const isBlocked = count.hits > limit;
    return {
      totalHits: count.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  /** Gives back one hit of the current window (where it was counted: Redis when it answers). */
  async refund(key: string): Promise<void> {
    if (this.redis && !this.closed && this.redis.status === 'ready' && this.redisFailedAt === 0) {
      try {
        await this.redis.rateLimitRefund(key);
        return;
      } catch (e) {
        this.fail(e as Error);
      }
    }
    this.memory.refund(key);
  }

  /**
   * The Redis count, or undefined when this request should count in process instead. The hits of one key asked
   * for in one turn of the event loop go to Redis together, as one INCRBY, and are numbered in the order they
   * were asked: the counts n INCRs in a row would have given (behind a gateway, or for a busy key, a turn holds
   * many hits of one key; one command for them costs the event loop far less than one each).
   */
  private hitRedis(key: string, windowMs: number): Promise<WindowCount | undefined> {
    const redis = this.redis;
    if (!redis || this.closed || redis.status !== 'ready') return Promise.resolve(undefined);
    if (this.redisFailedAt > 0) return this.probeRedis(redis, key, windowMs);
    return new Promise((resolve) => {
      let group = this.gathered.get(key);
      if (!group) {
        if (this.gathered.size === 0) setImmediate(this.sendGathered);
        group = { key, windowMs, waiting: [] };
        this.gathered.set(key, group);
      }
      group.waiting.push(resolve);
    });
  }

  private readonly sendGathered = (): void => {
    const groups = this.gathered;
    this.gathered = new Map();
    for (const group of groups.values()) void this.sendGroup(group);
  };

  private async sendGroup({ key, windowMs, waiting }: Gathered): Promise<void> {
    let counts: [number, number] | undefined;
    try {
      if (this.redis && !this.closed && this.redis.status === 'ready') {
        counts = await this.redis.rateLimitHit(key, windowMs, waiting.length);
        this.recover();
      }
    } catch (e) {
      this.fail(e as Error);
    }
    if (!counts) return waiting.forEach((resolve) => resolve(undefined));
    const [last, msLeft] = counts;
    const first = last - waiting.length + 1;
    waiting.forEach((resolve, i) => resolve({ hits: first + i, msLeft }));
  }

  /** After a failure, one request at a time (every REDIS_RETRY_AFTER_MS) finds out whether Redis is back. */
  private async probeRedis(redis: RedisWithHit, key: string, windowMs: number): Promise<WindowCount | undefined> {
    if (this.probing || Date.now() - this.redisFailedAt < REDIS_RETRY_AFTER_MS) return undefined;
    this.probing = true;
    try {
      const [hits, msLeft] = await redis.rateLimitHit(key, windowMs, 1);
      this.recover();
      return { hits, msLeft };
    } catch (e) {
      this.fail(e as Error);
      return undefined;
    } finally {
      this.probing = false;
    }
  }

  private fail(e: Error): void {
    this.redisFailedAt = Date.now();
    rateLimitRedisUp.set(0);
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.logger.warn(
      `Redis unreachable (${e.message}); rate limits are counted in this process (per replica) until it answers`,
    );
  }

  private recover(): void {
    if (this.closed) return;
    rateLimitRedisUp.set(1);
    if (this.redisFailedAt === 0 && !this.degraded) return;
    this.redisFailedAt = 0;
    if (this.degraded) {
      this.degraded = false;
      this.logger.log('Redis answers again; rate limits are shared across replicas');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    rateLimitRedisUp.set(0);
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
