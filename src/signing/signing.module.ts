import { Module } from '@nestjs/common';
import { SigningService } from './signing.service';

/** The service's signing keys (mint networks and CCIP-Read gateway) behind one service. */
@Module({
  providers: [SigningService],
  exports: [SigningService],
})
export class SigningModule {}
