import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { PortalPageController } from './portal-page.controller';

const file = (name: string) => readFileSync(join(__dirname, 'public', name), 'utf8');

describe(PortalPageController.name, () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await controllerApp([PortalPageController], []);
  });
  afterAll(() => app.close());

  const get = (path: string) => request(app.getHttpServer()).get(path);

  it.each([
    ['/portal', 'index.html', 'text/html; charset=utf-8'],
    ['/portal/claim', 'claim.html', 'text/html; charset=utf-8'],
    ['/portal/portal.js', 'portal.js', 'text/javascript; charset=utf-8'],
    ['/portal/portal.css', 'portal.css', 'text/css; charset=utf-8'],
  ])('GET %s: 200 with %s as %s, outside /api/v1, asked for again each time', async (path, name, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toBe(file(name));
  });

  it("serves the page under the portal's strict content security policy, no inline script or style", async () => {
    const csp = (await get('/portal')).headers['content-security-policy'];
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('a file that is not one of the public files, or a path out of the folder: 404 NOT_FOUND problem', async () => {
    for (const path of ['/portal/missing.js', '/portal/..%2Fportal.module.ts', '/portal/.%2Fportal.js']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
    expect((await get('/api/v1/portal')).status).toBe(404);
  });
});
