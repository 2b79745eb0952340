import { loadConfig } from '../config/app-config';
import { RateLimitStorage } from './rate-limit.storage';

describe(RateLimitStorage.name, () => {
  it('without REDIS_URL counts in this process, at once, and the asynchronous path shares the same windows', async () => {
    const sut = new RateLimitStorage(loadConfig({}));
    expect(sut.hitInProcess('key:a', 60_000)).toEqual({ hits: 1, msLeft: 60_000 });
    expect(sut.hitInProcess('key:a', 60_000)?.hits).toBe(2);
    expect((await sut.hit('key:a', 60_000)).hits).toBe(3);
    await sut.refund('key:a');
    expect(sut.hitInProcess('key:a', 60_000)?.hits).toBe(3);
    expect(sut.hitInProcess('key:b', 60_000)?.hits).toBe(1);
    expect(await sut.pingRedis()).toBe(false);
    await sut.onApplicationShutdown();
  });

  it("answers throttler's increment from its windows: blocked past the limit until the window ends, hits still counted", async () => {
    const sut = new RateLimitStorage(loadConfig({}));
    await expect(sut.increment('ip:a', 60_000, 2)).resolves.toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    await sut.increment('ip:a', 60_000, 2);
    await expect(sut.increment('ip:a', 60_000, 2)).resolves.toEqual({
      totalHits: 3,
      timeToExpire: 60,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    await sut.refund('ip:a');
    expect((await sut.increment('ip:a', 60_000, 2)).totalHits).toBe(3);
    await sut.onApplicationShutdown();
  });
});
