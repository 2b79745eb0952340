import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { BODY_LIMIT, jsonReader, readBodyFirst } from './common/http/body-readers';
import { AppConfig, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HoldersModule } from './holders/holders.module';
import { HealthModule } from './health/health.module';
import { HomeModule } from './home/home.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsEndpointModule } from './metrics/metrics.module';
import { ListingsModule } from './listings/listings.module';
import { MintModule } from './mint/mint.module';
import { AdminModule } from './admin/admin.module';
import { PrimaryNamesModule } from './primary-names/primary-names.module';
import { QuotaModule } from './quota/quota.module';
import { PORTAL_API_ROUTE, PortalModule } from './portal/portal.module';
import { ResolutionModule } from './resolution/resolution.module';
import { BATCH_ROUTE } from './subnames/batch-body';
import { SubnamesModule } from './subnames/subnames.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

const BODY_METHODS = [RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE];

@Module({})
export class AppModule implements NestModule {
  /** The composition root; tests pass their own configuration. */
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        RateLimitModule,
        HealthModule,
        MetricsEndpointModule,
        DatabaseModule,
        AuthModule,
        // Express tries routes in the order modules register them: the busiest first.
        ResolutionModule,
        SubnamesModule,
        MintModule,
        QuotaModule,
        AdminModule,
        ListingsModule,
        PrimaryNamesModule,
        HoldersModule,
        PortalModule,
        HomeModule,
      ],
    };
  }

  /**
   * Every route's JSON body, up to 64 KB, read before the guards; the routes whose modules read bodies of their
   * own (after their guards) are left to them. Every module's middleware runs after configureApp's. Only the
   * methods that carry a body: a GET never enters a Nest middleware layer (it cost reads 13 % CPU, bench:compare).
   * One router layer a method, under the prefix: `'*'` would also mount it on each route outside the prefix (45
   * layers, each matched on every request).
   */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(readBodyFirst(jsonReader(BODY_LIMIT)))
      .exclude(BATCH_ROUTE, PORTAL_API_ROUTE)
      .forRoutes(...BODY_METHODS.map((method) => ({ path: ':resource{/*path}', method })));
  }
}
