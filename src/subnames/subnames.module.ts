import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { SubnameCache } from './subname-cache';
import { SubnameChanges } from './subname-changes';
import { SubnamesController } from './subnames.controller';
import { SubnamesRepository } from './subnames.repository';
import { SubnamesService } from './subnames.service';

@Module({
  imports: [AuthModule, QuotaModule, AuditModule],
  controllers: [SubnamesController],
  providers: [SubnamesRepository, SubnamesService, SubnameCache, SubnameChanges],
  exports: [SubnamesService],
})
export class SubnamesModule {}
