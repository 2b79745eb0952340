import type { DataSource, EntityManager } from 'typeorm';
import { ChangeFeed } from '../cache/change-feed';
import { CONFIRMATION_WINDOW_MS } from '../cache/record-cache';
import { loadConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { entityChars, SUBNAME_CHANGES_CHANNEL, SubnameCache } from './subname-cache';
import type { SubnamesRepository } from './subnames.repository';

describe('entityChars', () => {
  it('sizes entities by their records', () => {
    const base = { fullName: 'a.oak.eth', texts: {}, addresses: {}, metadata: {}, contenthash: null };
    const big = { ...base, metadata: { k: 'v'.repeat(2000) } };
    expect(entityChars(big as never) - entityChars(base as never)).toBe(2001);
    expect(entityChars(null)).toBeGreaterThan(0);
  });
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = () => new Promise((r) => setImmediate(r));

/**
 * The trust rule of the name filter: "absent" only when built since the last reset (the moment ChangeFeed's
 * listening connection is established), the channel proven now, and the name not in it.
 */
describe(`${SubnameCache.name}.absent`, () => {
  const MANAGER = {} as EntityManager;
  let stored: string[];
  /** When set, every page read waits for it (a build in progress). */
  let gate: Promise<void> | undefined;
  let repository: { count: jest.Mock; fullNamesAfter: jest.Mock };
  let feed: ChangeFeed;
  let sut: SubnameCache;
  const metrics = new Metrics();

  const lookups = async (result: string) =>
    (await metrics.cacheLookups.get()).values.find((v) => v.labels.cache === 'names' && v.labels.result === result)
      ?.value ?? 0;

  beforeEach(() => {
    stored = ['alice.oak.eth'];
    gate = undefined;
    repository = {
      count: jest.fn(async () => stored.length),
      fullNamesAfter: jest.fn(async (_m: EntityManager, after: string, limit: number) => {
        const snapshot = [...stored].sort();
        if (gate) await gate;
        return snapshot.filter((n) => n > after).slice(0, limit);
      }),
    };
    const dataSource = { manager: MANAGER } as unknown as DataSource;
    // The real feed, never started: no connection; its `written` evicts here as after a commit.
    feed = new ChangeFeed(loadConfig({}), dataSource);
    sut = new SubnameCache(feed, repository as unknown as SubnamesRepository, dataSource, metrics);
  });

  afterEach(() => sut.beforeApplicationShutdown());

  /** What ChangeFeed does once LISTEN succeeds, then once a probe comes back. */
  const listen = async () => {
    sut.reset();
    await settle();
  };

  it('answers absent for a name not stored once built and proven, maybe for a stored one, and counts both', async () => {
    await listen();
    sut.confirm(Date.now());
    const [absent, maybe] = [await lookups('absent'), await lookups('maybe')];
    expect(sut.absent('bob.oak.eth')).toBe(true);
    expect(sut.absent('alice.oak.eth')).toBe(false);
    expect([(await lookups('absent')) - absent, (await lookups('maybe')) - maybe]).toEqual([1, 1]);
    expect(repository.fullNamesAfter).toHaveBeenCalledWith(MANAGER, '', 10_000);
  });

  it('is not trusted before its first build (the embedded database, a feed never started)', async () => {
    sut.confirm(Date.now());
    expect(sut.absent('bob.oak.eth')).toBe(false);
    expect(repository.count).not.toHaveBeenCalled();
  });

  it('is not trusted while the channel is unproven, nor once the proof is older than the window', async () => {
    await listen();
    expect(sut.absent('bob.oak.eth')).toBe(false);
    sut.confirm(Date.now());
    expect(sut.absent('bob.oak.eth')).toBe(true);
    sut.unconfirm();
    expect(sut.absent('bob.oak.eth')).toBe(false);
    sut.confirm(Date.now() - CONFIRMATION_WINDOW_MS - 1);
    expect(sut.absent('bob.oak.eth')).toBe(false);
  });

  it('is not trusted from a reset until the rebuild it starts completes, and a build it overtakes is thrown away', async () => {
    await listen();
    const first = deferred<void>();
    gate = first.promise;
    sut.reset();
    sut.confirm(Date.now());
    expect(sut.absent('bob.oak.eth')).toBe(false);
    await settle();
    // bob was stored while the channel was down: the build begun before the second reset read without him.
    stored.push('bob.oak.eth');
    const second = deferred<void>();
    gate = second.promise;
    sut.reset();
    sut.confirm(Date.now());
    first.resolve();
    await settle();
    expect(sut.names.ready).toBe(false);
    expect(sut.absent('bob.oak.eth')).toBe(false);
    second.resolve();
    await settle();
    expect(sut.absent('bob.oak.eth')).toBe(false);
    expect(sut.absent('carol.oak.eth')).toBe(true);
  });

  it('keeps a change heard during a build (its page already read), and every change after it', async () => {
    const pages = deferred<void>();
    gate = pages.promise;
    sut.reset();
    await settle();
    // A notification, a Redis message, this process's own write: all of them come through evict.
    sut.evict('dave.oak.eth');
    pages.resolve();
    await settle();
    sut.confirm(Date.now());
    expect(sut.absent('dave.oak.eth')).toBe(false);
    expect(sut.absent('erin.oak.eth')).toBe(true);
    feed.written(SUBNAME_CHANGES_CHANNEL, ['erin.oak.eth']);
    expect(sut.absent('erin.oak.eth')).toBe(false);
  });

  it('counts as a use of the cache, so the channel keeps proving itself while only mints ask', () => {
    const before = Date.now();
    sut.absent('bob.oak.eth');
    expect(sut.lastUsedAt).toBeGreaterThanOrEqual(before);
  });
});
