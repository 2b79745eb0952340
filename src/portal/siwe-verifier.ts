import { Injectable } from '@nestjs/common';
import type { Hex } from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { SignatureVerifier } from '../chain/chain.module';
import { ServiceUnavailableError } from '../common/errors';
import { AppConfig } from '../config/app-config';

export interface SiweFields {
  address: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

/**
 * Sign-In with Ethereum (EIP-4361) through viem/siwe: the message is written here from PUBLIC_URL and
 * ENS_CHAIN_ID, never from the request; the signature is checked by chain/'s SignatureVerifier (an ordinary account
 * needs no chain; a contract account's goes through ERC-1271, or ERC-6492 before deployment).
 */
@Injectable()
export class SiweVerifier {
  private readonly url?: URL;

  constructor(
    private readonly config: AppConfig,
    private readonly signatures: SignatureVerifier,
  ) {
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
    return this.signatures.verifyMessage(address, message, signature);
  }

  private requireUrl(): URL {
    if (!this.url)
      throw new ServiceUnavailableError('PUBLIC_URL is unset: the portal cannot name the site to sign in to');
    return this.url;
  }
}
