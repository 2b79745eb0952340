import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { controllerApp } from '../../test/support/controller-app';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** An application serving /metrics from its own Metrics, over a data source with no pool (as once closed). */
async function metricsApp(): Promise<{ app: NestExpressApplication; metrics: Metrics }> {
  const metrics = new Metrics();
  const service = new MetricsService({ driver: { master: undefined } } as unknown as DataSource, metrics);
  const app = await controllerApp([MetricsController], [{ provide: MetricsService, useValue: service }]);
  return { app, metrics };
}

/** The value of an unlabelled counter in an application's /metrics. */
async function scraped(app: NestExpressApplication, counter: string): Promise<number> {
  const text = (await request(app.getHttpServer()).get('/metrics').expect(200)).text;
  return Number(new RegExp(`^${counter} (\\d+)$`, 'm').exec(text)?.[1]);
}

describe(MetricsController.name, () => {
  let app: NestExpressApplication;
  let metrics: Metrics;

  beforeAll(async () => {
    ({ app, metrics } = await metricsApp());
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  it("GET /metrics: 200 with the registry's exposition text, its Prometheus content type, never cached", async () => {
    const scrape = jest.spyOn(metrics.registry, 'metrics').mockResolvedValue('# TYPE up gauge\nup 1\n');
    const res = await request(app.getHttpServer()).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toBe('# TYPE up gauge\nup 1\n');
    // Express puts its charset before prom-client's version parameter.
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8; version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(scrape).toHaveBeenCalledTimes(1);
  });

  it('GET /metrics serves the live registry: a counter incremented is in the next scrape', async () => {
    const before = await scraped(app, 'subname_quota_refusals_total');
    metrics.quotaRefusals.inc();
    expect(await scraped(app, 'subname_quota_refusals_total')).toBe(before + 1);
  });

  it("two applications in one process count apart: one's counts are not in the other's scrape", async () => {
    const other = await metricsApp();
    try {
      const mine = await scraped(app, 'subname_quota_refusals_total');
      metrics.quotaRefusals.inc(3);
      other.metrics.quotaRefusals.inc(5);
      other.metrics.ccipSignaturesMade.inc();
      expect(await scraped(other.app, 'subname_quota_refusals_total')).toBe(5);
      expect(await scraped(other.app, 'ccip_signatures_total')).toBe(1);
      expect(await scraped(app, 'ccip_signatures_total')).toBe(0);
      expect(await scraped(app, 'subname_quota_refusals_total')).toBe(mine + 3);
    } finally {
      await other.app.close();
    }
  });

  it('is served outside /api/v1 only: /api/v1/metrics is a 404 problem', async () => {
    const res = await request(app.getHttpServer()).get('/api/v1/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', detail: 'No route: GET /api/v1/metrics' });
  });
});
