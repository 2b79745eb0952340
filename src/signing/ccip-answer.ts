import { type BytesLike, keccak256, solidityPackedKeccak256 } from 'ethers';

/**
 * The digest an offchain resolver checks before it trusts a gateway answer (CONTRACT section 9; ENS's reference
 * SignatureVerifier.makeSignatureHash): keccak256(0x1900 ‖ sender ‖ uint64 expires ‖ keccak256(request) ‖
 * keccak256(result)). `request` is the calldata the resolver handed out (the resolve(bytes,bytes) call), `result`
 * the ABI-encoded answer, `sender` the resolver contract that will verify it.
 */
export function ccipAnswerDigest(sender: string, expires: bigint, request: BytesLike, result: BytesLike): string {
  return solidityPackedKeccak256(
    ['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'],
    ['0x1900', sender, expires, keccak256(request), keccak256(result)],
  );
}
