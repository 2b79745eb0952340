import { Module } from '@nestjs/common';
import { EnsChainService } from './ens-chain.service';
import { SignatureVerifier } from './signature-verifier';

/** The one door to the chain: its reads, and the signature checks of contract accounts. */
@Module({ providers: [EnsChainService, SignatureVerifier], exports: [EnsChainService, SignatureVerifier] })
export class ChainModule {}

export { EnsChainService } from './ens-chain.service';
export { SignatureVerifier } from './signature-verifier';
