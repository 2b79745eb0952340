import { type BytesLike, getBytes, hexlify } from 'ethers';
import { ccipDigest } from './ccip-digest';

/**
 * The digest an offchain resolver checks before it trusts a gateway answer (ccipDigest), of bytes or hex: `request`
 * is the calldata the resolver handed out (the resolve(bytes,bytes) call), `result` the ABI-encoded answer,
 * `sender` the resolver contract that will verify it. Hashed over bytes, without the hex round trips of
 * solidityPackedKeccak256; a unit test proves it equal to that.
 */
export function ccipAnswerDigestBytes(
  sender: string,
  expires: bigint,
  request: BytesLike,
  result: BytesLike,
): Uint8Array {
  return ccipDigest(sender, expires, getBytes(request), getBytes(result));
}

/** ccipAnswerDigestBytes as 0x-prefixed hex. */
export function ccipAnswerDigest(sender: string, expires: bigint, request: BytesLike, result: BytesLike): string {
  return hexlify(ccipAnswerDigestBytes(sender, expires, request, result));
}
