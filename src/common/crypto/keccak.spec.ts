import { keccak_256 } from '@noble/hashes/sha3';
import { keccak256 } from 'ethers';
import fc from 'fast-check';
import { dirname } from 'node:path';
import nodeGypBuild from 'node-gyp-build';
import { KeccakState, keccak256Bytes, nativeKeccak } from './keccak';
import { runs } from '../../../test/support/property-runs';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('keccak256Bytes equals ethers keccak256', () => {
  it('loads the native binary on this platform (it passed the self-test)', () => {
    expect(keccak256Bytes).not.toBe(keccak_256);
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

describe(nativeKeccak.name, () => {
  const Native = nodeGypBuild(dirname(require.resolve('keccak/package.json'))) as new () => KeccakState;
  const empty = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

  it('keeps a binding that gives the known answers', () => {
    const hash = nativeKeccak(new Native());
    expect(hash).not.toBeNull();
    expect(hex(hash!(new Uint8Array()))).toBe(empty);
    expect(hex(hash!(Buffer.from('abc')))).toBe(keccak256(Buffer.from('abc')));
  });

  it('refuses no binding at all (it did not load): keccak256Bytes is then @noble/hashes', () => {
    expect(nativeKeccak(null)).toBeNull();
  });

  it('refuses a binding that answers wrong (the SHA-3 padding where the Keccak one belongs)', () => {
    const state = new Native();
    const wrong: KeccakState = {
      initialize: (rate, capacity) => state.initialize(rate, capacity),
      absorb: (data) => state.absorb(data),
      absorbLastFewBits: () => state.absorbLastFewBits(0x06),
      squeeze: (length) => state.squeeze(length),
    };
    expect(nativeKeccak(wrong)).toBeNull();
  });

  it('refuses a binding whose methods are gone or throw', () => {
    const throwing: KeccakState = {
      initialize: () => undefined,
      absorb: () => {
        throw new TypeError('state.absorb is not a function');
      },
      absorbLastFewBits: () => undefined,
      squeeze: () => Buffer.alloc(32),
    };
    expect(nativeKeccak(throwing)).toBeNull();
    const silent: KeccakState = { ...throwing, absorb: () => undefined };
    expect(nativeKeccak(silent)).toBeNull();
  });
});
