import fc from 'fast-check';
import { getAddress, hexlify } from 'ethers';
import type { MintContent } from '../../src/signing/mint-context';

/** Generated inputs of the signing specs. */
export const bytes = (min: number, max = min) => fc.uint8Array({ minLength: min, maxLength: max });
/** A checksummed address. */
export const address = bytes(20).map((b) => getAddress(hexlify(b)));
const uint256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(String);

/** MintContent as the mint service builds it: checksummed addresses, wei as decimal strings, integer times. */
export const mintContent: fc.Arbitrary<MintContent> = fc.record({
  label: fc.string({ unit: 'grapheme', maxLength: 40 }),
  parentNode: bytes(32).map((b) => hexlify(b)),
  owner: address,
  price: uint256,
  fee: uint256,
  paymentReceiver: address,
  expiry: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  signatureExpiry: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  verifiedMinter: address,
  fuses: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
});
