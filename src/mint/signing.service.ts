import { Injectable, Logger } from '@nestjs/common';
import { computeAddress, concat, keccak256, Signature, SigningKey, TypedDataEncoder } from 'ethers';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppConfig, NetworkConfig } from '../config/app-config';
import { signaturesMade } from '../metrics/metrics';
import {
  DOMAIN_NAME,
  DOMAIN_VERSION,
  MINT_CONTEXT_TYPES,
  MINT_PRIMARY_TYPE,
  MintContent,
  MintDomain,
  Network,
  NETWORKS,
} from './mint-context';

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;
/** Half the secp256k1 group order: a canonical (EIP-2, OpenZeppelin ECDSA) signature has s at most this. */
const HALF_N = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');

export class SignerConfigError extends Error {}

/** What a client needs to rebuild the digest and check a signature; never the key. */
export interface SignerInfo {
  address: string;
  chainId: number;
  verifyingContract: string;
  domain: MintDomain;
  types: typeof MINT_CONTEXT_TYPES;
  primaryType: string;
}

export function envName(network: Network): string {
  return `MINT_${network.toUpperCase()}_SIGNER_KEY`;
}

/** One network's signer: its key, its domain, and the encoder and domain separator built once. */
export class NetworkSigner {
  readonly address: string;
  readonly domain: MintDomain;
  private readonly encoder = new TypedDataEncoder(MINT_CONTEXT_TYPES);
  private readonly domainSeparator: string;
  // A private field holding the key object; nothing returns or prints it.
  readonly #key: SigningKey;

  constructor(
    readonly network: Network,
    chainId: number,
    verifyingContract: string,
    privateKey: string,
  ) {
    try {
      this.#key = new SigningKey(privateKey);
      this.address = computeAddress(this.#key.publicKey);
    } catch {
      // Zero and values at or above the curve order are 32 bytes of hex but no key.
      throw new SignerConfigError(`${envName(network)} is not a valid secp256k1 private key`);
    }
    this.domain = { name: DOMAIN_NAME, version: DOMAIN_VERSION, chainId, verifyingContract };
    this.domainSeparator = TypedDataEncoder.hashDomain(this.domain);
  }

  /** The EIP-712 digest: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(MintContext)). */
  digest(content: MintContent): string {
    return keccak256(concat(['0x1901', this.domainSeparator, this.encoder.hash(content)]));
  }

  /** A 65-byte r ‖ s ‖ v signature with low s, as OpenZeppelin's ECDSA.recover requires. */
  sign(content: MintContent): string {
    const signature: Signature = this.#key.sign(this.digest(content));
    if (BigInt(signature.s) > HALF_N) throw new Error('signing produced a high-s signature');
    const serialized = signature.serialized;
    if (serialized.length !== 2 + 65 * 2) throw new Error('signing produced a signature that is not 65 bytes');
    signaturesMade.inc({ network: this.network });
    return serialized;
  }

  info(): SignerInfo {
    return {
      address: this.address,
      chainId: this.domain.chainId,
      verifyingContract: this.domain.verifyingContract,
      domain: { ...this.domain },
      types: MINT_CONTEXT_TYPES,
      primaryType: MINT_PRIMARY_TYPE,
    };
  }
}

/**
 * The mint signers, one per network, made at start-up. A key comes from MINT_<NETWORK>_SIGNER_KEY; without one,
 * outside production, a development key is made once and kept in DATA_DIR; in production the service refuses
 * to start.
 */
@Injectable()
export class SigningService {
  private readonly logger = new Logger(SigningService.name);
  private readonly signers: Record<Network, NetworkSigner>;

  constructor(config: AppConfig) {
    const entries = NETWORKS.map((network) => {
      const net: NetworkConfig = config.mint[network];
      const key = net.signerKey ?? this.developmentKey(network, config);
      return [network, new NetworkSigner(network, net.chainId, net.contract, key)] as const;
    });
    this.signers = Object.fromEntries(entries) as Record<Network, NetworkSigner>;
  }

  sign(network: Network, content: MintContent): string {
    return this.signers[network].sign(content);
  }

  digest(network: Network, content: MintContent): string {
    return this.signers[network].digest(content);
  }

  info(network: Network): SignerInfo {
    return this.signers[network].info();
  }

  private developmentKey(network: Network, config: AppConfig): string {
    const variable = envName(network);
    if (config.env === 'production') {
      throw new SignerConfigError(
        `${variable} is not set: with NODE_ENV=production the ${network} mint signer key is required ` +
          '(a 0x-prefixed 32-byte hex private key)',
      );
    }
    const file = join(config.dataDir, `dev-signer-${network}.key`);
    mkdirSync(config.dataDir, { recursive: true });
    const fresh = `0x${randomBytes(32).toString('hex')}`;
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    let created = true;
    writeFileSync(temp, `${fresh}\n`, { mode: 0o600 });
    try {
      // link() fails when the file exists, so processes starting together keep one complete key.
      linkSync(temp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      created = false;
    } finally {
      unlinkSync(temp);
    }
    const key = created ? fresh : readFileSync(file, 'utf8').trim();
    if (!PRIVATE_KEY.test(key)) {
      throw new SignerConfigError(
        `${file} does not hold a 0x-prefixed 32-byte hex private key; delete it or set ${variable}`,
      );
    }
    const address = computeAddress(key);
    if (created) {
      this.logger.warn(
        `generated development signer ${address} for ${network} in ${file}; set ${variable} outside development`,
      );
    } else {
      this.logger.warn(
        `using development signer ${address} for ${network} from ${file}; set ${variable} outside development`,
      );
    }
    return key;
  }
}
