import { Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { AdminGuard, ApiKeyGuard } from './guards';

/** Who is calling: the key store, the key guard and the admin guard. It depends on no feature module. */
@Module({
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyGuard, AdminGuard],
  exports: [ApiKeysService, ApiKeyGuard, AdminGuard],
})
export class AuthModule {}
