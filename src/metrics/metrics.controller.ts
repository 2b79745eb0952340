import { Controller, Get, Header } from '@nestjs/common';
import { Registry } from 'prom-client';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { NoRateLimit } from '../common/http/no-rate-limit.decorator';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@NoRateLimit()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (served outside /api/v1; for the scraper, not for the gateway to expose)',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', schema: { type: 'string' } })
  scrape(): Promise<string> {
    return this.metrics.scrape();
  }
}
