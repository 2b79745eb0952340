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
