import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { anonymous, asWallet, PORTAL_ORIGIN, portalProviders, WALLET } from '../../test/support/portal-session';
import { UnauthorizedError } from '../common/errors';
import { PortalSessionController } from './portal-session.controller';
import { TooManyChallengesError, TooManyClientChallengesError } from './portal.errors';

const SIGNATURE = `0x${'ab'.repeat(65)}`;

describe(PortalSessionController.name, () => {
  let app: NestExpressApplication;
  const sessions = { challenge: jest.fn(), signIn: jest.fn(), signOut: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([PortalSessionController], portalProviders(sessions));
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const post = (path: string, body: object) =>
    request(app.getHttpServer()).post(`/portal/api/session${path}`).set('Origin', PORTAL_ORIGIN).send(body);
  const fields = (res: request.Response) => res.body.errors.map((e: { field: string }) => e.field).sort();

  it('POST /challenge: 200 with the message, never stored; the address checksummed and the client address given', async () => {
    sessions.challenge.mockResolvedValue({ message: 'sign this' });
    const res = await post('/challenge', { address: WALLET.address.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ message: 'sign this' });
    expect(sessions.challenge).toHaveBeenCalledWith(WALLET.address, '127.0.0.1');
  });

  it('POST /challenge from another origin, or without Origin and Sec-Fetch-Site: same-origin: 403 CROSS_SITE_REQUEST', async () => {
    const challenge = () => request(app.getHttpServer()).post('/portal/api/session/challenge');
    const body = { address: WALLET.address };
    for (const res of [
      await challenge().set('Origin', 'https://evil.example').send(body),
      await challenge().set('Origin', 'https://portal.example.com:8443').send(body),
      await challenge().send(body),
      await challenge().set('Sec-Fetch-Site', 'same-site').send(body),
    ])
      expect(res.body).toMatchObject({ status: 403, code: 'CROSS_SITE_REQUEST' });
    expect(sessions.challenge).not.toHaveBeenCalled();
    sessions.challenge.mockResolvedValue({ message: 'sign this' });
    expect((await challenge().set('Sec-Fetch-Site', 'same-origin').send(body)).status).toBe(200);
  });

  it('POST /challenge with a bad address: 400 naming address, the service untouched', async () => {
    const res = await post('/challenge', { address: '0x12' });
    expect(res.status).toBe(400);
    expect(fields(res)).toEqual(['address']);
    expect(sessions.challenge).not.toHaveBeenCalled();
  });

  it.each([
    [new TooManyChallengesError(WALLET.address, 5, 120), 'RATE_LIMITED'],
    [new TooManyClientChallengesError(20, 30), 'CHALLENGE_LIMIT_PER_CLIENT'],
  ])('POST /challenge: %p is a 429 %s problem with Retry-After', async (error, code) => {
    sessions.challenge.mockRejectedValue(error);
    const res = await post('/challenge', { address: WALLET.address });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code, status: 429, detail: error.detail });
    expect(res.headers['retry-after']).toBe(error.headers!['Retry-After']);
  });

  it('POST /session: 204 setting the __Host- cookie with its flags; address checksummed, the request id handed over', async () => {
    sessions.signIn.mockResolvedValue('session-id');
    const body = { address: WALLET.address.toLowerCase(), message: 'sign this', signature: SIGNATURE };
    const res = await post('', body).set('x-request-id', 'req-1');
    expect(res.status).toBe(204);
    expect(res.headers['set-cookie']).toEqual([
      '__Host-sns_portal=session-id; Path=/; Max-Age=28800; HttpOnly; Secure; SameSite=Strict',
    ]);
    expect(sessions.signIn).toHaveBeenCalledWith(WALLET.address, 'sign this', SIGNATURE, 'req-1');
  });

  it('POST /session: 400 naming each bad field, 403 from another origin, 401 when the service refuses; no cookie', async () => {
    const bad = await post('', { address: 'nope', message: '', signature: 'abc' });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['address', 'message', 'signature']);
    const body = { address: WALLET.address, message: 'sign this', signature: SIGNATURE };
    const foreign = await post('', body).set('Origin', 'https://evil.example');
    expect(foreign.body.code).toBe('CROSS_SITE_REQUEST');
    expect(sessions.signIn).not.toHaveBeenCalled();

    sessions.signIn.mockRejectedValue(new UnauthorizedError('The sign-in message or its signature is not valid'));
    const refused = await post('', body);
    expect(refused.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('DELETE /session: 401 without a session, 403 without the CSRF token, else 204 clearing the cookie', async () => {
    expect((await anonymous(app, 'delete', '/portal/api/session')).body.code).toBe('UNAUTHORIZED');
    const forged = await asWallet(app, 'delete', '/portal/api/session').unset('x-portal-csrf');
    expect(forged.body.code).toBe('CROSS_SITE_REQUEST');
    expect(sessions.signOut).not.toHaveBeenCalled();

    sessions.signOut.mockResolvedValue(undefined);
    const res = await asWallet(app, 'delete', '/portal/api/session').set('x-request-id', 'req-2');
    expect(res.status).toBe(204);
    expect(res.headers['set-cookie']).toEqual([
      '__Host-sns_portal=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict',
    ]);
    expect(sessions.signOut).toHaveBeenCalledWith(WALLET, 'req-2');
  });
});
