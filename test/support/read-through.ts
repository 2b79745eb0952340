/** A Prometheus sample's value on a service's /metrics (0 while the series does not exist yet). */
export async function metricValue(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const match = new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\d+)`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/**
 * Asks `read` of the replica at `url` until it reads its `cache` through to the database (a miss on it: the entry
 * that held `previous` was evicted by a change notification, or outlived what an unproven channel allows), and
 * returns the answer of that request. Every answer before it must be `previous` (as far as `comparable` keeps of
 * it: what differs between two requests aside), served from that entry. Call it
 * after the change has committed: the first read-through then sees it. No wall-clock bound decides: how long an
 * entry may live is the record cache's unit spec (a clock held by the test); a replica that never reads through
 * fails at the test's timeout.
 */
export async function answerAfterReadThrough<T>(
  url: string,
  cache: string,
  previous: T,
  read: () => Promise<T>,
  comparable: (answer: T) => unknown = (answer) => answer,
): Promise<T> {
  const misses = `cache_lookups_total{cache="${cache}",result="miss"}`;
  for (;;) {
    const before = await metricValue(url, misses);
    const answer = await read();
    if ((await metricValue(url, misses)) > before) return answer;
    expect(comparable(answer)).toEqual(comparable(previous));
    await new Promise((r) => setTimeout(r, 20));
  }
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
  const series = (result: string) =>
    [caches].flat().map((cache) => `cache_lookups_total{cache="${cache}",result="${result}"}`);
  const values = (names: string[]) => Promise.all(names.map((name) => metricValue(url, name)));
  for (;;) {
    const [hitsBefore, missesBefore] = [await values(series('hit')), await values(series('miss'))];
    expect(await read()).toEqual(expected);
    const [hits, misses] = [await values(series('hit')), await values(series('miss'))];
    if (hits.every((n, i) => n > hitsBefore[i]) && misses.every((n, i) => n === missesBefore[i])) return;
  }
}
