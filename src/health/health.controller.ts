import { Controller, Get, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { isDatabaseBusy } from '../common/persistence/database-errors';
import { PoolWatch } from '../common/persistence/pool-watch';
import type { Response } from 'express';
import { AppConfig } from '../config/app-config';
import { RateLimitStorage } from '../rate-limit/rate-limit.storage';
import { NoRateLimit } from '../common/http/no-rate-limit.decorator';
import { probeDatabase } from './database-probe';
import { HealthResponse, NOT_READY_EXAMPLES } from './health.dto';
import { ShutdownService } from './shutdown.service';

const DATABASE_PING_TIMEOUT_MS = 2_000;

@ApiTags('operations')
@NoRateLimit()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');
  private wasReady?: boolean;

  constructor(
    private readonly health: HealthCheckService,
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
    private readonly rateLimits: RateLimitStorage,
    private readonly shutdown: ShutdownService,
    private readonly config: AppConfig,
    private readonly poolWatch: PoolWatch,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP (no dependency is checked)' })
  @ApiOkResponse({ type: HealthResponse, description: 'Alive' })
  live(): HealthCheckResult {
    const process = { status: 'up' as const, uptimeSeconds: Math.round(globalThis.process.uptime()) };
    return { status: 'ok', info: { process }, error: {}, details: { process } };
  }

  @Get('ready')
  @ApiOperation({
    summary:
      'Readiness: the database answers within 2 s and the process is not shutting down. The rate-limit ' +
      'storage is reported (Redis, or the in-process fallback while Redis is unreachable) but never fails it.',
  })
  @ApiOkResponse({ type: HealthResponse, description: 'Ready: route traffic here' })
  @ApiServiceUnavailableResponse({
    type: HealthResponse,
    description: 'Database unreachable, or shutting down (Retry-After: 5)',
    examples: NOT_READY_EXAMPLES,
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.databaseCheck(), () => this.rateLimitStorage()]);
      if (this.shutdown.draining) result = { ...result, status: 'shutting_down' };
    } catch (e) {
      if (!(e instanceof ServiceUnavailableException)) throw e;
      result = e.getResponse() as HealthCheckResult;
    }
    const ready = result.status === 'ok';
    if (!ready) {
      res.status(503);
      res.setHeader('Retry-After', '5');
    }
    if (this.wasReady !== undefined && ready !== this.wasReady) {
      const message = `readiness ${ready ? 'restored' : `lost (${result.status})`}: ${JSON.stringify(result.details)}`;
      if (ready) this.logger.log(message);
      else this.logger.warn(message);
    }
    this.wasReady = ready;
    return result;
  }

  /**
   * The database answers a ping within 2 s. A ping that waited behind a pool whose connections kept coming back
   * met a busy service, not an unreachable database: still ready (saturation is answered SERVICE_BUSY per
   * request; taking the replica out of rotation would only move its load). A refused connection is down.
   */
  private async databaseCheck() {
    const check = this.indicators.check('database');
    const outcome = await probeDatabase(
      () => this.dataSource.query('SELECT 1'),
      this.poolWatch,
      isDatabaseBusy,
      DATABASE_PING_TIMEOUT_MS,
    );
    if (outcome === 'up') return check.up();
    if (outcome === 'busy') return check.up({ busy: true });
    return check.down({ message: outcome === 'timeout' ? 'timeout exceeded' : 'unreachable' });
  }

  private async rateLimitStorage() {
    const check = this.indicators.check('rateLimitStorage');
    if (!this.config.redisUrl) return check.up({ storage: 'memory', redis: 'not configured' });
    const reachable = await this.rateLimits.pingRedis();
    // Up either way: without Redis the limits are counted per replica, which is degraded, not unavailable.
    return check.up({ storage: reachable ? 'redis' : 'memory-fallback', redis: reachable ? 'up' : 'unreachable' });
  }
}
