import { Module } from '@nestjs/common';
import { ChangeFeedModule } from '../cache/change-feed.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ReadRouter } from './read-router';
import { ReadsRepository } from './reads.repository';

/** One read router per process, for the modules whose public reads may go to a standby. */
@Module({
  imports: [ChangeFeedModule, MetricsModule],
  providers: [ReadRouter, ReadsRepository],
  exports: [ReadRouter],
})
export class ReadsModule {}
