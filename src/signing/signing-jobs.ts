import { ccipDigest } from './ccip-digest';
import { StructDigester, StructSpec } from './eip712-struct';
import { signDigest } from './secp256k1';

/** Half the secp256k1 group order as 64 lowercase hex digits: a canonical (EIP-2) signature has s at most this. */
const HALF_N_HEX = '7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0';

/**
 * The signing thread answers a batch in messages of this many signatures: the event loop takes up the first
 * answers while the thread still signs the rest, instead of waiting idle for the whole batch (one process's
 * resolutions +17 % against answering each batch whole; answering one by one cost the mint 10 % more CPU).
 */
export const ANSWER_CHUNK = 4;

/** The message that asks the signing thread to end once it has answered what it was sent before. */
export const STOP = 'stop';

/** What a signer is asked to sign: a 32-byte digest, an EIP-712 struct of a registered type, or a gateway answer. */
export type Signable =
  | { digest: Uint8Array }
  | { struct: number; value: object }
  | { sender: string; expires: bigint; request: Uint8Array; result: Uint8Array };

/**
 * One signature to make with key number `key`. What the signing thread is sent, and what the service signs on its
 * event loop when it has no thread; ethers-free, so that the thread loads no more than it uses.
 */
export type SignJob = Signable & { key: number };

/** The keys and the EIP-712 struct types jobs name by number. */
export interface SigningMaterial {
  keys: Uint8Array[];
  structs: StructSpec[];
}

/** Signs jobs against one set of keys and struct types. */
export class JobSigner {
  private readonly digesters: StructDigester[];

  constructor(private readonly material: SigningMaterial) {
    this.digesters = material.structs.map((spec) => new StructDigester(spec));
  }

  /** The 65-byte `r ‖ s ‖ v` signature of a job, hex; refused unless 65 bytes with low s. */
  sign(job: SignJob): string {
    const digest = this.digestOf(job);
    if (digest.length !== 32) throw new Error('a digest to sign is 32 bytes');
    const signature = signDigest(this.material.keys[job.key], digest);
    if (signature.length !== 2 + 65 * 2) throw new Error('signing produced a signature that is not 65 bytes');
    // Same-length lowercase hex compares as the numbers do.
    if (signature.slice(66, 130) > HALF_N_HEX) throw new Error('signing produced a high-s signature');
    return signature;
  }

  private digestOf(job: SignJob): Uint8Array {
    if ('digest' in job) return job.digest;
    if ('struct' in job) return this.digesters[job.struct].digest(job.value);
    return ccipDigest(job.sender, job.expires, job.request, job.result);
  }
}
