import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaController } from './quota.controller';
import { QuotaRepository } from './quota.repository';
import { QuotaService } from './quota.service';

/** Quota accounting and GET /quota. Quota uses auth (the key guard); auth knows nothing of quota. */
@Module({
  imports: [AuthModule],
  controllers: [QuotaController],
  providers: [QuotaRepository, QuotaService],
  exports: [QuotaService],
})
export class QuotaModule {}
