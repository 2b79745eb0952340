import { Module } from '@nestjs/common';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * The audit trail's store. Its admin route (GET /admin/audit) lives in keys/, above auth, where the admin
 * guard is: this module sits low so that every module that writes can record.
 */
@Module({
  providers: [AuditRepository, AuditService],
  exports: [AuditService],
})
export class AuditModule {}
