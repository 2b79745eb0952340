import { Injectable } from '@nestjs/common';
import { hashMessage, recoverAddress, Signature } from 'ethers';
import { encodeDeployData, erc6492SignatureValidatorAbi, erc6492SignatureValidatorByteCode, type Hex } from 'viem';
import { EnsChainService } from './ens-chain.service';

/** ERC-6492's suffix of a signature made by a contract account that is not deployed yet. */
const ERC6492_SUFFIX = '6492649264926492649264926492649264926492649264926492649264926492';
const SIGNATURE = /^0x[0-9a-fA-F]*$/;

/** The address an ECDSA signature of the digest recovers to, or null when it is not a 65-byte signature. */
function recovered(digest: string, signature: string): string | null {
  if (signature.length !== 2 + 130) return null;
  try {
    return recoverAddress(digest, Signature.from(signature));
  } catch {
    return null;
  }
}

/**
 * Whether a signature is an address's: an externally owned account's by ecrecover, with no chain; a contract
 * account's on the one chain of chain/, through ERC-6492's deployless validator (viem ships its bytecode and keeps
 * it current), which asks a deployed account's ERC-1271 isValidSignature and deploys an undeployed one first.
 * A chain that cannot answer is a ChainUnavailableError, never a refusal.
 */
@Injectable()
export class SignatureVerifier {
  constructor(private readonly chains: EnsChainService) {}

  async verifyHash(address: string, hash: string, signature: string): Promise<boolean> {
    if (!SIGNATURE.test(signature) || signature.length % 2 !== 0) return false;
    const contractSigned = signature.toLowerCase().endsWith(ERC6492_SUFFIX);
    if (!contractSigned && recovered(hash, signature)?.toLowerCase() === address.toLowerCase()) return true;
    // Without a chain no contract account can be checked: a plain signature that is not the holder's is refused.
    if (!contractSigned && !this.chains.configured) return false;
    const data = encodeDeployData({
      abi: erc6492SignatureValidatorAbi,
      args: [address as Hex, hash as Hex, signature as Hex],
      bytecode: erc6492SignatureValidatorByteCode,
    });
    const out = await this.chains.get().call(null, data);
    // The validator's constructor returns its verdict as one byte.
    return out.ok && out.data !== '0x' && BigInt(out.data) === 1n;
  }

  /** EIP-191 personal_sign of `message` (what a wallet signs for Sign-In with Ethereum). */
  verifyMessage(address: string, message: string, signature: string): Promise<boolean> {
    return this.verifyHash(address, hashMessage(message), signature);
  }
}
