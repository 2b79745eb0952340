import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { QuotaModule } from '../quota/quota.module';
import { LegacyParentNamesLedger } from './legacy-parent-names.ledger';
import { LegacyParentNamesRepository } from './legacy-parent-names.repository';
import { SignedWrites } from './signed-writes';
import { SubnameCache } from './subname-cache';
import { SubnamesBatchService } from './subnames-batch.service';
import { SubnamesController } from './subnames.controller';
import { SubnamesRepository } from './subnames.repository';
import { SubnamesService } from './subnames.service';

@Module({
  imports: [AuthModule, QuotaModule, AuditModule, ChangeFeedModule],
  controllers: [SubnamesController],
  providers: [
    SubnamesRepository,
    SubnamesService,
    SubnamesBatchService,
    SubnameCache,
    SignedWrites,
    LegacyParentNamesRepository,
    LegacyParentNamesLedger,
  ],
  exports: [SubnamesService, SignedWrites],
})
export class SubnamesModule {}
