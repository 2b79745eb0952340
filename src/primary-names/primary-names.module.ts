import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ChainModule } from '../chain/chain.module';
import { AuditModule } from '../audit/audit.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ReadsModule } from '../reads/reads.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { PrimaryNameCache } from './primary-name-cache';
import { PrimaryNameEndingsModule } from './stored-primary-name-endings';
import { PrimaryNamesController } from './primary-names.controller';
import { PrimaryNamesRepository } from './primary-names.repository';
import { PrimaryNamesService } from './primary-names.service';
import { jsonBody } from '../common/http/body-readers';

/** The routes that read a JSON body (jsonBody). */
const BODY_ROUTES = [{ path: 'primary-names', method: RequestMethod.POST }];

@Module({
  imports: [
    ChainModule,
    SubnamesModule,
    AuditModule,
    ChangeFeedModule,
    PrimaryNameEndingsModule,
    ReadsModule,
    MetricsModule,
  ],
  controllers: [PrimaryNamesController],
  providers: [PrimaryNamesRepository, PrimaryNamesService, PrimaryNameCache],
  exports: [PrimaryNamesService],
})
export class PrimaryNamesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
  }
}
