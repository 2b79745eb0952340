import type { NestExpressApplication } from '@nestjs/platform-express';
import { TerminusModule } from '@nestjs/terminus';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { controllerApp } from '../../test/support/controller-app';
import { PoolWatch } from '../common/persistence/pool-watch';
import { RateLimitStorage } from '../rate-limit/rate-limit.storage';
import { HealthController } from './health.controller';
import { ShutdownService } from './shutdown.service';

const IN_MEMORY = { status: 'up', storage: 'memory', redis: 'not configured' };

describe(HealthController.name, () => {
  let app: NestExpressApplication;
  const dataSource = { query: jest.fn() };
  const rateLimits = { pingRedis: jest.fn() };
  const shutdown = { draining: false };
  /** Terminus itself is real (the report and its 503); the database, Redis and shutdown state are faked. */
  const healthApp = (env: NodeJS.ProcessEnv = {}) =>
    controllerApp(
      [HealthController],
      [
        { provide: DataSource, useValue: dataSource },
        { provide: RateLimitStorage, useValue: rateLimits },
        { provide: ShutdownService, useValue: shutdown },
        PoolWatch,
      ],
      { env, imports: [TerminusModule.forRoot({ logger: false })] },
    );

  beforeAll(async () => {
    app = await healthApp();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    jest.resetAllMocks();
    shutdown.draining = false;
  });

  const ready = (on = app) => request(on.getHttpServer()).get('/health/ready');
  const report = (status: string, up: object, down: object = {}) => ({
    status,
    info: up,
    error: down,
    details: { ...up, ...down },
  });

  it('GET /health/live: 200, the process up with its uptime, nothing else asked', async () => {
    const res = await request(app.getHttpServer()).get('/health/live');
    expect(res.status).toBe(200);
    const process = { status: 'up', uptimeSeconds: expect.any(Number) };
    expect(res.body).toEqual(report('ok', { process }));
    expect(dataSource.query).not.toHaveBeenCalled();
  });

  it('GET /health/ready: 200 when the database answers SELECT 1; the rate-limit storage in memory without Redis', async () => {
    dataSource.query.mockResolvedValue([{ '?column?': 1 }]);
    const res = await ready();
    expect(res.status).toBe(200);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body).toEqual(report('ok', { database: { status: 'up' }, rateLimitStorage: IN_MEMORY }));
    expect(dataSource.query).toHaveBeenCalledWith('SELECT 1');
    expect(rateLimits.pingRedis).not.toHaveBeenCalled();
  });

  it('GET /health/ready: 503 with Retry-After and the database down when the connection is refused', async () => {
    dataSource.query.mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const res = await ready();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(
      report('error', { rateLimitStorage: IN_MEMORY }, { database: { status: 'down', message: 'unreachable' } }),
    );
  });

  it('GET /health/ready: a ping refused by a busy pool is still ready (the database up, busy)', async () => {
    dataSource.query.mockRejectedValue(Object.assign(new Error('pool wait'), { databaseBusy: true }));
    const res = await ready();
    expect(res.status).toBe(200);
    expect(res.body.details.database).toEqual({ status: 'up', busy: true });
  });

  it('GET /health/ready while shutting down: 503 shutting_down with Retry-After, though every check is up', async () => {
    dataSource.query.mockResolvedValue([]);
    shutdown.draining = true;
    const res = await ready();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(report('shutting_down', { database: { status: 'up' }, rateLimitStorage: IN_MEMORY }));
  });

  it('GET /health/ready with REDIS_URL: Redis reported up or unreachable (memory fallback), ready either way', async () => {
    const withRedis = await healthApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      dataSource.query.mockResolvedValue([]);
      rateLimits.pingRedis.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      const up = await ready(withRedis);
      expect(up.status).toBe(200);
      expect(up.body.details.rateLimitStorage).toEqual({ status: 'up', storage: 'redis', redis: 'up' });
      const fallback = await ready(withRedis);
      expect(fallback.status).toBe(200);
      expect(fallback.body.details.rateLimitStorage).toEqual({
        status: 'up',
        storage: 'memory-fallback',
        redis: 'unreachable',
      });
    } finally {
      await withRedis.close();
    }
  });

  it('is served outside /api/v1 only', async () => {
    for (const path of ['/api/v1/health/live', '/api/v1/health/ready']) {
      const res = await request(app.getHttpServer()).get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });
});
