import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaController } from './quota.controller';
import { QuotaModule } from './quota.module';

/** GET /quota: kept apart from QuotaModule because it needs the auth guard, and auth needs QuotaModule. */
@Module({ imports: [AuthModule, QuotaModule], controllers: [QuotaController] })
export class QuotaHttpModule {}
