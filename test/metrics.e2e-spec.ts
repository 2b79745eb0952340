import request from 'supertest';
import { metricSample } from './support/metrics-sample';
import { createTestApp, TestApp } from './support/test-app';

describe('GET /metrics', () => {
  let t: TestApp;
  const scrape = async () => (await request(t.http).get('/metrics').expect(200)).text;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is Prometheus text outside /api/v1, with process metrics and the pool gauges', async () => {
    const res = await request(t.http).get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['content-type']).toContain('version=0.0.4');
    await request(t.http).get('/api/v1/metrics').expect(404);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(res.text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(res.text).toContain('# TYPE db_pool_connections gauge');
    expect(res.text).toMatch(/^db_pool_connections\{state="in_use"\} \d+$/m);
    expect(res.text).toMatch(/^db_pool_connections\{state="idle"\} \d+$/m);
    expect(res.text).toMatch(/^db_pool_waiting_requests \d+$/m);
    // The test app's pool has opened a connection (the reset, the read below). The read wakes the change feed,
    // whose probe may hold that connection at the scrape (longer on the embedded database): in use, then idle.
    await request(t.http).get('/api/v1/subnames/warm.oak.eth').expect(404);
    const gauges = (text: string) => ({
      inUse: metricSample(text, 'db_pool_connections', { state: 'in_use' }),
      idle: metricSample(text, 'db_pool_connections', { state: 'idle' }),
    });
    const first = gauges(await scrape());
    expect(first.inUse + first.idle).toBeGreaterThan(0);
    let settled = first;
    for (const until = Date.now() + 5_000; settled.idle === 0 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 50));
      settled = gauges(await scrape());
    }
    expect(settled.idle).toBeGreaterThan(0);
  });

  it('counts requests by method, route template and status, and times them', async () => {
    const route = '/api/v1/subnames/:fullName';
    const labels = { method: 'GET', route, status: '404' };
    const before = await scrape();
    for (const name of ['ann', 'bea', 'cid']) await request(t.http).get(`/api/v1/subnames/${name}.oak.eth`).expect(404);
    await request(t.http).get('/api/v1/subnames/oak.eth').expect(400);
    const after = await scrape();

    expect(
      metricSample(after, 'http_requests_total', labels) - metricSample(before, 'http_requests_total', labels),
    ).toBe(3);
    expect(
      metricSample(after, 'http_requests_total', { method: 'GET', route, status: '400' }) -
        metricSample(before, 'http_requests_total', { method: 'GET', route, status: '400' }),
    ).toBe(1);
    expect(
      metricSample(after, 'http_request_duration_seconds_count', labels) -
        metricSample(before, 'http_request_duration_seconds_count', labels),
    ).toBe(3);
    expect(
      metricSample(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBeGreaterThanOrEqual(3);
    // Templates only: no raw name ever becomes a label.
    expect(after).not.toContain('ann.oak.eth');
    expect(after).not.toContain('bea');
  });

  it('labels unknown paths and bodies refused before routing as unmatched', async () => {
    const unmatched404 = { method: 'GET', route: 'unmatched', status: '404' };
    const before = metricSample(await scrape(), 'http_requests_total', unmatched404);
    await request(t.http).get('/api/v1/no/such/thing/42').expect(404);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ texts: 'x'.repeat(70_000) }))
      .expect(413);
    const text = await scrape();
    expect(metricSample(text, 'http_requests_total', unmatched404) - before).toBe(1);
    expect(metricSample(text, 'http_requests_total', { method: 'POST', route: 'unmatched', status: '413' })).toBe(1);
    expect(text).not.toContain('/no/such/thing');
  });

  it('counts quota refusals and rate-limit refusals', async () => {
    const { key } = await t.issueKey(['pine.eth'], 1);
    const before = metricSample(await scrape(), 'subname_quota_refusals_total');
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'pine.eth', label: 'a' })
      .expect(201);
    const refused = await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'pine.eth', label: 'b' })
      .expect(403);
    expect(refused.body.code).toBe('QUOTA_EXCEEDED');
    const after = await scrape();
    expect(metricSample(after, 'subname_quota_refusals_total') - before).toBe(1);
    expect(
      metricSample(after, 'http_requests_total', { method: 'POST', route: '/api/v1/subnames', status: '403' }),
    ).toBe(1);
    expect(after).toContain('# TYPE mint_signatures_total counter');
    expect(after).toMatch(/^http_requests_in_flight 1$/m);
    expect(after).toMatch(/^rate_limit_redis_up 0$/m);
  });
});

describe('GET /metrics: rate-limit refusals', () => {
  it('counts 429s by the budget that ran out', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_IP: '1' });
    try {
      await request(t.http).get('/api/v1/subnames/x.oak.eth').expect(404);
      await request(t.http).get('/api/v1/subnames/x.oak.eth').expect(429);
      await request(t.http).get('/api/v1/subnames/x.oak.eth').expect(429);
      const text = (await request(t.http).get('/metrics').expect(200)).text;
      expect(metricSample(text, 'http_rate_limited_total', { limit: 'ip' })).toBe(2);
      expect(
        metricSample(text, 'http_requests_total', {
          method: 'GET',
          route: '/api/v1/subnames/:fullName',
          status: '429',
        }),
      ).toBe(2);
    } finally {
      await t.close();
    }
  });
});
