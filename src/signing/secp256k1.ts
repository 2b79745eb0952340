import { secp256k1 as noble } from '@noble/curves/secp256k1';

/** A recoverable ECDSA signature of a 32-byte digest: 64 bytes `r ‖ s` and the recovery id. */
type SignRecoverable = (digest: Uint8Array, privateKey: Uint8Array) => { signature: Uint8Array; recid: number };

/** libsecp256k1 through the `secp256k1` package's prebuilt binding; none where no prebuild loads (say arm64). */
function nativeSigner(): SignRecoverable | null {
  try {
    // The package's own entry falls back to `elliptic`; its `bindings` entry is the native half alone.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('secp256k1/bindings') as { ecdsaSign: SignRecoverable }).ecdsaSign;
  } catch {
    return null;
  }
}

/** The same signature by @noble/curves (RFC 6979, low s), the JavaScript fallback. */
export const nobleSign: SignRecoverable = (digest, privateKey) => {
  const sig = noble.sign(digest, privateKey, { lowS: true });
  return { signature: sig.toCompactRawBytes(), recid: sig.recovery };
};

const sign: SignRecoverable = nativeSigner() ?? nobleSign;

/**
 * Signs a 32-byte digest with libsecp256k1 (or @noble/curves where the native binding does not load): RFC 6979
 * deterministic and low-s, so the bytes equal ethers' `SigningKey.sign` (a unit test proves both over generated
 * keys and digests), about eight times faster natively. Returns the 65-byte `r ‖ s ‖ v` hex with
 * v = 27 + recovery id, as OpenZeppelin's ECDSA.recover takes it.
 */
export function signDigest(privateKey: Uint8Array, digest: Uint8Array, signer: SignRecoverable = sign): string {
  const { signature, recid } = signer(digest, privateKey);
  const out = Buffer.allocUnsafe(65);
  out.set(signature, 0);
  out[64] = 27 + recid;
  return `0x${out.toString('hex')}`;
}
