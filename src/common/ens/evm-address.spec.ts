import { coinTypeToNameMap, getCoderByCoinType } from '@ensdomains/address-encoder';
import { getAddress } from 'ethers';
import fc from 'fast-check';
import { checkedHexAddress, checksumAddress } from './evm-address';
import { canonicalAddress } from './records';
import { runs } from '../../../test/support/property-runs';

/** A 20-byte address, each hex letter in a case of the generator's choosing (so most are bad mixed case). */
const address = fc
  .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }))
  .map(([bytes, upper]) => {
    const hex = Buffer.from(bytes).toString('hex');
    return `0x${[...hex].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}`;
  });
/** Lower case, upper case, the right checksum, or a random casing. */
const anyCase = fc.oneof(
  address,
  address.map((a) => a.toLowerCase()),
  address.map((a) => `0x${a.slice(2).toUpperCase()}`),
  address.map((a) => getAddress(a.toLowerCase())),
);

function ethers(a: string): string | null {
  try {
    return getAddress(a);
  } catch {
    return null;
  }
}

function coder(coin: number, a: string): string | null {
  const c = getCoderByCoinType(coin);
  try {
    return c.encode(c.decode(a));
  } catch {
    return null;
  }
}

const EVM_COINS = [
  60,
  ...Object.keys(coinTypeToNameMap)
    .map(Number)
    .filter((c) => c >= 0x80000000),
];

describe('EIP-55 by hand equals ethers and address-encoder', () => {
  it('checkedHexAddress equals ethers getAddress on generated addresses in every case, asked twice (memo)', () => {
    fc.assert(
      fc.property(anyCase, (a) => {
        expect(checkedHexAddress(a)).toBe(ethers(a));
        expect(checkedHexAddress(a)).toBe(ethers(a));
        expect(checksumAddress(a)).toBe(getAddress(a.toLowerCase()));
      }),
      { seed: 55, numRuns: runs(5000) },
    );
  });

  it('canonicalAddress of every EVM coin equals its address-encoder coder, or refuses what the coder refuses', () => {
    expect(EVM_COINS.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(anyCase, fc.constantFrom(...EVM_COINS), (a, coin) => {
        const expected = coder(coin, a);
        if (expected === null) {
          expect(() => canonicalAddress(coin, a)).toThrow(
            `is not a valid ${getCoderByCoinType(coin).name} address (fails its EIP-55 checksum)`,
          );
        } else {
          expect(canonicalAddress(coin, a)).toBe(expected);
        }
      }),
      { seed: 11, numRuns: runs(5000) },
    );
  });

  it('knows the EIP-55 test vectors', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checkedHexAddress(a.toLowerCase())).toBe(a);
      expect(checkedHexAddress(a)).toBe(a);
    }
    expect(checkedHexAddress('0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
  });
});
