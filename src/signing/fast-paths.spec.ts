import fc from 'fast-check';
import { getBytes, hexlify, SigningKey, toUtf8Bytes, TypedDataEncoder } from 'ethers';
import { Eip712Digester } from './eip712';
import { utf8Bytes as utf8 } from '../common/crypto/bytes';
import { nobleSign, signDigest } from './secp256k1';
import { runs } from '../../test/support/property-runs';

const CURVE_N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const SEED = 20261123;

const privateKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => {
  const n = BigInt(hexlify(k));
  return n > 0n && n < CURVE_N;
});
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe(signDigest.name, () => {
  it(`signs byte for byte as ethers SigningKey.sign (RFC 6979, low s, v 27/28), over ${runs(2000)} keys and digests`, () => {
    fc.assert(
      fc.property(privateKey, digest, (key, d) => {
        expect(signDigest(key, d)).toBe(new SigningKey(key).sign(d).serialized);
      }),
      { seed: SEED, numRuns: runs(2000) },
    );
  });

  it(`signs the same bytes with the @noble/curves fallback, over ${runs(2000)} keys and digests`, () => {
    fc.assert(
      fc.property(privateKey, digest, (key, d) => {
        expect(signDigest(key, d, nobleSign)).toBe(new SigningKey(key).sign(d).serialized);
      }),
      { seed: SEED, numRuns: runs(2000) },
    );
  });
});

/** A struct with every atomic type the mint and gateway signatures use, and a few more. */
const TYPES = {
  Example: [
    { name: 'label', type: 'string' },
    { name: 'node', type: 'bytes32' },
    { name: 'owner', type: 'address' },
    { name: 'price', type: 'uint256' },
    { name: 'fuses', type: 'uint32' },
    { name: 'expiry', type: 'uint64' },
    { name: 'flag', type: 'bool' },
    { name: 'blob', type: 'bytes' },
    { name: 'tag', type: 'bytes4' },
  ],
};
const hex = (n: number) => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => hexlify(b));
const uint = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
const value = fc.record({
  label: fc.string({ unit: 'binary', maxLength: 40 }),
  node: hex(32),
  owner: hex(20),
  price: uint(256),
  fuses: uint(32).map(Number),
  expiry: uint(64),
  flag: fc.boolean(),
  blob: fc.uint8Array({ maxLength: 80 }).map((b) => hexlify(b)),
  tag: hex(4),
});
const domain = fc.record({
  name: fc.constant('namespace'),
  version: fc.constant('1'),
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  verifyingContract: hex(20),
});

describe(Eip712Digester.name, () => {
  it(`hashes as ethers TypedDataEncoder.hash, over ${runs(2000)} generated structs and domains`, () => {
    fc.assert(
      fc.property(domain, value, (d, v) => {
        expect(hexlify(new Eip712Digester(d, TYPES).digest(v))).toBe(TypedDataEncoder.hash(d, TYPES, v));
      }),
      { seed: SEED, numRuns: runs(2000) },
    );
  });

  it('refuses values its types do not hold, as ethers does', () => {
    const d = new Eip712Digester({ name: 'n', version: '1', chainId: 1 }, TYPES);
    const ok = {
      label: 'a',
      node: hexlify(new Uint8Array(32)),
      owner: hexlify(new Uint8Array(20)),
      price: 1n,
      fuses: 1,
      expiry: 1n,
      flag: true,
      blob: '0x',
      tag: '0x01020304',
    };
    expect(() => d.digest({ ...ok, fuses: 2 ** 32 })).toThrow('uint32');
    expect(() => d.digest({ ...ok, price: -1n })).toThrow('uint256');
    expect(() => d.digest({ ...ok, owner: '0x' + '00'.repeat(21) })).toThrow('20 bytes');
    expect(getBytes(hexlify(d.digest(ok)))).toHaveLength(32);
  });
});

describe(utf8.name, () => {
  /** Strings of any UTF-16 code units, lone and mismatched surrogates among them. */
  const units = fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7f0, max: 0xe010 })), { maxLength: 30 })
    .map((codes) => String.fromCharCode(...codes));

  it(`encodes as ethers toUtf8Bytes, and refuses what it refuses, over ${runs(5000)} generated strings`, () => {
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: 'grapheme', maxLength: 30 })), (text) => {
        let expected: string;
        try {
          expected = hexlify(toUtf8Bytes(text));
        } catch {
          expect(() => utf8(text)).toThrow('invalid surrogate pair');
          return;
        }
        expect(hexlify(utf8(text))).toBe(expected);
      }),
      { seed: SEED, numRuns: runs(5000) },
    );
  });
});
