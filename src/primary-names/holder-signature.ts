import { Injectable } from '@nestjs/common';
import { recoverAddress, Signature } from 'ethers';
import { createPublicClient, http, type PublicClient } from 'viem';
import { getCode, verifyHash } from 'viem/actions';
import { ChainUnavailableError } from '../chain/chain.errors';
import { AppConfig } from '../config/app-config';

/** ERC-6492's suffix of a signature made by a contract account that is not deployed yet. */
const ERC6492_SUFFIX = '6492649264926492649264926492649264926492649264926492649264926492';
/** Milliseconds the contract-account check may take on the chain. */
const CHAIN_TIMEOUT_MS = 4000;

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
 * Whether a signature of a digest is the address holder's: an externally owned account's by ecrecover, with no
 * chain; a contract account's through ENS_RPC_URL, by viem's verifyHash (ERC-1271 isValidSignature once deployed,
 * ERC-6492's deployless validator before). viem keeps ERC-6492's validator bytecode and its edge cases current,
 * which ethers does not ship; the service reaches the chain through it for this check only.
 */
@Injectable()
export class HolderSignature {
  private client?: PublicClient;

  constructor(private readonly config: AppConfig) {}

  async isHolders(address: string, digest: string, signature: string): Promise<boolean> {
    const contractSigned = signature.toLowerCase().endsWith(ERC6492_SUFFIX);
    if (!contractSigned && recovered(digest, signature)?.toLowerCase() === address.toLowerCase()) return true;
    const client = this.chain();
    // Without a chain no contract account can be checked: a plain signature that is not the holder's is refused.
    if (!client) {
      if (!contractSigned) return false;
      throw new ChainUnavailableError('ENS_RPC_URL is unset: a contract account signature cannot be checked');
    }
    const origin = new URL(this.config.ens.rpcUrl!).origin;
    try {
      // viem's verifyHash reads a failed transport as an invalid signature: ask the endpoint something first.
      await getCode(client, { address: address as `0x${string}` });
    } catch {
      throw new ChainUnavailableError(
        `The Ethereum JSON-RPC endpoint ${origin} failed or did not answer in time while checking a contract ` +
          'account signature; try again shortly',
      );
    }
    return verifyHash(client, {
      address: address as `0x${string}`,
      hash: digest as `0x${string}`,
      signature: signature as `0x${string}`,
    });
  }

  private chain(): PublicClient | undefined {
    const url = this.config.ens.rpcUrl;
    if (!url) return undefined;
    this.client ??= createPublicClient({ transport: http(url, { timeout: CHAIN_TIMEOUT_MS, retryCount: 0 }) });
    return this.client;
  }
}
