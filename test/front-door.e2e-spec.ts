import request from 'supertest';
import { version } from '../package.json';
import { startServiceProcess } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';

describe('what a person meets first (CONTRACT section 17)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /', () => {
    it('answers a short HTML page linking /docs, /portal and the guides', async () => {
      const res = await request(t.http).get('/').set('Accept', 'text/html').expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('href="/docs"');
      expect(res.text).toContain('href="/portal"');
      expect(res.text).toContain('href="/guides/integrators.md"');
      expect(res.text).toContain('href="/guides/operators.md"');
    });

    it('answers {name, version, docs, portal} for Accept: application/json', async () => {
      const res = await request(t.http).get('/').set('Accept', 'application/json').expect(200);
      expect(res.body).toEqual({ name: 'ENS subname service', version, docs: '/docs', portal: '/portal' });
    });

    it('serves the guides it links, and 404 for any other file', async () => {
      const res = await request(t.http).get('/guides/integrators.md').expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text.split('\n')[0]).toBe("# Integrators' guide");
      const missing = await request(t.http).get('/guides/..%2Fpackage.json').expect(404);
      expect(missing.body.code).toBe('NOT_FOUND');
    });
  });

  describe('errors a client can act on', () => {
    it('a body that is not application/json is 415 UNSUPPORTED_MEDIA_TYPE, whatever its text', async () => {
      const key = (await t.issueKey(['oak.eth'])).key;
      const body = JSON.stringify({ parentName: 'oak.eth', label: 'plain' });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await request(t.http)
          .post('/api/v1/subnames')
          .set('x-auth-token', key)
          .set('Content-Type', type)
          .send(body)
          .expect(415);
        expect([res.body.code, res.body.status]).toEqual(['UNSUPPORTED_MEDIA_TYPE', 415]);
        expect(res.body.detail).toBe(`The request body must be application/json, not ${type.split(';')[0]}`);
      }
      await request(t.http).get('/api/v1/subnames/plain.oak.eth').expect(404);
      const json = await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(body);
      expect(json.status).toBe(201);
    });

    it('a known path with a method it lacks is 405 METHOD_NOT_ALLOWED with Allow; an unknown path stays 404', async () => {
      const quota = await request(t.http).put('/api/v1/quota').expect(405);
      expect(quota.headers.allow).toBe('GET, HEAD');
      expect(quota.body.code).toBe('METHOD_NOT_ALLOWED');
      const home = await request(t.http).delete('/').expect(405);
      expect(home.headers.allow).toBe('GET, HEAD');
      const subname = await request(t.http).post('/api/v1/subnames/alice.oak.eth').expect(405);
      expect(subname.headers.allow).toBe('DELETE, GET, HEAD');
      const missing = await request(t.http).get('/api/v1/no-such-route').expect(404);
      expect(missing.body.code).toBe('NOT_FOUND');
    });

    it('a field of the wrong type gets one message saying the type wanted', async () => {
      const key = (await t.issueKey(['oak.eth'])).key;
      const res = await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'oak.eth', label: 'typed', ttl: '3600', texts: 'x' })
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'texts', message: 'must be an array' },
        { field: 'ttl', message: 'must be an integer number' },
      ]);
    });
  });
});

describe('the start-up log', () => {
  it('ends with one plain line: URL, database kind, admin routes off and why, /docs, /portal', async () => {
    const svc = await startServiceProcess({ ADMIN_TOKEN: undefined, LOG_LEVEL: 'info', PUBLIC_URL: undefined });
    try {
      const out = await svc.outputContaining('| portal: ');
      const lines = out.trimEnd().split('\n');
      const last = lines[lines.length - 1];
      const url = `http://localhost:${svc.port}`;
      expect(last).toBe(
        `Ready: ${url} | database: PostgreSQL at ${new URL(process.env.TEST_DATABASE_URL!).host}` +
          `${new URL(process.env.TEST_DATABASE_URL!).pathname} | admin routes: off (ADMIN_TOKEN unset) | ` +
          `API docs: ${url}/docs | portal: ${url}/portal`,
      );
      expect(lines.filter((l) => l.startsWith('Ready: '))).toHaveLength(1);
      expect(lines[lines.length - 2].startsWith('{')).toBe(true);
    } finally {
      await svc.stop();
    }
  });
});
