import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QuotaModule } from '../quota/quota.module';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { KeysService } from './keys.service';

/** Administration of API keys: issue, list, change, revoke. Uses auth (the key store) and quota (the limit). */
@Module({
  imports: [AuthModule, QuotaModule],
  controllers: [AdminApiKeysController],
  providers: [KeysService],
  exports: [KeysService],
})
export class KeysModule {}
