import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { AdminAuditController } from './admin-audit.controller';
import { KeysService } from './keys.service';
import { jsonBody } from '../common/http/body-readers';

/** The routes that read a JSON body (jsonBody). */
const BODY_ROUTES = [
  { path: 'admin/api-keys', method: RequestMethod.POST },
  { path: 'admin/api-keys/:id', method: RequestMethod.PATCH },
  { path: 'admin/api-keys/:id/rotate', method: RequestMethod.POST },
  { path: 'admin/api-keys/:id', method: RequestMethod.DELETE },
];

/**
 * Administration of API keys (issue, list, change, rotate, revoke), using auth (the key store), quota (the
 * limit) and audit (the trail); and the audit trail's admin read route.
 */
@Module({
  imports: [AuthModule, QuotaModule, AuditModule],
  controllers: [AdminApiKeysController, AdminAuditController],
  providers: [KeysService],
  exports: [KeysService],
})
export class AdminModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(jsonBody()).forRoutes(...BODY_ROUTES);
  }
}
