import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { HoldersRepository } from './holders.repository';
import { PoliciesController } from './policies.controller';
import { PoliciesService } from './policies.service';

@Module({
  imports: [AuthModule],
  controllers: [PoliciesController],
  providers: [HoldersRepository, PoliciesService],
  exports: [PoliciesService],
})
export class HoldersModule {}
