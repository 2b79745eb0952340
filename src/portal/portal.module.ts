import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ChainModule } from '../chain/chain.module';
import { BODY_LIMIT, jsonReader } from '../common/http/body-readers';
import { deferBody } from '../common/http/deferred-body';
import { HoldersModule } from '../holders/holders.module';
import { POLICY_BODY_LIMIT } from '../holders/dto/put-policy.dto';
import { QuotaModule } from '../quota/quota.module';
import { ResolutionModule } from '../resolution/resolution.module';
import { SubnamesModule } from '../subnames/subnames.module';
import { KeyOwnershipService } from './key-ownership.service';
import { NameControlService } from './name-control.service';
import { PortalAdminController } from './portal-admin.controller';
import { PortalAdminService } from './portal-admin.service';
import { OperatorGuard, SameOriginGuard, WalletSessionGuard } from './portal-auth';
import { PortalKeysController } from './portal-keys.controller';
import { PortalKeysService } from './portal-keys.service';
import { PortalNamesController } from './portal-names.controller';
import { PortalNamesService } from './portal-names.service';
import { PortalPageController } from './portal-page.controller';
import { PortalPoliciesController } from './portal-policies.controller';
import { PortalPoliciesService } from './portal-policies.service';
import { PortalSessionController } from './portal-session.controller';
import { PortalSessionService } from './portal-session.service';
import { PortalRepository } from './portal.repository';
import { SiweVerifier } from './siwe-verifier';

/** The portal's JSON API reads its bodies itself (the application's reader leaves them alone). */
const PORTAL_API_ROUTE = { path: 'portal/api/{*path}', method: RequestMethod.ALL };
const PORTAL_POLICY_ROUTE = { path: 'portal/api/names/:name/policy', method: RequestMethod.PUT };

/**
 * The developer portal at /portal: a wallet signs in (EIP-4361), proves on chain that it controls parent names,
 * and serves itself keys (admin's KeysService), subnames, holder policies and the resolution status; operators see
 * every key.
 */
@Module({
  imports: [
    AuthModule,
    QuotaModule,
    AuditModule,
    AdminModule,
    SubnamesModule,
    ResolutionModule,
    ChainModule,
    HoldersModule,
  ],
  controllers: [
    PortalPageController,
    PortalSessionController,
    PortalNamesController,
    PortalKeysController,
    PortalAdminController,
    PortalPoliciesController,
  ],
  providers: [
    PortalRepository,
    SiweVerifier,
    PortalSessionService,
    NameControlService,
    PortalNamesService,
    KeyOwnershipService,
    PortalKeysService,
    PortalAdminService,
    PortalPoliciesService,
    SameOriginGuard,
    WalletSessionGuard,
    OperatorGuard,
  ],
})
export class PortalModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Bodies read after the guards (ReadDeferredBody on each controller): the session first (401 before any other
    // check). One router layer for the whole API, not one a route.
    consumer.apply(deferBody(jsonReader(BODY_LIMIT))).forRoutes(PORTAL_API_ROUTE);
    // A policy's allowlist may hold 10,000 addresses: its route's reader, set after the one above, replaces it.
    consumer.apply(deferBody(jsonReader(POLICY_BODY_LIMIT))).forRoutes(PORTAL_POLICY_ROUTE);
  }
}
