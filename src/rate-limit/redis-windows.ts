import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { LIVENESS_OPTIONS, watchLiveness } from '../common/redis/liveness';
import type { Gauge } from 'prom-client';
import { HitGroup, HitsPerTurn, settle } from './hits-per-turn';
import type { WindowCount } from './memory-windows';

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

/** After a Redis failure, count on the host for this long before one request tries Redis again. */
const REDIS_RETRY_AFTER_MS = 5_000;
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_STARTUP_WAIT_MS = 3_000;

type RedisWithHit = Redis & {
  rateLimitHit(key: string, windowMs: number, count: number): Promise<[number, number]>;
  rateLimitRefund(key: string): Promise<number>;
};

/**
 * Fixed windows counted in Redis, so that every replica shares one budget. A count is undefined whenever Redis
 * cannot give one (the caller then counts on its host); it goes back to Redis by itself once Redis answers
 * again. A request never waits for Redis longer than REDIS_COMMAND_TIMEOUT_MS, and during an outage only one
 * request every REDIS_RETRY_AFTER_MS does. The hits of one key asked for in one turn go as one INCRBY.
 */
export class RedisWindows {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: RedisWithHit;
  private readonly liveness: { commandFailed: (e: unknown) => void };
  private readonly turn = new HitsPerTurn((groups) => groups.forEach((group) => void this.sendGroup(group)));
  private failedAt = 0;
  private probing = false;
  private degraded = false;
  private closed = false;
  private started = false;

  constructor(
    url: string,
    keyPrefix: string,
    private readonly redisUp: Gauge,
  ) {
    this.redis = new Redis(url, {
      keyPrefix,
      // Fail at once instead of queueing while disconnected, and bound every command: a request is never
      // held hostage by the rate limiter.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 250, 2_000),
      lazyConnect: true,
      // No auto-pipelining: hits already go one command per key and turn, and ioredis's pipeline object per
      // turn cost more than the writes it saved.
      enableAutoPipelining: false,
      ...LIVENESS_OPTIONS,
    }) as RedisWithHit;
    this.liveness = watchLiveness(this.redis);
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.defineCommand('rateLimitRefund', { numberOfKeys: 1, lua: REFUND_SCRIPT });
    // ioredis emits 'error' on every failed reconnect; without a listener that would crash the process.
    this.redis.on('error', (e: Error) => this.fail(e));
    this.redis.on('close', () => this.fail(new Error('connection closed')));
    this.redis.on('ready', () => this.recover());
  }

  /** Waits briefly for Redis so the first requests already share the budget; starts regardless. */
  async connect(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, REDIS_STARTUP_WAIT_MS).unref());
    await Promise.race([this.redis.connect().catch((e: Error) => this.fail(e)), timeout]);
  }

  /** Round trip for the readiness report; false when unreachable. */
  async ping(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch (e) {
      this.liveness.commandFailed(e);
      return false;
    }
  }

  /** The Redis count of one hit, or undefined when this hit should be counted on the host instead. */
  hit(key: string, windowMs: number): Promise<WindowCount | undefined> {
    if (!this.usable) return Promise.resolve(undefined);
    if (this.failedAt > 0) return this.probe(key, windowMs);
    return this.turn.add(key, windowMs);
  }

  /** Gives back one hit of the current window in Redis; false when Redis is away (the hit counted elsewhere). */
  async refund(key: string): Promise<boolean> {
    if (!this.usable || this.failedAt > 0) return false;
    try {
      await this.redis.rateLimitRefund(key);
      return true;
    } catch (e) {
      this.fail(e as Error);
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.redisUp.set(0);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private get usable(): boolean {
    return !this.closed && this.redis.status === 'ready';
  }

  private async sendGroup(group: HitGroup): Promise<void> {
    let counts: [number, number] | undefined;
    try {
      if (this.usable) {
        counts = await this.redis.rateLimitHit(group.key, group.windowMs, group.waiting.length);
        this.recover();
      }
    } catch (e) {
      this.fail(e as Error);
    }
    if (counts) settle(group, counts[0], counts[1]);
    else group.waiting.forEach((resolve) => resolve(undefined));
  }

  /** After a failure, one request at a time (every REDIS_RETRY_AFTER_MS) finds out whether Redis is back. */
  private async probe(key: string, windowMs: number): Promise<WindowCount | undefined> {
    if (this.probing || Date.now() - this.failedAt < REDIS_RETRY_AFTER_MS) return undefined;
    this.probing = true;
    try {
      const [hits, msLeft] = await this.redis.rateLimitHit(key, windowMs, 1);
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
    this.liveness.commandFailed(e);
    this.failedAt = Date.now();
    this.redisUp.set(0);
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.logger.warn(
      `Redis unreachable (${e.message}); rate limits are counted on this host (per replica) until it answers`,
    );
  }

  private recover(): void {
    if (this.closed) return;
    this.redisUp.set(1);
    if (this.failedAt === 0 && !this.degraded) return;
    this.failedAt = 0;
    if (this.degraded) {
      this.degraded = false;
      this.logger.log('Redis answers again; rate limits are shared across replicas');
    }
  }
}
