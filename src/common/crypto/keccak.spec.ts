import { keccak_256 } from '@noble/hashes/sha3';
import { keccak256 } from 'ethers';
import fc from 'fast-check';
import { KECCAK_IMPLEMENTATION, keccak256Bytes } from './keccak';
import { runs } from '../../../test/support/property-runs';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('keccak256Bytes equals ethers keccak256', () => {
  it('loads the native binary on this platform', () => {
    expect(KECCAK_IMPLEMENTATION).toBe('native');
  });

  it('for generated inputs of 0 to 700 bytes (several rate blocks), as Buffers and as views into larger arrays', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.nat(16), (bytes, offset) => {
        expect(hex(keccak256Bytes(bytes))).toBe(keccak256(bytes));
        const larger = new Uint8Array(offset + bytes.length + 3);
        larger.set(bytes, offset);
        expect(hex(keccak256Bytes(larger.subarray(offset, offset + bytes.length)))).toBe(keccak256(bytes));
        expect(hex(keccak256Bytes(Buffer.from(bytes)))).toBe(keccak256(bytes));
      }),
      { seed: 256, numRuns: runs(3000) },
    );
  });

  it('at every length around the 136-byte rate, and for the empty input', () => {
    for (let n = 0; n <= 3 * 136 + 1; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hex(keccak256Bytes(bytes))).toBe(keccak256(bytes));
      expect(hex(keccak256Bytes(bytes))).toBe(hex(keccak_256(bytes)));
    }
    expect(hex(keccak256Bytes(new Uint8Array()))).toBe(
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });
});
