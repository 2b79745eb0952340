import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { loadConfig } from '../src/config/app-config';
import { RateLimitStorage } from '../src/rate-limit/rate-limit.storage';
import { itOnRedis, TEST_REDIS_URL } from './support/redis-only';

// Needs Redis (the run's, see redis-only), so it is an e2e spec: unit specs need nothing but Node.
describe('RateLimitStorage with REDIS_URL', () => {
  const prefix = `sns-unit-${process.pid}-${randomBytes(4).toString('hex')}:`;
  let replicas: RateLimitStorage[];
  let redis: Redis;

  beforeAll(async () => {
    const REDIS_URL = TEST_REDIS_URL!;
    replicas = [0, 1].map(() => new RateLimitStorage(loadConfig({ REDIS_URL, REDIS_KEY_PREFIX: prefix })));
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await Promise.all(replicas.map((r) => r.onModuleInit()));
    for (const r of replicas) expect(await r.pingRedis()).toBe(true);
    // With Redis nothing is decided in process: every hit goes through `hit`.
    expect(replicas[0].hitInProcess('ip:none', 60_000)).toBeUndefined();
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

  itOnRedis(
    'counts the hits of one key asked in one turn with one command, numbered in the order they were asked',
    async () => {
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
    },
  );

  itOnRedis('two replicas hitting one key at once share one exact count: every number from 1 to n once', async () => {
    const hits = replicas.flatMap((replica) => Array.from({ length: 25 }, () => replica.hit('key:shared', 60_000)));
    const counts = (await Promise.all(hits)).map((c) => c.hits);
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Within each replica, in the order asked.
    for (const own of [counts.slice(0, 25), counts.slice(25)]) expect(own).toEqual([...own].sort((x, y) => x - y));
    await replicas[1].refund('key:shared');
    expect((await replicas[0].hit('key:shared', 60_000)).hits).toBe(50);
  });
});
