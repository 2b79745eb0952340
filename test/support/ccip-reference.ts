import { type BytesLike, keccak256, solidityPackedKeccak256 } from 'ethers';

/**
 * The digest an offchain resolver checks before it trusts a gateway answer (ENS's reference
 * SignatureVerifier.makeSignatureHash), built with ethers as the reference the service's own digest is tested
 * against: keccak256(0x1900 ‖ sender (any letter case) ‖ uint64 expires ‖ keccak256(request) ‖ keccak256(result)).
 */
export function ccipAnswerDigest(sender: string, expires: bigint, request: BytesLike, result: BytesLike): string {
  return solidityPackedKeccak256(
    ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
    ['0x1900', sender.toLowerCase(), expires, keccak256(request), keccak256(result)],
  );
}
