import { ecdsaSign } from 'secp256k1';

/**
 * Signs a 32-byte digest with libsecp256k1 (the `secp256k1` package's prebuilt native binding, or its
 * JavaScript fallback where none loads): RFC 6979 deterministic and low-s, so the bytes equal ethers'
 * `SigningKey.sign` (a unit test proves it over generated keys and digests), about eight times faster.
 * Returns the 65-byte `r ‖ s ‖ v` hex with v = 27 + recovery id, as OpenZeppelin's ECDSA.recover takes it.
 */
export function signDigest(privateKey: Uint8Array, digest: Uint8Array): string {
  const { signature, recid } = ecdsaSign(digest, privateKey);
  const out = Buffer.allocUnsafe(65);
  out.set(signature, 0);
  out[64] = 27 + recid;
  return `0x${out.toString('hex')}`;
}
