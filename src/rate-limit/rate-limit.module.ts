import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/** Holds the counter storage, so that the guard and the health check share one instance. */
@Module({ providers: [RateLimitStorage], exports: [RateLimitStorage] })
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
