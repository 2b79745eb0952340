import { keccak256Bytes } from '../common/keccak';
import { type BytesLike, getBytes, hexlify } from 'ethers';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT64_LIMIT = 1n << 64n;

/**
 * The digest an offchain resolver checks before it trusts a gateway answer (CONTRACT section 9; ENS's reference
 * SignatureVerifier.makeSignatureHash): keccak256(0x1900 ‖ sender ‖ uint64 expires ‖ keccak256(request) ‖
 * keccak256(result)). `request` is the calldata the resolver handed out (the resolve(bytes,bytes) call), `result`
 * the ABI-encoded answer, `sender` the resolver contract that will verify it. Hashed over bytes, without the hex
 * round trips of solidityPackedKeccak256; a unit test proves it equal to that.
 */
export function ccipAnswerDigestBytes(
  sender: string,
  expires: bigint,
  request: BytesLike,
  result: BytesLike,
): Uint8Array {
  if (!ADDRESS.test(sender)) throw new Error(`not an address: ${sender}`);
  if (expires < 0n || expires >= UINT64_LIMIT) throw new Error(`${expires} is not a uint64`);
  const preimage = new Uint8Array(2 + 20 + 8 + 32 + 32);
  preimage[0] = 0x19;
  preimage[1] = 0x00;
  preimage.set(Buffer.from(sender.slice(2), 'hex'), 2);
  let n = expires;
  for (let i = 29; i >= 22; i--, n >>= 8n) preimage[i] = Number(n & 0xffn);
  preimage.set(keccak256Bytes(getBytes(request)), 30);
  preimage.set(keccak256Bytes(getBytes(result)), 62);
  return keccak256Bytes(preimage);
}

/** ccipAnswerDigestBytes as 0x-prefixed hex. */
export function ccipAnswerDigest(sender: string, expires: bigint, request: BytesLike, result: BytesLike): string {
  return hexlify(ccipAnswerDigestBytes(sender, expires, request, result));
}
