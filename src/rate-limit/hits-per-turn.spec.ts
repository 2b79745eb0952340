import { HitGroup, HitsPerTurn, settle } from './hits-per-turn';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(HitsPerTurn.name, () => {
  it('hands over the hits of one turn together, grouped by key in the order first asked, then the next turn apart', async () => {
    const handed: HitGroup[][] = [];
    const sut = new HitsPerTurn((groups) => handed.push(groups));
    const first = [sut.add('ip:a', 60_000), sut.add('key:1', 60_000), sut.add('ip:a', 30_000), sut.add('ip:a', 60_000)];
    expect(handed).toEqual([]);
    await nextTurn();
    expect(handed.map((groups) => groups.map((g) => [g.key, g.windowMs, g.waiting.length]))).toEqual([
      [
        ['ip:a', 60_000, 3],
        ['key:1', 60_000, 1],
      ],
    ]);
    settle(handed[0][0], 12, 40_000);
    settle(handed[0][1], 1, 60_000);
    expect(await Promise.all(first)).toEqual([
      { hits: 10, msLeft: 40_000 },
      { hits: 1, msLeft: 60_000 },
      { hits: 11, msLeft: 40_000 },
      { hits: 12, msLeft: 40_000 },
    ]);
    const later = sut.add('ip:a', 60_000);
    await nextTurn();
    expect(handed).toHaveLength(2);
    expect(handed[1].map((g) => [g.key, g.waiting.length])).toEqual([['ip:a', 1]]);
    handed[1][0].waiting[0](undefined);
    expect(await later).toBeUndefined();
  });
});
