import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { controllerApp } from '../../test/support/controller-app';
import { quotaRefusals, registry } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

describe(MetricsController.name, () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    // The real service over a data source with no pool (as once closed): the pool gauges are left unset.
    const metrics = new MetricsService({ driver: { master: undefined } } as unknown as DataSource);
    app = await controllerApp([MetricsController], [{ provide: MetricsService, useValue: metrics }]);
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  it("GET /metrics: 200 with the registry's exposition text, its Prometheus content type, never cached", async () => {
    const scrape = jest.spyOn(registry, 'metrics').mockResolvedValue('# TYPE up gauge\nup 1\n');
    const res = await request(app.getHttpServer()).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toBe('# TYPE up gauge\nup 1\n');
    // Express puts its charset before prom-client's version parameter.
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8; version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(scrape).toHaveBeenCalledTimes(1);
  });

  it('GET /metrics serves the live registry: a counter incremented is in the next scrape', async () => {
    const read = async () => {
      const text = (await request(app.getHttpServer()).get('/metrics').expect(200)).text;
      return Number(/^subname_quota_refusals_total (\d+)$/m.exec(text)?.[1]);
    };
    const before = await read();
    quotaRefusals.inc();
    expect(await read()).toBe(before + 1);
  });

  it('is served outside /api/v1 only: /api/v1/metrics is a 404 problem', async () => {
    const res = await request(app.getHttpServer()).get('/api/v1/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', detail: 'No route: GET /api/v1/metrics' });
  });
});
