import { CONFIRMATION_WINDOW_MS, CONFIRMED_MAX_AGE_MS, RecordCache, UNCONFIRMED_MAX_AGE_MS } from './record-cache';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe(RecordCache.name, () => {
  let clock: number;
  let lookups: boolean[];
  let sut: RecordCache<string | null>;
  const load = (value: string | null) => jest.fn(async () => value);

  beforeEach(() => {
    clock = 1_000_000;
    lookups = [];
    sut = new RecordCache<string | null>({ now: () => clock, onLookup: (hit) => lookups.push(hit) });
  });

  it('serves a loaded value, a negative one too, while it is younger than the unconfirmed limit', async () => {
    const first = load('v1');
    expect(await sut.get('a', first)).toBe('v1');
    expect(await sut.get('missing', load(null))).toBeNull();
    clock += UNCONFIRMED_MAX_AGE_MS - 1;
    expect(await sut.get('a', load('v2'))).toBe('v1');
    expect(await sut.get('missing', load('late'))).toBeNull();
    expect(first).toHaveBeenCalledTimes(1);
    expect(lookups).toEqual([false, false, true, true]);
  });

  it('without a proven channel never serves an entry a second old (reloads it)', async () => {
    await sut.get('a', load('v1'));
    clock += UNCONFIRMED_MAX_AGE_MS;
    expect(await sut.get('a', load('v2'))).toBe('v2');
    expect(UNCONFIRMED_MAX_AGE_MS).toBeLessThan(1000);
  });

  it('with a recent proof keeps entries up to the confirmed limit; a stale proof falls back to the short one', async () => {
    await sut.get('a', load('v1'));
    clock += 5_000;
    sut.confirm(clock - 100);
    expect(await sut.get('a', load('v2'))).toBe('v1');
    expect(sut.confirmed).toBe(true);
    clock += CONFIRMATION_WINDOW_MS;
    expect(sut.confirmed).toBe(false);
    expect(await sut.get('a', load('v3'))).toBe('v3');
    sut.confirm(clock);
    clock += CONFIRMED_MAX_AGE_MS - 1;
    sut.confirm(clock);
    expect(await sut.get('a', load('v4'))).toBe('v3');
    clock += 1;
    sut.confirm(clock);
    expect(await sut.get('a', load('v5'))).toBe('v5');
    expect(CONFIRMATION_WINDOW_MS).toBeLessThan(1000);
  });

  it('evicts a name on its change, whatever the proof says', async () => {
    await sut.get('a', load('v1'));
    await sut.get('b', load('b1'));
    sut.confirm(clock);
    sut.evict('a');
    expect(await sut.get('a', load('v2'))).toBe('v2');
    expect(await sut.get('b', load('b2'))).toBe('b1');
    sut.evictAll();
    expect(await sut.get('b', load('b3'))).toBe('b3');
  });

  it('serves but does not keep a load that an eviction overtook (it may have read the old row)', async () => {
    const slow = deferred<string>();
    const pending = sut.get('a', () => slow.promise);
    sut.evict('a');
    slow.resolve('old');
    expect(await pending).toBe('old');
    expect(await sut.get('a', load('new'))).toBe('new');
    expect(await sut.get('a', load('newer'))).toBe('new');
  });

  it('shares one load between concurrent misses of a key', async () => {
    const slow = deferred<string>();
    const loader = jest.fn(() => slow.promise);
    const both = Promise.all([sut.get('a', loader), sut.get('a', loader)]);
    slow.resolve('v');
    expect(await both).toEqual(['v', 'v']);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed load, and passes its error on', async () => {
    await expect(sut.get('a', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await sut.get('a', load('v'))).toBe('v');
  });

  it('reset forgets every entry and every earlier proof', async () => {
    await sut.get('a', load('v1'));
    sut.confirm(clock);
    sut.reset();
    expect(sut.confirmed).toBe(false);
    expect(await sut.get('a', load('v2'))).toBe('v2');
  });

  it('drops the least recently used entries beyond its bounds (count, then characters)', async () => {
    const small = new RecordCache<string>({ maxEntries: 3, now: () => clock });
    for (const k of ['a', 'b', 'c']) await small.get(k, load(k) as () => Promise<string>);
    await small.get('a', load('x') as () => Promise<string>); // a is now the most recent
    await small.get('d', load('d') as () => Promise<string>);
    expect(small.size).toBe(3);
    expect(await small.get('b', load('b2') as () => Promise<string>)).toBe('b2');
    expect(await small.get('a', load('a2') as () => Promise<string>)).toBe('a');

    const bySize = new RecordCache<string>({ maxChars: 10, sizeOf: (v) => v.length, now: () => clock });
    await bySize.get('a', async () => 'xxxx');
    await bySize.get('b', async () => 'yyyy');
    await bySize.get('c', async () => 'zzzz');
    expect(bySize.size).toBe(2);
    await bySize.get('huge', async () => 'h'.repeat(11));
    expect(bySize.size).toBe(2);
  });
});
