import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
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
import { PortalModule } from './portal/portal.module';
import { ResolutionModule } from './resolution/resolution.module';
import { SubnamesModule } from './subnames/subnames.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

@Module({})
export class AppModule {
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
}
