import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { FakeClient, FakeRedis } from '../../test/support/change-feed-fakes';
import { loadConfig } from '../config/app-config';
import { ChangeFeed } from './change-feed';
import { RecordCache } from './record-cache';

class TestFeed extends ChangeFeed {
  clients: FakeClient[] = [];
  redis: FakeRedis[] = [];
  protected override createClient(): Client {
    const client = new FakeClient();
    this.clients.push(client);
    return client as unknown as Client;
  }
  protected override createRedis(): Redis {
    const redis = new FakeRedis();
    this.redis.push(redis);
    return redis as unknown as Redis;
  }
}

const SUBNAMES = 'subname_changes';
const LISTINGS = 'listing_changes';

/** The feed's wiring; its parts have their own specs (change-listener, change-probe, redis-relay). */
describe(ChangeFeed.name, () => {
  /** Which channels a probe sent through the pool comes back on. */
  let echoed: string[];
  let sut: TestFeed;
  let subnames: RecordCache<string>;
  let listings: RecordCache<string>;
  const client = () => sut.clients[sut.clients.length - 1];
  const load = (value: string) => jest.fn(async () => value);
  /** Loads a value into each cache, so that both are in use and each holds one entry. */
  const warm = async () => {
    await subnames.get('a.oak.eth', load('sub'));
    await listings.get('mainnet/oak.eth', load('listing'));
  };
  const cached = async (cache: RecordCache<string>, key: string) => {
    const loader = load('reloaded');
    const value = await cache.get(key, loader);
    return loader.mock.calls.length === 0 ? value : 'reloaded';
  };

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    echoed = [SUBNAMES, LISTINGS];
    const dataSource = {
      options: { url: 'postgres://db/test' },
      query: jest.fn(async (_sql: string, [channels, id]: [string[], string]) => {
        for (const channel of channels) if (echoed.includes(channel)) client().notify(channel, id);
        return [];
      }),
    } as unknown as DataSource;
    sut = new TestFeed(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_KEY_PREFIX: 'p:' }), dataSource);
    subnames = new RecordCache<string>();
    listings = new RecordCache<string>();
    sut.register(SUBNAMES, subnames);
    sut.register(LISTINGS, listings);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(0);
  });

  afterEach(async () => {
    await sut.beforeApplicationShutdown();
    await sut.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('listens on every registered channel, on one connection', () => {
    expect(sut.clients).toHaveLength(1);
    expect(client().queries).toEqual([`LISTEN ${SUBNAMES}`, `LISTEN ${LISTINGS}`]);
  });

  it("evicts each key a notification names from its channel's cache only; `*` empties that cache", async () => {
    await warm();
    await listings.get('mainnet/pine.eth', load('other'));
    client().notify(SUBNAMES, 'mainnet/oak.eth');
    expect(await cached(listings, 'mainnet/oak.eth')).toBe('listing');
    client().notify(LISTINGS, 'mainnet/oak.eth');
    expect(await cached(listings, 'mainnet/oak.eth')).toBe('reloaded');
    expect(await cached(listings, 'mainnet/pine.eth')).toBe('other');
    expect(await cached(subnames, 'a.oak.eth')).toBe('sub');
    client().notify(LISTINGS, '*');
    expect(listings.size).toBe(0);
    expect(await cached(subnames, 'a.oak.eth')).toBe('sub');
    client().notify(SUBNAMES, 'a.oak.eth');
    expect(await cached(subnames, 'a.oak.eth')).toBe('reloaded');
  });

  it('routes probes to the probe: they prove the caches once back on every channel, and evict nothing', async () => {
    await warm();
    echoed = [SUBNAMES];
    await jest.advanceTimersByTimeAsync(250 + 500);
    expect([subnames.confirmed, listings.confirmed]).toEqual([false, false]);
    echoed = [SUBNAMES, LISTINGS];
    // The failed round backs off (500 ms) before the next one.
    await jest.advanceTimersByTimeAsync(1000);
    expect([subnames.confirmed, listings.confirmed]).toEqual([true, true]);
    expect(await cached(subnames, 'a.oak.eth')).toBe('sub');
    expect(await cached(listings, 'mainnet/oak.eth')).toBe('listing');
  });

  it('written evicts in this process at once and publishes on the Redis channel of that cache', async () => {
    await warm();
    sut.written(LISTINGS, ['mainnet/oak.eth']);
    expect(await cached(listings, 'mainnet/oak.eth')).toBe('reloaded');
    expect(await cached(subnames, 'a.oak.eth')).toBe('sub');
    const [sub, pub] = sut.redis;
    expect(sub.subscribed).toEqual(['p:subname-changes', 'p:listing-changes']);
    expect(pub.published).toEqual([['p:listing-changes', expect.any(String)]]);
    expect(JSON.parse(pub.published[0][1])).toMatchObject({ names: ['mainnet/oak.eth'] });
  });

  it('tells its watchers of each change written here or heard (not of probes), and whether it listens', async () => {
    await warm();
    let changes = 0;
    sut.onChange(() => changes++);
    expect(sut.listening).toBe(true);
    sut.written(SUBNAMES, ['a.oak.eth']);
    client().notify(LISTINGS, 'mainnet/oak.eth');
    await jest.advanceTimersByTimeAsync(1000);
    expect(subnames.confirmed).toBe(true);
    expect(changes).toBe(2);
    await sut.beforeApplicationShutdown();
    expect(sut.listening).toBe(false);
  });

  it('shuts down its parts: the proof withdrawn, the listening connection closed, both Redis connections dropped', async () => {
    await warm();
    await jest.advanceTimersByTimeAsync(250);
    expect(subnames.confirmed).toBe(true);
    await sut.beforeApplicationShutdown();
    await sut.onApplicationShutdown();
    expect([subnames.confirmed, client().ended, sut.redis.map((r) => r.disconnected)]).toEqual([
      false,
      true,
      [true, true],
    ]);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(sut.clients).toHaveLength(1);
  });

  it('refuses a channel that is not an identifier, registered twice or after the start, and writes to none', () => {
    const fresh = new TestFeed(loadConfig({}), {} as DataSource);
    expect(() => fresh.register('subname changes; DROP', subnames)).toThrow('not a channel name');
    fresh.register(SUBNAMES, subnames);
    expect(() => fresh.register(SUBNAMES, listings)).toThrow('registered twice');
    expect(() => sut.register('late_changes', listings)).toThrow('after the change feed started');
    expect(() => sut.written('late_changes', ['x'])).toThrow('no cache registered');
  });
});
