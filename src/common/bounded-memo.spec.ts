import { BoundedMemo } from './bounded-memo';

describe(BoundedMemo.name, () => {
  it('computes a key once while it is held, and holds at most `kept` keys', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo<string>(2);
    const upper = (k: string) => (calls.push(k), k.toUpperCase());
    expect([memo.get('a', upper), memo.get('a', upper), memo.get('b', upper), memo.get('a', upper)]).toEqual([
      'A',
      'A',
      'B',
      'A',
    ]);
    expect(calls).toEqual(['a', 'b']);
    memo.get('c', upper); // full: everything is forgotten, then c is held
    memo.get('c', upper);
    memo.get('a', upper);
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('computes long keys every time and remembers no failure', () => {
    const memo = new BoundedMemo<number>(10, 3);
    let n = 0;
    memo.get('long', () => ++n);
    memo.get('long', () => ++n);
    expect(n).toBe(2);
    expect(() =>
      memo.get('x', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(memo.get('x', () => 7)).toBe(7);
  });
});
