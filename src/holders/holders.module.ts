import { Module } from '@nestjs/common';
import { ChainModule } from '../chain/chain.module';
import { AuthModule } from '../auth/auth.module';
import { PrimaryNamesModule } from '../primary-names/primary-names.module';
import { QuotaModule } from '../quota/quota.module';
import { RateLimitStorageModule } from '../rate-limit/rate-limit.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { HolderActionsService } from './holder-actions.service';
import { HolderGate } from './holder-gate';
import { HolderNamesService } from './holder-names.service';
import { HoldersController } from './holders.controller';
import { HoldersRepository } from './holders.repository';
import { PoliciesController } from './policies.controller';
import { PoliciesService } from './policies.service';

@Module({
  imports: [AuthModule, QuotaModule, RateLimitStorageModule, SubnamesModule, PrimaryNamesModule, ChainModule],
  controllers: [PoliciesController, HoldersController],
  providers: [HoldersRepository, PoliciesService, HolderGate, HolderActionsService, HolderNamesService],
  exports: [PoliciesService],
})
export class HoldersModule {}
