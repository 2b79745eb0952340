import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
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
import { jsonBody } from '../common/http/body-readers';
import { POLICY_BODY_LIMIT } from './dto/put-policy.dto';

/** The routes that read a JSON body of at most 64 KB (jsonBody): every holder action and its typed data. */
const BODY_ROUTES = [
  { path: 'holder/{*action}', method: RequestMethod.POST },
  { path: 'policies/:parentName', method: RequestMethod.DELETE },
];
/** A policy's allowlist may hold 10,000 addresses. */
const POLICY_ROUTE = { path: 'policies/:parentName', method: RequestMethod.PUT };

@Module({
  imports: [AuthModule, QuotaModule, RateLimitStorageModule, SubnamesModule, PrimaryNamesModule, ChainModule],
  controllers: [PoliciesController, HoldersController],
  providers: [HoldersRepository, PoliciesService, HolderGate, HolderActionsService, HolderNamesService],
  exports: [PoliciesService],
})
export class HoldersModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
    consumer.apply(jsonBody(POLICY_BODY_LIMIT)).forRoutes(POLICY_ROUTE);
  }
}
