import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { loadConfig } from '../config/app-config';
import { MemoryWindows, RateLimitStorage } from './rate-limit.storage';

describe(MemoryWindows.name, () => {
  it('counts hits in a fixed window that starts with the first hit, then starts a new one', () => {
    const sut = new MemoryWindows();
    expect(sut.hit('k', 60_000, 1_000)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(sut.hit('k', 60_000, 31_000)).toEqual({ hits: 2, msLeft: 30_000 });
    expect(sut.hit('other', 60_000, 31_000)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(sut.hit('k', 60_000, 61_000)).toEqual({ hits: 1, msLeft: 60_000 });
  });

  it('forgets ended windows as it goes, so idle trackers do not accumulate', () => {
    const sut = new MemoryWindows();
    for (let i = 0; i < 100; i++) sut.hit(`ip:${i}`, 1_000, Date.now());
    expect(sut.size).toBe(100);
    sut.hit('late', 1_000, Date.now() + 5_000);
    expect(sut.size).toBe(1);
  });
});

describe('MemoryWindows refund', () => {
  it('gives back one hit of a running window, never below zero, and nothing to an ended one', () => {
    const sut = new MemoryWindows();
    sut.hit('ip:a', 60_000, 1_000);
    sut.hit('ip:a', 60_000, 2_000);
    sut.refund('ip:a', 3_000);
    expect(sut.hit('ip:a', 60_000, 4_000).hits).toBe(2);
    sut.refund('ip:a', 5_000);
    sut.refund('ip:a', 5_000);
    sut.refund('ip:a', 5_000);
    expect(sut.hit('ip:a', 60_000, 6_000).hits).toBe(1);
    sut.refund('ip:a', 70_000);
    expect(sut.hit('ip:a', 60_000, 70_000)).toEqual({ hits: 1, msLeft: 60_000 });
    sut.refund('never-seen', 1_000);
    expect(sut.size).toBe(1);
  });
});

describe(RateLimitStorage.name, () => {
  it('without REDIS_URL counts in process: allowed up to the limit, then blocked until the window ends', async () => {
    const sut = new RateLimitStorage(loadConfig({}));
    expect(sut.backend).toBe('memory');
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await sut.increment('key:a', 60_000, 3, 60_000, 'key'));
    expect(results.map((r) => [r.totalHits, r.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(results[3].timeToExpire).toBeGreaterThanOrEqual(59);
    expect(results[3].timeToBlockExpire).toBe(results[3].timeToExpire);
    expect(await sut.pingRedis()).toBe(false);
    await sut.onApplicationShutdown();
  });
});

describe('RateLimitStorage with REDIS_URL (the local Redis)', () => {
  const REDIS_URL = 'redis://127.0.0.1:6379';
  const prefix = `sns-unit-${process.pid}-${randomBytes(4).toString('hex')}:`;
  const replicas = [0, 1].map(() => new RateLimitStorage(loadConfig({ REDIS_URL, REDIS_KEY_PREFIX: prefix })));
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

  beforeAll(async () => {
    await redis.connect();
    await Promise.all(replicas.map((r) => r.onModuleInit()));
    for (const r of replicas) expect(r.backend).toBe('redis');
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.onApplicationShutdown()));
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  /** Runs `test` while watching, through MONITOR, what reaches Redis about this run's keys: each command's arguments. */
  async function watched(test: () => Promise<void>): Promise<string[][]> {
    const monitor = await redis.monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((a) => a.startsWith(prefix))) seen.push(args);
    });
    try {
      await test();
      // MONITOR reports a command as Redis runs it: one more round trip on the watched client lets it arrive.
      await redis.ping();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      monitor.disconnect();
    }
    return seen;
  }

  it('counts the hits of one key asked in one turn with one command, numbered in the order they were asked', async () => {
    const [replica] = replicas;
    const sent = await watched(async () => {
      const a = Array.from({ length: 30 }, () => replica.hit('ip:a', 60_000));
      const b = Array.from({ length: 7 }, () => replica.hit('ip:b', 60_000));
      expect((await Promise.all(a)).map((c) => c.hits)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect((await Promise.all(b)).map((c) => c.hits)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });
    // EVALSHA (or EVAL the first time) of the hit script: its key, window and number of hits (MONITOR also shows
    // the commands the script runs).
    const scripts = sent.filter(([command]) => /^eval(sha)?$/i.test(command));
    expect(scripts.map((args) => args.slice(-3))).toEqual([
      [`${prefix}rl:ip:a`, '60000', '30'],
      [`${prefix}rl:ip:b`, '60000', '7'],
    ]);
    const later = await replica.hit('ip:a', 60_000);
    expect(later.hits).toBe(31);
    expect(later.msLeft).toBeGreaterThan(59_000);
    expect(later.msLeft).toBeLessThanOrEqual(60_000);
  });

  it('two replicas hitting one key at once share one exact count: every number from 1 to n once', async () => {
    const hits = replicas.flatMap((replica) => Array.from({ length: 25 }, () => replica.hit('key:shared', 60_000)));
    const counts = (await Promise.all(hits)).map((c) => c.hits);
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Within each replica, in the order asked.
    for (const own of [counts.slice(0, 25), counts.slice(25)]) expect(own).toEqual([...own].sort((x, y) => x - y));
    const increments = await Promise.all(
      Array.from({ length: 5 }, () => replicas[1].increment('key:shared', 60_000, 52, 60_000, 'key')),
    );
    expect(increments.map((r) => [r.totalHits, r.isBlocked])).toEqual([
      [51, false],
      [52, false],
      [53, true],
      [54, true],
      [55, true],
    ]);
  });
});
