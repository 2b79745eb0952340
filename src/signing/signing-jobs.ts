import { ccipDigest } from './ccip-digest';
import { signDigest } from './secp256k1';

/** Half the secp256k1 group order as 64 lowercase hex digits: a canonical (EIP-2) signature has s at most this. */
const HALF_N_HEX = '7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0';

/**
 * One signature to make with key number `key`: over a 32-byte digest as it is, or over a CCIP-Read gateway answer
 * (its digest made first). What the signing thread is sent, and what the service signs in its own thread when it
 * has none; ethers-free, so that the thread loads no more than it uses.
 */
export type SignJob =
  | { key: number; digest: Uint8Array }
  | { key: number; sender: string; expires: bigint; request: Uint8Array; result: Uint8Array };

/** The 65-byte `r ‖ s ‖ v` signature of a job, hex; refused unless 65 bytes with low s. */
export function runSignJob(keys: readonly Uint8Array[], job: SignJob): string {
  const digest = 'digest' in job ? job.digest : ccipDigest(job.sender, job.expires, job.request, job.result);
  if (digest.length !== 32) throw new Error('a digest to sign is 32 bytes');
  const signature = signDigest(keys[job.key], digest);
  if (signature.length !== 2 + 65 * 2) throw new Error('signing produced a signature that is not 65 bytes');
  // Same-length lowercase hex compares as the numbers do.
  if (signature.slice(66, 130) > HALF_N_HEX) throw new Error('signing produced a high-s signature');
  return signature;
}
