import { Injectable } from '@nestjs/common';
import { createPublicClient, http, isAddressEqual, type Hex, type PublicClient, recoverMessageAddress } from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage, verifySiweMessage } from 'viem/siwe';
import { ChainUnavailableError } from '../chain/chain.errors';
import { ServiceUnavailableError } from '../common/errors';
import { AppConfig } from '../config/app-config';

export interface SiweFields {
  address: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

/** Milliseconds a contract account's signature check may take on ENS_RPC_URL. */
const RPC_TIMEOUT_MS = 4000;

/**
 * Sign-In with Ethereum (EIP-4361) through viem/siwe: the message is written here from PUBLIC_URL and
 * ENS_CHAIN_ID, never from the request; a signature is recovered locally first (an ordinary account needs no
 * chain) and otherwise checked on ENS_RPC_URL (ERC-1271, ERC-6492 before deployment).
 */
@Injectable()
export class SiweVerifier {
  private client?: PublicClient;
  private readonly url?: URL;

  constructor(private readonly config: AppConfig) {
    this.url = config.publicUrl ? new URL(config.publicUrl) : undefined;
  }

  /** PUBLIC_URL's origin: the sign-in domain and the only origin allowed to change state. */
  get origin(): string | undefined {
    return this.url?.origin;
  }

  message(fields: SiweFields): string {
    const url = this.requireUrl();
    return createSiweMessage({
      domain: url.host,
      address: fields.address as Hex,
      statement: `Sign in to the developer portal of ${url.host}.`,
      uri: url.origin,
      version: '1',
      chainId: this.config.ens.chainId,
      nonce: fields.nonce,
      issuedAt: fields.issuedAt,
      expirationTime: fields.expirationTime,
    });
  }

  /** The nonce of a message, or undefined when it is not an EIP-4361 message. */
  nonceOf(message: string): string | undefined {
    try {
      return parseSiweMessage(message).nonce;
    } catch {
      return undefined;
    }
  }

  /** True when `signature` is `address`'s over `message`, and the message is for this domain, nonce and now. */
  async verify(message: string, signature: string, address: string, nonce: string): Promise<boolean> {
    const domain = this.requireUrl().host;
    const parsed = parseSiweMessage(message);
    const fields = { address: address as Hex, domain, nonce };
    if (!validateSiweMessage({ ...fields, message: parsed, time: new Date() })) return false;
    try {
      const recovered = await recoverMessageAddress({ message, signature: signature as Hex });
      if (isAddressEqual(recovered, address as Hex)) return true;
    } catch {
      // Not a 65-byte ECDSA signature: a contract account's, checked on chain below.
    }
    const rpcUrl = this.config.ens.rpcUrl;
    if (!rpcUrl) return false;
    this.client ??= createPublicClient({ transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
    try {
      return await verifySiweMessage(this.client, { ...fields, message, signature: signature as Hex });
    } catch {
      throw new ChainUnavailableError(
        `The Ethereum JSON-RPC endpoint ${new URL(rpcUrl).origin} could not check a contract account's signature; try again shortly`,
      );
    }
  }

  private requireUrl(): URL {
    if (!this.url)
      throw new ServiceUnavailableError('PUBLIC_URL is unset: the portal cannot name the site to sign in to');
    return this.url;
  }
}
