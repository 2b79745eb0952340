import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ListingsModule } from '../listings/listings.module';
import { SigningModule } from '../signing/signing.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { MintController } from './mint.controller';
import { MintService } from './mint.service';
import { jsonBody } from '../common/http/body-readers';

/** The routes that read a JSON body (jsonBody). */
const BODY_ROUTES = ['mint', 'minting-parameters'].map((path) => ({ path, method: RequestMethod.POST }));

/** Signed mint parameters for the Namespace MintController, priced by the parent's listing. */
@Module({
  imports: [SigningModule, SubnamesModule, ListingsModule],
  controllers: [MintController],
  providers: [MintService],
})
export class MintModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
  }
}
