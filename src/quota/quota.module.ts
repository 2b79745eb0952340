import { Module } from '@nestjs/common';
import { QuotaRepository } from './quota.repository';
import { QuotaService } from './quota.service';

/** Quota accounting; the auth module opens a quota per key, the subnames module charges it. */
@Module({
  providers: [QuotaRepository, QuotaService],
  exports: [QuotaService],
})
export class QuotaModule {}
