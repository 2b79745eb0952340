import request from 'supertest';
import { ShutdownService } from '../src/health/shutdown.service';
import { createTestApp, TestApp } from './support/test-app';

describe('health, security headers, CORS, body limit (in process)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('health', () => {
    it('GET /health/live: the process, outside /api/v1', async () => {
      const res = await request(t.http).get('/health/live').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        info: { process: { status: 'up', uptimeSeconds: expect.any(Number) } },
        error: {},
        details: { process: { status: 'up', uptimeSeconds: expect.any(Number) } },
      });
      await request(t.http).get('/api/v1/health/live').expect(404);
    });

    it('GET /health/ready: the database, and the rate-limit storage (in process without REDIS_URL)', async () => {
      const res = await request(t.http).get('/health/ready').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        info: {
          database: { status: 'up' },
          rateLimitStorage: { status: 'up', storage: 'memory', redis: 'not configured' },
        },
        error: {},
        details: {
          database: { status: 'up' },
          rateLimitStorage: { status: 'up', storage: 'memory', redis: 'not configured' },
        },
      });
      await request(t.http).get('/api/v1/health/ready').expect(404);
    });

    it('both are in the OpenAPI document, at their unprefixed paths', async () => {
      const doc = (await request(t.http).get('/docs-json').expect(200)).body as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready', '/metrics']));
    });
  });

  describe('security headers', () => {
    it('API answers carry helmet headers and a policy that allows nothing; no x-powered-by', async () => {
      const res = await request(t.http).get('/api/v1/subnames/nobody.oak.eth').expect(404);
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('Swagger UI still loads: its page, scripts and document are served under a policy that allows them', async () => {
      const page = await request(t.http).get('/docs').expect(200);
      expect(page.text).toContain('swagger-ui');
      const csp = page.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' https: 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      // Every script the page loads is same-origin, so script-src 'self' admits it.
      const assets = [...page.text.matchAll(/<(?:script src|link rel="stylesheet" type="text\/css" href)="([^"]+)"/g)];
      expect(assets.length).toBe(4);
      for (const [, src] of assets) {
        expect(src).not.toMatch(/^https?:/);
        const asset = await request(t.http).get(new URL(src, 'http://host/docs').pathname).expect(200);
        expect(asset.headers['content-security-policy']).toBe(csp);
      }
      expect(page.text).not.toMatch(/<script>[^<]/);
      const doc = await request(t.http).get('/docs-json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
    });
  });

  describe('CORS', () => {
    it('is off without CORS_ORIGIN: no Access-Control-Allow-Origin for any origin', async () => {
      const res = await request(t.http).get('/api/v1/subnames/nobody.oak.eth').set('origin', 'https://app.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await request(t.http)
        .options('/api/v1/subnames')
        .set('origin', 'https://app.example')
        .set('access-control-request-method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('with CORS_ORIGIN, allows exactly the listed origins', async () => {
      const cors = await createTestApp({ CORS_ORIGIN: 'https://app.example, https://admin.example' }, { reset: false });
      try {
        const ok = await request(cors.http)
          .get('/api/v1/subnames/nobody.oak.eth')
          .set('origin', 'https://admin.example');
        expect(ok.headers['access-control-allow-origin']).toBe('https://admin.example');
        const other = await request(cors.http)
          .get('/api/v1/subnames/nobody.oak.eth')
          .set('origin', 'https://evil.example');
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
        // A refused body still carries the header, so a browser can read the problem.
        const big = await request(cors.http)
          .post('/api/v1/subnames')
          .set('origin', 'https://app.example')
          .set('content-type', 'application/json')
          .send(JSON.stringify({ a: 'x'.repeat(70_000) }))
          .expect(413);
        expect(big.headers['access-control-allow-origin']).toBe('https://app.example');
      } finally {
        await cors.close();
      }
    });
  });

  describe('bodies and errors', () => {
    it('a JSON body over 64 KB is 413 PAYLOAD_TOO_LARGE; just under it is read', async () => {
      const over = await request(t.http)
        .post('/api/v1/subnames/search')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ parentName: 'oak.eth', labelSearch: 'x'.repeat(65 * 1024) }))
        .expect(413);
      expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
      expect(over.headers['content-type']).toContain('application/problem+json');
      const under = await request(t.http)
        .post('/api/v1/subnames/search')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ parentName: 'oak.eth', labelSearch: 'x'.repeat(60 * 1024) }));
      expect(under.status).toBe(400); // read and validated (labelSearch is too long), not refused unread
      expect(under.body.code).toBe('VALIDATION_FAILED');
    });

    it('no answer carries a stack trace or SQL', async () => {
      const answers = await Promise.all([
        request(t.http).post('/api/v1/subnames').set('content-type', 'application/json').send('{"a":'),
        request(t.http).get('/api/v1/subnames/%E0%A4%A'),
        request(t.http).post('/api/v1/subnames/search').send({ parentName: 'oak.eth', page: -1 }),
        request(t.http).get('/api/v1/nothing'),
      ]);
      for (const res of answers) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.text).not.toMatch(/\bat [\w.<>]+ \(|SyntaxError|node_modules|SELECT|INSERT|QueryFailedError/);
      }
    });

    it('x-request-id: a sane one is kept and returned, anything else is replaced by a UUID', async () => {
      const kept = await request(t.http).get('/health/live').set('x-request-id', 'gw-7f3a:01').expect(200);
      expect(kept.headers['x-request-id']).toBe('gw-7f3a:01');
      const replaced = await request(t.http).get('/health/live').set('x-request-id', 'a b"c').expect(200);
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('readiness during shutdown', () => {
    it('turns false (503 shutting_down, Retry-After) as soon as shutdown begins; liveness stays true', async () => {
      const app = await createTestApp({}, { reset: false });
      try {
        await request(app.http).get('/health/ready').expect(200);
        app.app.get(ShutdownService).beginDraining();
        const res = await request(app.http).get('/health/ready').expect(503);
        expect(res.body.status).toBe('shutting_down');
        expect(res.headers['retry-after']).toBe('5');
        expect(res.headers['connection']).toBe('close');
        await request(app.http).get('/health/live').expect(200);
      } finally {
        await app.close();
      }
    });
  });
});
