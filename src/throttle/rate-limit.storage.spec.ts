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
