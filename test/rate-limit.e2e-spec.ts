import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { itOnRedis, proxyToRedis, TEST_REDIS_URL } from './support/redis-only';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

/** A key that was never issued. */
const madeUpKey = () => `sns_${randomBytes(24).toString('base64url')}`;

interface Health {
  status: string;
  details: { rateLimitStorage: { status: string; storage: string; redis: string } };
}

/** Issues a key on a running service process. */
async function issueKey(svc: ServiceProcess, parentNames = ['oak.eth']): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
    body: JSON.stringify({ name: 'rate-limit', parentNames }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

const quota = (svc: ServiceProcess, key: string) =>
  fetch(`${svc.url}/api/v1/quota`, { headers: { 'x-auth-token': key } });

function expectRefusal(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }) {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', title: 'Too many requests' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-remaining']).toBe('0');
}

/** fetch's answer in the shape expectRefusal takes. */
async function plain(res: Response) {
  const text = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers.entries()),
    body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

describe('rate limits per API key (in process)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_IP: '1000', RATE_LIMIT_WINDOW_SECONDS: '60' });
    key = (await t.issueKey(['oak.eth'])).key;
  });
  afterAll(() => t.close());

  it('lets 5 requests of a key through, counting down, and refuses the sixth with 429 RATE_LIMITED', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await request(t.http).get('/api/v1/quota').set('x-auth-token', key).expect(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
      expect(res.headers['ratelimit-policy']).toBe('5;w=60');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    const refused = await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'late' });
    expectRefusal(refused);
    expect(refused.body.detail).toContain('API key');
    expect(refused.headers['ratelimit-limit']).toBe('5');
    // Refused before anything ran: nothing written.
    await request(t.http).get('/api/v1/subnames/late.oak.eth').expect(404);
  });

  it('counts the budget per key: another key, and the public routes, are unaffected', async () => {
    const other = (await t.issueKey(['oak.eth'])).key;
    const res = await request(t.http).get('/api/v1/quota').set('x-auth-token', other).expect(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
    const pub = await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(404);
    expect(pub.headers['ratelimit-limit']).toBe('1000');
  });

  it('a keyed route without a key counts against the address, and still answers 401', async () => {
    const res = await request(t.http).get('/api/v1/quota').expect(401);
    expect(res.headers['ratelimit-limit']).toBe('1000');
  });
});

describe('rate limits per client address (in process)', () => {
  it('with TRUST_PROXY=true, each X-Forwarded-For client has its own budget; health, metrics and docs have none', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '3', TRUST_PROXY: 'true' });
    try {
      const read = (ip: string) =>
        request(t.http).get('/api/v1/subnames/nobody.oak.eth').set('x-forwarded-for', `${ip}, 10.0.0.1`);
      for (let i = 1; i <= 3; i++) expect((await read('203.0.113.7')).status).toBe(404);
      const refused = await read('203.0.113.7');
      expectRefusal(refused);
      expect(refused.body.detail).toContain('client address');
      expect((await read('203.0.113.8')).status).toBe(404);
      // Search and mint are public routes too.
      const search = await request(t.http)
        .post('/api/v1/subnames/search')
        .set('x-forwarded-for', '203.0.113.7')
        .send({ parentName: 'oak.eth' });
      expect(search.status).toBe(429);
      for (let i = 0; i < 5; i++) {
        for (const path of ['/health/live', '/metrics', '/docs-json']) {
          const res = await request(t.http).get(path).set('x-forwarded-for', '203.0.113.7');
          expect(res.status).toBe(200);
          expect(res.headers['ratelimit-limit']).toBeUndefined();
        }
      }
    } finally {
      await t.close();
    }
  });

  it('twelve requests with made-up keys from one address meet 429 within RATE_LIMIT_PER_IP, and cost no lookup past it', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '5', RATE_LIMIT_PER_KEY: '1000' });
    try {
      const lookups = jest.spyOn(t.app.get(ApiKeysService), 'authenticate');
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await request(t.http)
          .post('/api/v1/subnames')
          .set('x-auth-token', madeUpKey())
          .send({ parentName: 'oak.eth', label: `made-up-${i}` });
        statuses.push(res.status);
        if (res.status === 429) {
          expectRefusal(res);
          expect(res.body.detail).toContain('client address');
        }
      }
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
      // Only the five requests within the budget reached the key lookup (a hash and a query each).
      expect(lookups).toHaveBeenCalledTimes(5);
    } finally {
      await t.close();
    }
  });

  it('a valid key gives the address its unit back and counts on its own budget; a spent address refuses it before the lookup', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '4', RATE_LIMIT_PER_KEY: '1000' });
    try {
      const { id, key } = await t.issueKey(['oak.eth']); // 1 of the address's 4
      for (let i = 0; i < 10; i++) {
        const res = await request(t.http).get('/api/v1/quota').set('x-auth-token', key).expect(200);
        expect(res.headers['ratelimit-limit']).toBe('1000');
        expect(res.headers['ratelimit-remaining']).toBe(String(1000 - 1 - i));
      }
      const pub = await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(404);
      expect(pub.headers['ratelimit-remaining']).toBe('2');
      await request(t.http).delete(`/api/v1/admin/api-keys/${id}`).set('x-admin-token', ADMIN_TOKEN).expect(204);
      // The revoked key: 401, and the address's last unit is gone with it.
      const revoked = await request(t.http).get('/api/v1/quota').set('x-auth-token', key).expect(401);
      expect(revoked.headers['ratelimit-remaining']).toBe('0');
      const lookups = jest.spyOn(t.app.get(ApiKeysService), 'authenticate');
      expectRefusal(await request(t.http).get('/api/v1/quota').set('x-auth-token', key));
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY=1 (one gateway), the client is the entry the gateway appended: a spoofed X-Forwarded-For changes nothing', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '3', TRUST_PROXY: '1' });
    try {
      // The gateway appends the address it saw (203.0.113.7); whatever the client wrote before it is a claim.
      const read = (xff: string) => request(t.http).get('/api/v1/subnames/nobody.oak.eth').set('x-forwarded-for', xff);
      for (let i = 1; i <= 3; i++) expect((await read(`198.51.100.${i}, 203.0.113.7`)).status).toBe(404);
      expectRefusal(await read('198.51.100.99, 203.0.113.7'));
      expectRefusal(await read('203.0.113.8, 10.1.1.1, 203.0.113.7'));
      expectRefusal(
        await request(t.http)
          .post('/api/v1/subnames')
          .set('x-forwarded-for', '198.51.100.50, 203.0.113.7')
          .set('x-auth-token', madeUpKey())
          .send({ parentName: 'oak.eth', label: 'spoof' }),
      );
      // Another client of the gateway has its own budget.
      expect((await read('198.51.100.1, 203.0.113.8')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY as a list of proxy subnets, the client is the right-most address outside them', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '2', TRUST_PROXY: 'loopback, 10.0.0.0/8' });
    try {
      const read = (xff: string) => request(t.http).get('/api/v1/subnames/nobody.oak.eth').set('x-forwarded-for', xff);
      expect((await read('198.51.100.1, 203.0.113.7, 10.0.0.2')).status).toBe(404);
      expect((await read('198.51.100.2, 203.0.113.7, 10.0.0.3')).status).toBe(404);
      expectRefusal(await read('203.0.113.7, 10.9.9.9'));
      expect((await read('203.0.113.9, 10.0.0.2')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY=false, X-Forwarded-For is ignored: the socket address is the client', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '2' });
    try {
      const read = (ip: string) => request(t.http).get('/api/v1/subnames/nobody.oak.eth').set('x-forwarded-for', ip);
      expect((await read('198.51.100.1')).status).toBe(404);
      expect((await read('198.51.100.2')).status).toBe(404);
      expectRefusal(await read('198.51.100.3'));
    } finally {
      await t.close();
    }
  });

  it('a refused client is served again once the window has passed (Retry-After)', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '1', RATE_LIMIT_WINDOW_SECONDS: '2' });
    try {
      await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(404);
      const refused = await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(429);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(2);
      await new Promise((r) => setTimeout(r, wait * 1000 + 200));
      await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(404);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits shared through Redis by two service processes', () => {
  const prefix = `sns-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
  let REDIS_URL: string;
  let redis: Redis;
  let proxy: TcpProxy;
  let a: ServiceProcess;
  let b: ServiceProcess;

  beforeAll(async () => {
    REDIS_URL = TEST_REDIS_URL!;
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    // Process b reaches Redis through a proxy, so that the test can take Redis away from it alone.
    proxy = await proxyToRedis(REDIS_URL);
    const env = { REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_KEY: '5', LOG_LEVEL: 'info' };
    [a, b] = await Promise.all([
      startServiceProcess({ ...env, REDIS_URL }),
      startServiceProcess({ ...env, REDIS_URL: proxy.url(REDIS_URL) }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    expect(await redis.keys(`${prefix}*`)).toEqual([]);
    redis.disconnect();
  });

  itOnRedis(
    'one budget of 5 for a key whose requests alternate between the two replicas; the sixth is refused',
    async () => {
      const key = await issueKey(a);
      const seen: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await quota(i % 2 === 0 ? a : b, key);
        expect(res.status).toBe(200);
        seen.push(res.headers.get('ratelimit-remaining')!);
      }
      expect(seen).toEqual(['4', '3', '2', '1', '0']);
      expectRefusal(await plain(await quota(b, key)));
      expectRefusal(await plain(await quota(a, key)));
      // The counters are in Redis under the configured prefix, keyed by the key's id: never the key itself.
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.some((k) => k.startsWith(`${prefix}rl:key:`))).toBe(true);
      expect(keys.join(' ')).not.toContain(key);
      expect(keys.join(' ')).not.toContain(key.slice(4, 20));
    },
  );

  itOnRedis(
    'without Redis a replica keeps serving, counts in process (per replica), and shares again once Redis is back',
    async () => {
      const key = await issueKey(a);
      for (let i = 0; i < 3; i++) expect((await quota(a, key)).status).toBe(200);

      proxy.setMode('refuse');
      const started = Date.now();
      const during = await quota(b, key);
      expect(during.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3_000);
      // b's own count starts from nothing: the limit now applies per replica.
      expect(during.headers.get('ratelimit-remaining')).toBe('4');
      const ready = (await (await fetch(`${b.url}/health/ready`)).json()) as Health;
      expect(ready.status).toBe('ok');
      expect(ready.details.rateLimitStorage).toEqual({
        status: 'up',
        storage: 'memory-fallback',
        redis: 'unreachable',
      });
      expect(await (await fetch(`${b.url}/metrics`)).text()).toMatch(/^rate_limit_redis_up 0$/m);
      for (let i = 0; i < 4; i++) expect((await quota(b, key)).status).toBe(200);
      expect((await quota(b, key)).status).toBe(429);
      expect(await b.outputContaining('Redis unreachable')).toContain('Redis unreachable');

      proxy.setMode('forward');
      const deadline = Date.now() + 15_000;
      let back: Health | undefined;
      while (Date.now() < deadline) {
        back = (await (await fetch(`${b.url}/health/ready`)).json()) as Health;
        if (back?.details.rateLimitStorage.storage === 'redis') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(back?.details.rateLimitStorage.storage).toBe('redis');
      // No burst across the switch: b's window counted on the host (5 admitted, 1 refused) still counts with
      // Redis's 3 + 1 until it ends.
      expectRefusal(await plain(await quota(b, key)));
      // Shared again: a fresh key's hits on a and b come out of one budget.
      const fresh = await issueKey(a);
      expect((await quota(a, fresh)).headers.get('ratelimit-remaining')).toBe('4');
      const after = await quota(b, fresh);
      expect(after.status).toBe(200);
      expect(after.headers.get('ratelimit-remaining')).toBe('3');
      expect(await b.outputContaining('Redis answers again')).toContain('Redis answers again');
      expect(await (await fetch(`${b.url}/metrics`)).text()).toMatch(/^rate_limit_redis_up 1$/m);
    },
  );

  itOnRedis(
    'a replica that starts while Redis is down serves at once, and joins the shared budget when Redis comes up',
    async () => {
      const late = await proxyToRedis(REDIS_URL);
      late.setMode('refuse');
      const c = await startServiceProcess({
        REDIS_URL: late.url(REDIS_URL),
        REDIS_KEY_PREFIX: prefix,
        RATE_LIMIT_PER_KEY: '5',
        LOG_LEVEL: 'info',
      });
      try {
        const key = await issueKey(a);
        for (let i = 0; i < 2; i++) expect((await quota(a, key)).status).toBe(200);
        const alone = await quota(c, key);
        expect(alone.status).toBe(200);
        expect(alone.headers.get('ratelimit-remaining')).toBe('4');
        late.setMode('forward');
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline) {
          const health = (await (await fetch(`${c.url}/health/ready`)).json()) as Health;
          if (health.details.rateLimitStorage.storage === 'redis') break;
          await new Promise((r) => setTimeout(r, 200));
        }
        // a's 2 hits and this one in Redis, plus the hit c counted alone in this window (carried, no burst).
        const shared = await quota(c, key);
        expect(shared.headers.get('ratelimit-remaining')).toBe('1');
      } finally {
        await c.stop();
        await late.close();
      }
    },
  );

  itOnRedis('made-up keys never get a counter of their own: only the address is counted', async () => {
    const before = await redis.keys(`${prefix}rl:key:*`);
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${a.url}/api/v1/quota`, { headers: { 'x-auth-token': madeUpKey() } });
      expect(res.status).toBe(401);
    }
    expect((await redis.keys(`${prefix}rl:key:*`)).sort()).toEqual(before.sort());
    expect(await redis.keys(`${prefix}rl:ip:*`)).not.toEqual([]);
  });

  itOnRedis(
    'a Redis that stops answering (black hole) costs a request at most a bounded wait, never a hang',
    async () => {
      const key = await issueKey(a);
      proxy.setMode('blackhole');
      try {
        const times: number[] = [];
        for (let i = 0; i < 4; i++) {
          const started = Date.now();
          expect((await quota(b, key)).status).toBe(200);
          times.push(Date.now() - started);
        }
        expect(Math.max(...times)).toBeLessThan(3_000);
      } finally {
        proxy.setMode('forward');
      }
    },
  );
});
