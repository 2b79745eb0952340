import { Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed';

/** One change feed per process, shared by every module that caches (subnames, mint). */
@Module({
  providers: [ChangeFeed],
  exports: [ChangeFeed],
})
export class ChangeFeedModule {}
