import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppConfig, loadConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { MintModule } from './mint/mint.module';
import { QuotaHttpModule } from './quota/quota-http.module';
import { SubnamesModule } from './subnames/subnames.module';

@Module({})
export class AppModule {
  /** The composition root; tests pass their own configuration. */
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule, QuotaHttpModule, SubnamesModule, MintModule],
    };
  }
}
