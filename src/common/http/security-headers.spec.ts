import express, { RequestHandler } from 'express';
import helmet, { HelmetOptions } from 'helmet';
import request from 'supertest';
import { recordHeaders, SECURITY_POLICIES, securityHeaders } from './security-headers';

/** The headers an Express app answers with when `middleware` runs before a route that answers JSON. */
async function headersWith(middleware: RequestHandler, path: string): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/{*path}', (_req, res) => {
    res.setHeader('X-Powered-By', 'set by a route');
    res.json({ ok: true });
  });
  const res = await request(app).get(path);
  const { date: _date, ...headers } = res.headers as Record<string, string>;
  return headers;
}

describe('securityHeaders: helmet computed once', () => {
  const policies: Record<string, HelmetOptions> = {
    ...SECURITY_POLICIES,
    defaults: {},
    strict: { hsts: { maxAge: 1, includeSubDomains: false }, referrerPolicy: { policy: ['no-referrer', 'origin'] } },
    fewer: { xFrameOptions: false, contentSecurityPolicy: false, crossOriginEmbedderPolicy: true },
  };

  it.each(Object.keys(policies))('answers exactly the headers helmet answers (%s policy)', async (name) => {
    const ours = securityHeaders(policies, () => name);
    for (const path of ['/api/v1/subnames/a.oak.eth', '/docs/']) {
      expect(await headersWith(ours, path)).toEqual(await headersWith(helmet(policies[name]), path));
    }
  });

  it('picks the policy per request', async () => {
    const ours = securityHeaders(SECURITY_POLICIES, (req) => (req.path.startsWith('/docs') ? 'docs' : 'api'));
    const api = await headersWith(ours, '/api/v1/quota');
    const docs = await headersWith(ours, '/docs/');
    expect(api['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(docs['content-security-policy']).toContain("script-src 'self'");
    expect(docs['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('records what a middleware sets and removes, and refuses one that does not finish at once', () => {
    const plan = recordHeaders((_req, res, next) => {
      res.setHeader('a', 1);
      res.setHeader('b', ['x', 'y']);
      res.removeHeader('c');
      next();
    });
    expect(plan).toEqual({
      set: [
        ['a', '1'],
        ['b', ['x', 'y']],
      ],
      remove: ['c'],
    });
    expect(() => recordHeaders(() => undefined)).toThrow('did not finish synchronously');
  });
});
