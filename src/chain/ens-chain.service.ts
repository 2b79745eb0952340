import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ChainUnavailableError } from './chain.errors';
import { EnsChain } from './ens-chain';

/** The ENS chain of ENS_RPC_URL, made on first use; every use without it is a 503 CHAIN_UNAVAILABLE. */
@Injectable()
export class EnsChainService implements OnModuleDestroy {
  private chain?: EnsChain;

  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return Boolean(this.config.ens.rpcUrl);
  }

  get(): EnsChain {
    const { rpcUrl, chainId, registry, nameWrapper } = this.config.ens;
    if (!rpcUrl) {
      throw new ChainUnavailableError(
        'The operator of this service has not configured a chain (ENS_RPC_URL is unset), so it cannot be read; ask ' +
          'them to set it',
      );
    }
    this.chain ??= EnsChain.at({ rpcUrl, chainId, registry, nameWrapper });
    return this.chain;
  }

  onModuleDestroy(): void {
    this.chain?.destroy();
  }
}
