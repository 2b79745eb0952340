import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { type BytesLike, getBytes, hexlify } from 'ethers';
import { AppConfig, NetworkConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { Eip712Digester } from './eip712';
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
import { DigestSigner, loadSignerKey, type SignerSource } from './signer-key';
import { SigningThread } from './signing-thread';

export { SignerConfigError } from './signer-key';

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

export const CCIP_SIGNER_VARIABLE = 'CCIP_SIGNER_KEY';

/** The gateway signer's key source; `npm run cli -- dev-chain` reads the same key, so its resolver trusts it. */
export function ccipSignerSource(config: AppConfig): SignerSource {
  return {
    variable: CCIP_SIGNER_VARIABLE,
    configured: config.ccip.signerKey,
    devFile: 'dev-signer-ccip.key',
    purpose: 'CCIP-Read gateway',
    logName: 'the CCIP-Read gateway',
  };
}

/** One network's mint signer: its key, its domain, and the type hash and domain separator computed once. */
export class NetworkSigner {
  readonly domain: MintDomain;
  private readonly digester: Eip712Digester;
  private readonly struct: number;

  constructor(
    readonly network: Network,
    chainId: number,
    verifyingContract: string,
    private readonly key: DigestSigner,
    thread: SigningThread,
    /** Counts a signature (a function: the service is never serialised with the metrics' registry). */
    private readonly counted: () => void,
  ) {
    this.domain = { name: DOMAIN_NAME, version: DOMAIN_VERSION, chainId, verifyingContract };
    this.digester = new Eip712Digester(this.domain, MINT_CONTEXT_TYPES);
    key.attach(thread);
    this.struct = thread.addStruct(this.digester.spec);
  }

  get address(): string {
    return this.key.address;
  }

  /** The EIP-712 digest: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(MintContext)). */
  digest(content: MintContent): string {
    return hexlify(this.digester.digest(content));
  }

  async sign(content: MintContent): Promise<string> {
    const signature = await this.key.sign({ struct: this.struct, value: content });
    this.counted();
    return signature;
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
 * Every signature the service makes, with one set of key rules: the mint signers (one per network, EIP-712
 * MintContext) and the CCIP-Read gateway signer (docs/reference.md#resolution-gateway). Keys come from
 * MINT_<NETWORK>_SIGNER_KEY and CCIP_SIGNER_KEY; without one, outside production, a development key is made once
 * and kept in DATA_DIR; in production the service refuses to start. Keys are never logged or returned. With
 * SIGNING_THREAD (the default outside tests) the signatures are made on a thread of their own (SigningThread).
 */
@Injectable()
export class SigningService implements OnModuleDestroy {
  private readonly logger = new Logger(SigningService.name);
  private readonly signers: Record<Network, NetworkSigner>;
  private readonly ccip: DigestSigner;
  private readonly thread: SigningThread;
  private readonly ccipCounted: () => void;

  constructor(config: AppConfig, metrics: Metrics = new Metrics()) {
    this.ccipCounted = () => metrics.ccipSignaturesMade.inc();
    metrics.signingThreadUp.set(0);
    const thread = new SigningThread(
      (e) => this.logger.error(`the signing thread failed (${e}); signing here`),
      (running) => metrics.signingThreadUp.set(running ? 1 : 0),
    );
    this.thread = thread;
    const entries = NETWORKS.map((network) => {
      const net: NetworkConfig = config.mint[network];
      const key = loadSignerKey(
        {
          variable: envName(network),
          configured: net.signerKey,
          devFile: `dev-signer-${network}.key`,
          purpose: `${network} mint`,
          logName: network,
        },
        config,
        this.logger,
      );
      return [
        network,
        new NetworkSigner(network, net.chainId, net.contract, key, thread, () =>
          metrics.signaturesMade.inc({ network }),
        ),
      ] as const;
    });
    this.signers = Object.fromEntries(entries) as Record<Network, NetworkSigner>;
    this.ccip = loadSignerKey(ccipSignerSource(config), config, this.logger);
    this.ccip.attach(thread);
    // Off the event loop serving requests: a signature is 40–70 µs of CPU there (bench/RESULTS.md).
    if (config.signingThread) thread.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.thread.stop();
  }

  sign(network: Network, content: MintContent): Promise<string> {
    return this.signers[network].sign(content);
  }

  digest(network: Network, content: MintContent): string {
    return this.signers[network].digest(content);
  }

  info(network: Network): SignerInfo {
    return this.signers[network].info();
  }

  /** The address an offchain resolver must list as a signer. */
  get ccipAddress(): string {
    return this.ccip.address;
  }

  /** Signs a gateway answer for the resolver `sender`: the 65-byte signature over ccipDigest. */
  async signCcipAnswer(sender: string, expires: bigint, request: BytesLike, result: BytesLike): Promise<string> {
    const signature = await this.ccip.sign({ sender, expires, request: getBytes(request), result: getBytes(result) });
    this.ccipCounted();
    return signature;
  }
}
