import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { AdminListingsController } from './admin-listings.controller';
import { ListingCache } from './listing-cache';
import { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';
import { MintController } from './mint.controller';
import { MintService } from './mint.service';
import { SdkListingsController } from './sdk-listings.controller';

@Module({
  imports: [AuthModule, SigningModule, SubnamesModule, AuditModule, ChangeFeedModule],
  controllers: [AdminListingsController, MintController, SdkListingsController],
  providers: [ListingsRepository, ListingsService, ListingCache, MintService],
})
export class MintModule {}
