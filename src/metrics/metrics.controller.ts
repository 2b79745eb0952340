import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { NoRateLimit } from '../common/http/no-rate-limit.decorator';
import { registry } from './metrics';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@NoRateLimit()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', registry.contentType)
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
