import { Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ChainUnavailableError } from './chain.errors';
import { EnsChain } from './ens-chain';

/** The ENS chain of ENS_RPC_URL, made on first use; every use without it is a 503 CHAIN_UNAVAILABLE. */
@Injectable()
export class EnsChainService implements OnModuleDestroy {
  private chain?: EnsChain;

  constructor(private readonly config: AppConfig) {}

  get(): EnsChain {
    const { rpcUrl, chainId, registry, nameWrapper } = this.config.ens;
    if (!rpcUrl) throw new ChainUnavailableError('ENS_RPC_URL is unset: the service cannot read the ENS chain');
    this.chain ??= EnsChain.at({ rpcUrl, chainId, registry, nameWrapper });
    return this.chain;
  }

  onModuleDestroy(): void {
    this.chain?.destroy();
  }
}

@Module({ providers: [EnsChainService], exports: [EnsChainService] })
export class ChainModule {}
