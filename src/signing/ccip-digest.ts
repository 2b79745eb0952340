import { keccak256Bytes } from '../common/crypto/keccak';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT64_LIMIT = 1n << 64n;

/**
 * The digest an offchain resolver checks before it trusts a gateway answer (ENS's reference
 * SignatureVerifier.makeSignatureHash): keccak256(0x1900 ‖ sender ‖ uint64 expires ‖ keccak256(request) ‖
 * keccak256(result)), over bytes. Without ethers, so that the signing thread loads no more than it uses.
 */
export function ccipDigest(sender: string, expires: bigint, request: Uint8Array, result: Uint8Array): Uint8Array {
  if (!ADDRESS.test(sender)) throw new Error(`not an address: ${sender}`);
  if (expires < 0n || expires >= UINT64_LIMIT) throw new Error(`${expires} is not a uint64`);
  const preimage = new Uint8Array(2 + 20 + 8 + 32 + 32);
  preimage[0] = 0x19;
  preimage[1] = 0x00;
  preimage.set(Buffer.from(sender.slice(2), 'hex'), 2);
  let n = expires;
  for (let i = 29; i >= 22; i--, n >>= 8n) preimage[i] = Number(n & 0xffn);
  preimage.set(keccak256Bytes(request), 30);
  preimage.set(keccak256Bytes(result), 62);
  return keccak256Bytes(preimage);
}
