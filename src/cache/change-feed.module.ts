import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { ChangeFeed } from './change-feed';

/** One change feed per process, shared by every module that caches (subnames, mint). */
@Module({
  imports: [MetricsModule],
  providers: [ChangeFeed],
  exports: [ChangeFeed],
})
export class ChangeFeedModule {}
