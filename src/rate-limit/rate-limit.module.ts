import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthModule } from '../auth/auth.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RateLimitGuard } from './rate-limit.guard';
import { rateLimitOptions } from './rate-limit.options';
import { RateLimitStorage } from './rate-limit.storage';
import { RouteBudgets } from './route-budgets';
import { SignerBudget } from './signer-budget';

/** Holds the counter storage, so that the guard, the health check and the holders' signer budget share one. */
@Module({
  imports: [MetricsModule],
  providers: [RateLimitStorage, SignerBudget, RouteBudgets],
  exports: [RateLimitStorage, SignerBudget, RouteBudgets],
})
export class RateLimitStorageModule {}

/**
 * Rate limits per client address and per API key (RATE_LIMIT_*), shared through Redis with REDIS_URL:
 * `@nestjs/throttler`'s module and guard on our storage. It uses auth to look keys up after the address has
 * paid; auth knows nothing of it.
 */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule, AuthModule],
      inject: [RouteBudgets, RateLimitStorage, ApiKeysService],
      useFactory: rateLimitOptions,
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [RateLimitStorageModule],
})
export class RateLimitModule {}
