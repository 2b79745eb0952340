import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { ChainModule } from '../chain/chain.module';
import { PrimaryNamesModule } from '../primary-names/primary-names.module';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { AnswerPurger } from './answer-purger';
import { ResolutionStatusController } from './resolution-status.controller';
import { ResolutionStatusService } from './resolution-status.service';
import { ResolutionController } from './resolution.controller';
import { CCIP_READ_PATH, ResolutionService } from './resolution.service';
import { jsonBody } from '../common/http/body-readers';

/** The gateway's POST form reads a body; its GET form, every wallet's lookup, passes no body reader's layer. */
const BODY_ROUTES = [{ path: CCIP_READ_PATH, method: RequestMethod.POST }];

/** The gateway's CORS (any origin) is applied by app.setup.ts, with the middleware every request passes. */
@Module({
  imports: [SigningModule, SubnamesModule, ChainModule, PrimaryNamesModule, ChangeFeedModule],
  controllers: [ResolutionController, ResolutionStatusController],
  providers: [ResolutionService, ResolutionStatusService, AnswerPurger],
  exports: [ResolutionStatusService],
})
export class ResolutionModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
  }
}
