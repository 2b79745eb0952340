import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { itOnRedis, proxyToRedis, TEST_REDIS_URL } from './support/redis-only';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { ADMIN_TOKEN } from './support/test-app';

/**
 * Issue 35.4: a Redis connection that dies without being closed (the proxy stops forwarding, keeps the socket
 * open, and never speaks on it again) is noticed by a command timeout, closed and replaced; the service is back
 * on Redis within seconds of Redis answering again, and neither switch hands a key a fresh budget.
 */
const LIMIT = 5;

interface Health {
  details: { rateLimitStorage: { storage: string } };
}

describe('Redis that comes back by itself after a silent connection', () => {
  const prefix = `sns-recovery-${process.pid}-${randomBytes(4).toString('hex')}:`;
  let redis: Redis;
  let proxy: TcpProxy;
  let svc: ServiceProcess;

  beforeAll(async () => {
    const REDIS_URL = TEST_REDIS_URL!;
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    proxy = await proxyToRedis(REDIS_URL);
    svc = await startServiceProcess({
      REDIS_URL: proxy.url(REDIS_URL),
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_KEY: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '300',
      LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await svc?.stop();
    await proxy?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const issueKey = async () => {
    const res = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'recovery', parentNames: ['oak.eth'] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { key: string }).key;
  };
  const quota = async (key: string) => {
    const res = await fetch(`${svc.url}/api/v1/quota`, { headers: { 'x-auth-token': key } });
    await res.arrayBuffer();
    return { status: res.status, remaining: res.headers.get('ratelimit-remaining') };
  };
  const storage = async () =>
    ((await (await fetch(`${svc.url}/health/ready`)).json()) as Health).details.rateLimitStorage.storage;
  /** Milliseconds until the readiness report says `want`, polling; fails past `withinMs`. */
  const until = async (want: string, withinMs: number) => {
    const started = Date.now();
    while ((await storage()) !== want) {
      expect(Date.now() - started).toBeLessThan(withinMs);
      await new Promise((r) => setTimeout(r, 200));
    }
    return Date.now() - started;
  };

  itOnRedis(
    'counts on the host while the connection is silent, returns to Redis by itself, no burst either way',
    async () => {
      expect(await storage()).toBe('redis');
      const key = await issueKey();
      expect(await quota(key)).toEqual({ status: 200, remaining: String(LIMIT - 1) });
      expect((await quota(key)).remaining).toBe(String(LIMIT - 2));

      proxy.setMode('blackhole');
      // The first request waits at most the command timeout; Redis's 2 hits are carried onto the host's count.
      const started = Date.now();
      const during = await quota(key);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(during).toEqual({ status: 200, remaining: String(LIMIT - 3) });
      const admitted = [during];
      for (let i = 0; i < 4; i++) admitted.push(await quota(key));
      expect(admitted.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
      expect(await until('memory-fallback', 5_000)).toBeLessThan(5_000);

      // Forwarding again: the silent socket stays silent for ever, so only a new connection reaches Redis.
      proxy.setMode('forward');
      expect(await until('redis', 10_000)).toBeLessThan(10_000);
      expect(await svc.outputContaining('Redis answers again', 10_000)).toContain('Redis answers again');
      // Back on Redis, the host's window still counts: the key has no fresh budget.
      expect(await quota(key)).toEqual({ status: 429, remaining: '0' });
      // And Redis counts again: a fresh key's hits land there.
      const fresh = await issueKey();
      expect(await quota(fresh)).toEqual({ status: 200, remaining: String(LIMIT - 1) });
      const counters = await redis.keys(`${prefix}rl:key:*`);
      const values = await Promise.all(counters.map((k) => redis.get(k)));
      expect(values).toContain('1');
    },
  );
});
