import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { HolderSignature } from './holder-signature';
import { PrimaryNameCache } from './primary-name-cache';
import { PrimaryNameEndingsModule } from './stored-primary-name-endings';
import { PrimaryNamesController } from './primary-names.controller';
import { PrimaryNamesRepository } from './primary-names.repository';
import { PrimaryNamesService } from './primary-names.service';

@Module({
  imports: [SubnamesModule, AuditModule, ChangeFeedModule, PrimaryNameEndingsModule],
  controllers: [PrimaryNamesController],
  providers: [PrimaryNamesRepository, PrimaryNamesService, PrimaryNameCache, HolderSignature],
  exports: [PrimaryNamesService, HolderSignature],
})
export class PrimaryNamesModule {}
