import fc from 'fast-check';
import { BloomFilter } from './bloom-filter';
import { runs } from '../../test/support/property-runs';

const label = fc.stringMatching(/^[a-z0-9-]{1,20}$/);
const fullName = fc.tuple(fc.oneof(label, fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' })), label);

describe(BloomFilter.name, () => {
  it('never says no for a name it was given (several thousand generated names, some not ASCII)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fullName, { minLength: 1, maxLength: 5000 }), (pairs) => {
        const names = pairs.map(([l, p]) => `${l}.${p}.eth`);
        const sut = new BloomFilter(Math.max(names.length, 1000), 0.01);
        for (const name of names) sut.add(name);
        return names.every((name) => sut.has(name));
      }),
      { seed: 20261124, numRuns: runs(20) },
    );
  });

  it('says yes for about 1 % of the names it was not given, once filled to its capacity', () => {
    const sut = new BloomFilter(65_536, 0.01);
    for (let i = 0; i < 65_536; i++) sut.add(`label-${i}.oak.eth`);
    let yes = 0;
    const tries = 200_000;
    for (let i = 0; i < tries; i++) if (sut.has(`other-${i}.pine.eth`)) yes += 1;
    expect(yes / tries).toBeGreaterThan(0.005);
    expect(yes / tries).toBeLessThan(0.015);
  });

  it('is sized in bits: about 1.2 bytes a name at 1 %, with 7 hashes', () => {
    const sut = new BloomFilter(1_000_000, 0.01);
    expect(sut.hashes).toBe(7);
    expect(sut.bits / 8).toBeGreaterThan(1_150_000);
    expect(sut.bits / 8).toBeLessThan(1_250_000);
  });

  it('counts the distinct names: adding one again sets no new bit', () => {
    const sut = new BloomFilter(1000, 0.01);
    expect(sut.add('alice.oak.eth')).toBe(true);
    expect(sut.add('alice.oak.eth')).toBe(false);
    expect(sut.add('bob.oak.eth')).toBe(true);
    expect(sut.size).toBe(2);
    expect(sut.has('carol.oak.eth')).toBe(false);
  });

  it('refuses a capacity or rate it cannot be sized for', () => {
    expect(() => new BloomFilter(0, 0.01)).toThrow();
    expect(() => new BloomFilter(10, 1)).toThrow();
  });
});
