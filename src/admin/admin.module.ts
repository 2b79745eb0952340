import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { AdminAuditController } from './admin-audit.controller';
import { KeysService } from './keys.service';

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
export class AdminModule {}
