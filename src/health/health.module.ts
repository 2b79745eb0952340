import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RateLimitStorageModule } from '../rate-limit/rate-limit.module';
import { HealthController } from './health.controller';
import { ShutdownService } from './shutdown.service';

/** /health/live, /health/ready, and the graceful shutdown that turns readiness false. */
@Module({
  // Readiness failures are logged once per change by the controller, not on every probe.
  imports: [TerminusModule.forRoot({ logger: false }), RateLimitStorageModule],
  controllers: [HealthController],
  providers: [ShutdownService],
  exports: [ShutdownService],
})
export class HealthModule {}
