import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { IP_LIMIT, KEY_LIMIT } from '../common/rate-limit.constants';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/** Holds the counter storage, so that the throttler options and the health check share one instance. */
@Module({ providers: [RateLimitStorage], exports: [RateLimitStorage] })
export class RateLimitStorageModule {}

/** Rate limits per API key and per client address (RATE_LIMIT_*), shared through Redis with REDIS_URL. */
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [AppConfig, RateLimitStorage],
      useFactory: (config: AppConfig, storage: RateLimitStorage) => {
        const ttl = config.rateLimit.windowSeconds * 1000;
        return {
          storage,
          throttlers: [
            { name: KEY_LIMIT, ttl, limit: config.rateLimit.perKey },
            { name: IP_LIMIT, ttl, limit: config.rateLimit.perIp },
          ],
        };
      },
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [RateLimitStorageModule],
})
export class ThrottleModule {}
