import type { NestExpressApplication } from '@nestjs/platform-express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { version } from '../../package.json';
import { controllerApp } from '../../test/support/controller-app';
import { HomeController } from './home.controller';

const DOCS = join(__dirname, '..', '..', 'docs');

describe(HomeController.name, () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await controllerApp([HomeController], []);
  });
  afterAll(() => app.close());

  const get = (path: string, accept?: string) => {
    const req = request(app.getHttpServer()).get(path);
    return accept ? req.set('Accept', accept) : req;
  };

  it('GET /: the HTML page, linking the docs, the portal and each guide; Vary: Accept', async () => {
    for (const accept of ['text/html', undefined]) {
      const res = await get('/', accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.vary).toBe('Accept');
      for (const href of ['/docs', '/portal', '/guides/integrators.md', '/guides/operators.md']) {
        expect(res.text).toContain(`href="${href}"`);
      }
      expect(res.text).toContain(`<small>${version}</small>`);
    }
  });

  it('GET / with Accept: application/json: name, version and where to go, as JSON', async () => {
    const res = await get('/', 'application/json');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Accept');
    expect(res.body).toEqual({ name: 'ENS subname service', version, docs: '/docs', portal: '/portal' });
  });

  it('GET /guides/:file: the guide from docs/ as plain text; any other file is a 404 NOT_FOUND problem', async () => {
    const res = await get('/guides/integrators.md');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(readFileSync(join(DOCS, 'integrators.md'), 'utf8'));
    for (const file of ['README.md', '..%2Fpackage.json']) {
      const missing = await get(`/guides/${file}`);
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(missing.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
    expect((await get('/guides/README.md')).body.detail).toBe('No guide README.md');
  });

  it('outside /api/v1 only, and GET alone: DELETE / is 405 naming GET and HEAD in Allow', async () => {
    expect((await get('/api/v1/guides/integrators.md')).status).toBe(404);
    const res = await request(app.getHttpServer()).delete('/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });
});
