import { metricSample, scrapeMetrics } from './metrics-sample';

/**
 * Asks `read` of the replica at `url` until its answer is no longer `previous` (as far as `comparable` keeps of it:
 * what differs between two requests aside), and returns that first changed answer: the caller expects it to be the
 * change, never a third value. Before it, the replica served `previous` from the entry its `cache` held; the
 * answer changes once that entry is read through (evicted by a change notification, or past what an unproven
 * channel allows). No wall-clock bound decides: how long an entry may live is the record cache's unit spec (a held
 * clock); a replica that never reads through fails at the test's timeout. The cache misses are not used to spot the
 * read-through: they count every key (a reverse name's absence expires too), not the changed one.
 */
export async function answerAfterReadThrough<T>(
  url: string,
  cache: string,
  previous: T,
  read: () => Promise<T>,
  comparable: (answer: T) => unknown = (answer) => answer,
): Promise<T> {
  const misses = async () => metricSample(await scrapeMetrics(url), 'cache_lookups_total', { cache, result: 'miss' });
  const before = await misses();
  for (;;) {
    const answer = await read();
    if (!equals(comparable(answer), comparable(previous))) {
      // The changed answer was read from the database: the cache missed at least once since the change.
      expect(await misses()).toBeGreaterThan(before);
      return answer;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

function equals(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Asks `read` of the replica at `url` until one answer comes from its caches alone (a hit and no miss on each of
 * `caches`), and expects every answer to be `expected`: the replica holds it and would keep serving it from there.
 */
export async function cachedAnswer<T>(
  url: string,
  caches: string | string[],
  expected: T,
  read: () => Promise<T>,
): Promise<void> {
  const values = async (result: string) => {
    const text = await scrapeMetrics(url);
    return [caches].flat().map((cache) => metricSample(text, 'cache_lookups_total', { cache, result }));
  };
  for (;;) {
    const [hitsBefore, missesBefore] = [await values('hit'), await values('miss')];
    expect(await read()).toEqual(expected);
    const [hits, misses] = [await values('hit'), await values('miss')];
    if (hits.every((n, i) => n > hitsBefore[i]) && misses.every((n, i) => n === missesBefore[i])) return;
  }
}
