import { Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** The application's one Metrics: the modules that count import this module. */
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}

/** GET /metrics: the application's registry, with its pool's gauges. */
@Module({ imports: [MetricsModule], controllers: [MetricsController], providers: [MetricsService] })
export class MetricsEndpointModule {}
