import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { MetricsModule } from '../metrics/metrics.module';
import { QuotaModule } from '../quota/quota.module';
import { ReadsModule } from '../reads/reads.module';
import { jsonBody } from '../common/http/body-readers';
import { addressKeys } from './address-keys';
import { BATCH_ROUTE, batchBody } from './batch-body';
import { ExportPreambles } from './export-preambles';
import { SignedWrites } from './signed-writes';
import { SubnameCache } from './subname-cache';
import { SubnamesBatchService } from './subnames-batch.service';
import { SubnamesController } from './subnames.controller';
import { SubnamesRepository } from './subnames.repository';
import { SubnamesService } from './subnames.service';

/** Every subnames route, as one router layer (a layer per route is matched on every request the router sees). */
const SUBNAMES_ROUTES = { path: 'subnames{/*path}', method: RequestMethod.ALL };
/** The routes that read a JSON body of at most 64 KB (jsonBody); the batch reads its own, after its guards. */
const BODY_ROUTES = [
  { path: 'subnames', method: RequestMethod.POST },
  { path: 'subnames/search', method: RequestMethod.POST },
  { path: 'subnames/:fullName', method: RequestMethod.DELETE },
];

@Module({
  imports: [AuthModule, QuotaModule, AuditModule, ChangeFeedModule, ReadsModule, MetricsModule],
  controllers: [SubnamesController],
  providers: [SubnamesRepository, SubnamesService, SubnamesBatchService, SubnameCache, SignedWrites, ExportPreambles],
  exports: [SubnamesService, SignedWrites, ExportPreambles],
})
export class SubnamesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
    consumer.apply(addressKeys).forRoutes(SUBNAMES_ROUTES);
    consumer.apply(batchBody()).forRoutes(BATCH_ROUTE);
  }
}
