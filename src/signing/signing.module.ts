import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { SigningService } from './signing.service';

/** The service's signing keys (mint networks and CCIP-Read gateway) behind one service. */
@Module({
  imports: [MetricsModule],
  providers: [SigningService],
  exports: [SigningService],
})
export class SigningModule {}
