import { Module } from '@nestjs/common';
import { QuotaModule } from '../quota/quota.module';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { AdminGuard, ApiKeyGuard } from './guards';

@Module({
  imports: [QuotaModule],
  controllers: [AdminApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyGuard, AdminGuard],
  exports: [ApiKeysService, ApiKeyGuard, AdminGuard],
})
export class AuthModule {}
