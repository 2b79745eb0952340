import { parseWalPosition } from './wal-position';

describe(parseWalPosition.name, () => {
  it('reads both halves of a pg_lsn, so positions compare across a 4 GB boundary', () => {
    expect(parseWalPosition('0/0')).toBe(0n);
    expect(parseWalPosition('0/3000148')).toBe(0x3000148n);
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseWalPosition('1/0') > parseWalPosition('0/FFFFFFFF')).toBe(true);
  });

  it('refuses what is not a WAL position', () => {
    expect(() => parseWalPosition('')).toThrow('not a WAL position: ');
    expect(() => parseWalPosition('0/123456789')).toThrow('not a WAL position: 0/123456789');
  });
});
