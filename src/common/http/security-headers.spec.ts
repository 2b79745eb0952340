import express, { RequestHandler } from 'express';
import request from 'supertest';
import { PORTAL_SECURITY_POLICY } from '../../portal/portal-http';
import { SECURITY_POLICIES, securityHeaders } from './security-headers';

/** The headers an Express app answers with when `middleware` runs before a route that answers JSON. */
async function headersWith(middleware: RequestHandler, path: string): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/{*path}', (_req, res) => {
    res.json({ ok: true });
  });
  const res = await request(app).get(path);
  const {
    date: _d,
    connection: _c,
    etag: _e,
    'content-type': _t,
    'content-length': _l,
    ...headers
  } = res.headers as Record<string, string>;
  return headers;
}

/** What every answer carries, whatever its policy (the set the service has always sent). */
const EVERY_ANSWER = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe(securityHeaders.name, () => {
  const ours = securityHeaders({ ...SECURITY_POLICIES, portal: PORTAL_SECURITY_POLICY }, (req) =>
    req.path.startsWith('/docs') ? 'docs' : req.path.startsWith('/portal') ? 'portal' : 'api',
  );

  it.each([
    ['/api/v1/quota', "default-src 'none';frame-ancestors 'none'"],
    [
      '/docs/',
      "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
        "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';" +
        "style-src 'self' https: 'unsafe-inline'",
    ],
    [
      '/portal',
      "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';" +
        "form-action 'self';base-uri 'none';frame-ancestors 'none'",
    ],
  ])('answers %s with exactly these headers, its policy picked per request', async (path, policy) => {
    expect(await headersWith(ours, path)).toEqual({ ...EVERY_ANSWER, 'content-security-policy': policy });
  });

  it('removes X-Powered-By', async () => {
    const app = express();
    app.use(ours);
    app.get('/', (_req, res) => res.json({}));
    expect((await request(app).get('/')).headers['x-powered-by']).toBeUndefined();
  });
});
