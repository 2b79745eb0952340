import { Module } from '@nestjs/common';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { ChainModule } from '../chain/chain.module';
import { PrimaryNamesModule } from '../primary-names/primary-names.module';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { AnswerPurger } from './answer-purger';
import { ResolutionStatusController } from './resolution-status.controller';
import { ResolutionStatusService } from './resolution-status.service';
import { ResolutionController } from './resolution.controller';
import { ResolutionService } from './resolution.service';

/** The gateway's CORS (any origin) is applied by app.setup.ts, with the middleware every request passes. */
@Module({
  imports: [SigningModule, SubnamesModule, ChainModule, PrimaryNamesModule, ChangeFeedModule],
  controllers: [ResolutionController, ResolutionStatusController],
  providers: [ResolutionService, ResolutionStatusService, AnswerPurger],
  exports: [ResolutionStatusService],
})
export class ResolutionModule {}
