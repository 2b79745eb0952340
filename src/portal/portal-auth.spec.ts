import type { Request } from 'express';
import { loadConfig } from '../config/app-config';
import { assertSameOrigin } from './portal-auth';
import { CrossSiteRequestError } from './portal.errors';

const ORIGIN = 'https://subnames.example.com';
const req = (method: string, headers: Record<string, string> = {}) => ({ method, headers }) as unknown as Request;

describe(assertSameOrigin.name, () => {
  it('lets reads through whatever their origin', () => {
    expect(() => assertSameOrigin(req('GET', { origin: 'https://evil.example' }), ORIGIN)).not.toThrow();
  });

  it("admits a state change from PUBLIC_URL's origin, or without Origin when Sec-Fetch-Site is same-origin", () => {
    expect(() => assertSameOrigin(req('POST', { origin: ORIGIN }), ORIGIN)).not.toThrow();
    expect(() => assertSameOrigin(req('DELETE', { 'sec-fetch-site': 'same-origin' }), ORIGIN)).not.toThrow();
  });

  it.each([
    ['another site', { origin: 'https://evil.example' }],
    ['another subdomain of the site', { origin: 'https://docs.subnames.example.com' }],
    ['another port', { origin: 'https://subnames.example.com:8443' }],
    ['plain http', { origin: 'http://subnames.example.com' }],
    ['an opaque origin', { origin: 'null' }],
    ['no Origin and a same-site fetch', { 'sec-fetch-site': 'same-site' }],
    ['no Origin and no fetch metadata', {}],
    [
      'an Origin that disagrees with same-origin fetch metadata',
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
    ],
  ])('refuses a state change from %s (403 CROSS_SITE_REQUEST)', (_, headers) => {
    expect(() => assertSameOrigin(req('PATCH', headers), ORIGIN)).toThrow(CrossSiteRequestError);
  });

  it('refuses every state change while PUBLIC_URL is unset in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true' });
    expect(config.publicUrl).toBeUndefined();
    expect(() => assertSameOrigin(req('POST', { origin: ORIGIN }), config.publicUrl)).toThrow(CrossSiteRequestError);
  });
});
