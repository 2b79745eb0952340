import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MetricsModule } from '../metrics/metrics.module';
import { QuotaController } from './quota.controller';
import { QuotaRepository } from './quota.repository';
import { QuotaService } from './quota.service';

/** Quota accounting and GET /quota. Quota uses auth (the key guard); auth knows nothing of quota. */
@Module({
  imports: [AuthModule, MetricsModule],
  controllers: [QuotaController],
  providers: [QuotaRepository, QuotaService],
  exports: [QuotaService],
})
export class QuotaModule {}
