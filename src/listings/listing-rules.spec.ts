import { canonicalReservedLabels, fusesProblem, lengthPricesProblem, weiProblem } from './listing-rules';

describe('listing rules', () => {
  it.each(['0', '1', '1000000000000000000', (2n ** 256n - 1n).toString()])('accepts wei %s', (v) => {
    expect(weiProblem(v)).toBeNull();
  });

  it.each([
    [1000, 'decimal string'],
    ['', 'without sign'],
    ['-1', 'without sign'],
    ['01', 'leading zeros'],
    ['1e18', 'without sign'],
    ['1.5', 'without sign'],
    [' 1', 'without sign'],
    ['0x10', 'without sign'],
    [(2n ** 256n).toString(), 'below 2^256'],
    ['9'.repeat(79), 'without sign'],
    [null, 'decimal string'],
  ])('refuses wei %p', (v, message) => {
    expect(weiProblem(v)).toContain(message);
  });

  it.each([0, 1 + 65536, 65536, 65536 + 1 + 4, 262144, 4294967295 - 131072])('accepts fuses %i', (v) => {
    expect(fusesProblem(v)).toBeNull();
  });

  it.each([
    [-1, 'integer'],
    [4294967296, 'integer'],
    [1.5, 'integer'],
    ['65536', 'integer'],
    [131072, 'IS_DOT_ETH'],
    [1, 'PARENT_CANNOT_CONTROL'], // CANNOT_UNWRAP alone
    [65536 + 4, 'PARENT_CANNOT_CONTROL'], // an owner fuse without CANNOT_UNWRAP
  ])('refuses fuses %p', (v, message) => {
    expect(fusesProblem(v)).toContain(message);
  });

  it('checks per-length prices: keys 1 to 255, wei values', () => {
    expect(lengthPricesProblem({ '1': '10', '255': '0' })).toBeNull();
    expect(lengthPricesProblem({})).toBeNull();
    expect(lengthPricesProblem([])).toContain('must be an object');
    expect(lengthPricesProblem({ '0': '1' })).toContain('"0"');
    expect(lengthPricesProblem({ '256': '1' })).toContain('"256"');
    expect(lengthPricesProblem({ '01': '1' })).toContain('"01"');
    expect(lengthPricesProblem({ a: '1' })).toContain('"a"');
    expect(lengthPricesProblem({ '3': 5 })).toContain('entry "3"');
  });

  it('checks reserved labels and names the bad entry', () => {
    expect(canonicalReservedLabels(['admin', 'WWW', '🙂', 'admin'])).toEqual(['admin', 'www', '🙂']);
    expect(() => canonicalReservedLabels('admin')).toThrow('array');
    expect(() => canonicalReservedLabels(['ok', 'a.b'])).toThrow('entry 1');
    expect(() => canonicalReservedLabels(['ok', 7])).toThrow('entry 1');
    expect(() => canonicalReservedLabels(Array(1001).fill('a'))).toThrow('at most 1000');
  });
});
