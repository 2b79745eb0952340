import type { NestExpressApplication } from '@nestjs/platform-express';
import { controllerApp } from '../../test/support/controller-app';
import { anonymous, asWallet, portalProviders, WALLET } from '../../test/support/portal-session';
import { KeyRevokedError } from '../admin/keys.errors';
import { KeyLimitError } from '../auth/auth.errors';
import { ChainUnavailableError } from '../chain/chain.errors';
import { NotFoundError } from '../common/errors';
import { PortalKeysController } from './portal-keys.controller';
import { PortalKeysService } from './portal-keys.service';
import { NotNameControllerError } from './portal.errors';

const ID = '0b5c1c0e-9a57-4d43-8f43-3c1f0c7e2a11';
const KEY = { id: ID, name: 'production', parentNames: ['birch.eth'], quota: 7, used: 0, remaining: 7 };

describe(PortalKeysController.name, () => {
  let app: NestExpressApplication;
  const keys = { list: jest.fn(), issue: jest.fn(), rotate: jest.fn(), revoke: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp(
      [PortalKeysController],
      [{ provide: PortalKeysService, useValue: keys }, ...portalProviders()],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const issue = (body: object) => asWallet(app, 'post', '/portal/api/keys').send(body);

  it('every route: 401 UNAUTHORIZED without a session or with an unknown one, never stored, the service untouched', async () => {
    const routes = [
      ['get', '/portal/api/keys'],
      ['post', '/portal/api/keys'],
      ['post', `/portal/api/keys/${ID}/rotate`],
      ['delete', `/portal/api/keys/${ID}`],
    ] as const;
    for (const [method, path] of routes)
      for (const cookie of [undefined, 'made-up']) {
        const res = await anonymous(app, method, path, cookie);
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      }
    for (const fn of Object.values(keys)) expect(fn).not.toHaveBeenCalled();
  });

  it('POST /keys without the CSRF token, with a wrong one or from another origin: 403 CROSS_SITE_REQUEST', async () => {
    const body = { name: 'k', parentNames: ['birch.eth'] };
    const refused = [
      issue(body).unset('x-portal-csrf'),
      issue(body).set('x-portal-csrf', 'wrong'),
      issue(body).set('Origin', 'https://evil.example'),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'CROSS_SITE_REQUEST', status: 403 });
    }
    expect(keys.issue).not.toHaveBeenCalled();
  });

  it("GET /keys: 200 with the wallet's keys, asked for the signed-in wallet", async () => {
    keys.list.mockResolvedValue([KEY]);
    const res = await asWallet(app, 'get', '/portal/api/keys');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([KEY]);
    expect(keys.list).toHaveBeenCalledWith(WALLET);
  });

  it('POST /keys: 201 with the new key; the parent names normalised, the wallet and the request id handed over', async () => {
    keys.issue.mockResolvedValue({ ...KEY, key: 'sns_secret' });
    const res = await issue({ name: 'production', parentNames: ['Birch.eth'] }).set('x-request-id', 'req-1');
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ ...KEY, key: 'sns_secret' });
    const [wallet, dto, requestId] = keys.issue.mock.calls[0];
    expect(wallet).toEqual(WALLET);
    expect(dto).toEqual({ name: 'production', parentNames: ['birch.eth'] });
    expect(requestId).toBe('req-1');
  });

  it('POST /keys with a bad body: 400 naming each field (a quota is not the wallet’s to set), the service untouched', async () => {
    const res = await issue({ name: '', parentNames: ['not a name'], quota: 5000 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'parentNames', 'quota']);
    expect(keys.issue).not.toHaveBeenCalled();
  });

  it.each([
    [new NotNameControllerError('birch.eth is controlled by someone else'), 403, 'NOT_NAME_CONTROLLER'],
    [new KeyLimitError('KEY_LIMIT_PER_PARENT', 'three keys for birch.eth'), 409, 'KEY_LIMIT_PER_PARENT'],
    [new KeyLimitError('KEY_LIMIT_PER_WALLET', 'five keys'), 409, 'KEY_LIMIT_PER_WALLET'],
    [new ChainUnavailableError('no chain'), 503, 'CHAIN_UNAVAILABLE'],
  ])('POST /keys: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    keys.issue.mockRejectedValue(error);
    const res = await issue({ name: 'k', parentNames: ['birch.eth'] });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('POST /keys/:id/rotate: 200 with the new secret; the id lower-cased and graceSeconds handed over', async () => {
    keys.rotate.mockResolvedValue({ ...KEY, key: 'sns_new' });
    const res = await asWallet(app, 'post', `/portal/api/keys/${ID.toUpperCase()}/rotate`)
      .set('x-request-id', 'req-2')
      .send({ graceSeconds: 60 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...KEY, key: 'sns_new' });
    expect(keys.rotate).toHaveBeenCalledWith(WALLET, ID, { graceSeconds: 60 }, 'req-2');
  });

  it('POST /keys/:id/rotate: 400 for a bad id or graceSeconds; 404 and 409 from the service', async () => {
    const badId = await asWallet(app, 'post', '/portal/api/keys/nope/rotate').send({});
    expect(badId.status).toBe(400);
    expect(badId.body.errors[0].field).toBe('id');
    const badGrace = await asWallet(app, 'post', `/portal/api/keys/${ID}/rotate`).send({ graceSeconds: -1 });
    expect(badGrace.status).toBe(400);
    expect(badGrace.body.errors[0].field).toBe('graceSeconds');
    expect(keys.rotate).not.toHaveBeenCalled();

    keys.rotate.mockRejectedValueOnce(new NotFoundError(`No API key with id ${ID}`));
    keys.rotate.mockRejectedValueOnce(new KeyRevokedError(ID));
    const missing = await asWallet(app, 'post', `/portal/api/keys/${ID}/rotate`).send({});
    expect(missing.body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const revoked = await asWallet(app, 'post', `/portal/api/keys/${ID}/rotate`).send({});
    expect(revoked.body).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('DELETE /keys/:id: 204 with no body, the wallet, id and request id handed over; 400 for a bad id', async () => {
    keys.revoke.mockResolvedValue(undefined);
    const res = await asWallet(app, 'delete', `/portal/api/keys/${ID}`).set('x-request-id', 'req-3');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(keys.revoke).toHaveBeenCalledWith(WALLET, ID, 'req-3');
    const bad = await asWallet(app, 'delete', '/portal/api/keys/1');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('id');
    expect(keys.revoke).toHaveBeenCalledTimes(1);
  });
});
