import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';
import { SignerBudget } from './signer-budget';

/** Holds the counter storage, so that the guard, the health check and the holders' signer budget share one. */
@Module({ providers: [RateLimitStorage, SignerBudget], exports: [RateLimitStorage, SignerBudget] })
export class RateLimitStorageModule {}

/**
 * Rate limits per client address and per API key (RATE_LIMIT_*), shared through Redis with REDIS_URL. It uses
 * auth to look keys up after the address has paid; auth knows nothing of it.
 */
@Module({
  imports: [RateLimitStorageModule, AuthModule],
  providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [RateLimitStorageModule],
})
export class RateLimitModule {}
