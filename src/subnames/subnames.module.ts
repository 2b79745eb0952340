import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { MetricsModule } from '../metrics/metrics.module';
import { QuotaModule } from '../quota/quota.module';
import { ReadsModule } from '../reads/reads.module';
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

@Module({
  imports: [AuthModule, QuotaModule, AuditModule, ChangeFeedModule, ReadsModule, MetricsModule],
  controllers: [SubnamesController],
  providers: [SubnamesRepository, SubnamesService, SubnamesBatchService, SubnameCache, SignedWrites, ExportPreambles],
  exports: [SubnamesService, SignedWrites, ExportPreambles],
})
export class SubnamesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(addressKeys).forRoutes(SUBNAMES_ROUTES);
    consumer.apply(batchBody()).forRoutes(BATCH_ROUTE);
  }
}
