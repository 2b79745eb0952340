import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_ADMIN_TOKEN } from '../../test/support/controller-app';
import { NotFoundError } from '../common/errors';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { KeyRevokedError } from './keys.errors';
import { KeysService } from './keys.service';

const ID = '0b5c1c0e-9a57-4d43-8f43-3c1f0c7e2a11';
const KEY = {
  id: ID,
  name: 'wallet',
  keyPrefix: 'sns_Q2hLr8xv',
  parentNames: ['oak.eth'],
  quota: 7,
  used: 0,
  expiresAt: null,
  revokedAt: null,
  createdAt: '2026-11-22T10:00:00.000Z',
};
const ADMIN = { actor: 'admin', requestId: 'req-1' };

describe(AdminApiKeysController.name, () => {
  let app: NestExpressApplication;
  const keys = { issue: jest.fn(), list: jest.fn(), update: jest.fn(), rotate: jest.fn(), revoke: jest.fn() };
  const provider = { provide: KeysService, useValue: keys };

  beforeAll(async () => {
    app = await controllerApp([AdminApiKeysController], [provider]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  /** A request to /api/v1/admin/api-keys{path}, with the admin token unless told otherwise. */
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path = '', token: string | null = TEST_ADMIN_TOKEN) => {
    const req = request(app.getHttpServer())[method](`/api/v1/admin/api-keys${path}`).set('x-request-id', 'req-1');
    return token === null ? req : req.set('x-admin-token', token);
  };
  const fields = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field).sort();

  it('every route: 401 UNAUTHORIZED problem without or with a wrong admin token, the service untouched', async () => {
    const routes = [
      ['post', ''],
      ['get', ''],
      ['patch', `/${ID}`],
      ['post', `/${ID}/rotate`],
      ['delete', `/${ID}`],
    ] as const;
    for (const token of [null, 'wrong-admin-token']) {
      for (const [method, path] of routes) {
        const res = await call(method, path, token).send({});
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({
          code: 'UNAUTHORIZED',
          status: 401,
          detail: 'A valid x-admin-token is required',
        });
      }
    }
    for (const fn of Object.values(keys)) expect(fn).not.toHaveBeenCalled();
  });

  it('without ADMIN_TOKEN configured the routes answer 404 NOT_FOUND, even to a token', async () => {
    const off = await controllerApp([AdminApiKeysController], [provider], { env: { ADMIN_TOKEN: undefined } });
    try {
      const res = await request(off.getHttpServer()).get('/api/v1/admin/api-keys').set('x-admin-token', 'anything');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', detail: 'No route: GET /api/v1/admin/api-keys' });
      expect(keys.list).not.toHaveBeenCalled();
    } finally {
      await off.close();
    }
  });

  it('POST: 201 with the issued key; parent names normalised and deduplicated, expiresAt a Date, admin as actor', async () => {
    keys.issue.mockResolvedValue({ ...KEY, key: 'sns_secret' });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call('post').send({ name: 'wallet', parentNames: ['Oak.ETH', 'oak.eth'], quota: 7, expiresAt });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...KEY, key: 'sns_secret' });
    expect(keys.issue).toHaveBeenCalledWith(
      { name: 'wallet', parentNames: ['oak.eth'], quota: 7, expiresAt: new Date(expiresAt) },
      ADMIN,
    );
  });

  it('POST with a bad body: 400 naming each field, the service untouched', async () => {
    const res = await call('post').send({ name: '', parentNames: ['eth'], quota: -1, expiresAt: 'soon' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(fields(res)).toEqual(['expiresAt', 'name', 'parentNames', 'quota']);
    const past = await call('post').send({ name: 'late', parentNames: ['oak.eth'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.body.errors).toEqual([{ field: 'expiresAt', message: 'must be in the future (null never expires)' }]);
    expect(keys.issue).not.toHaveBeenCalled();
  });

  it('GET: 200 with the listed keys', async () => {
    keys.list.mockResolvedValue([KEY]);
    const res = await call('get');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([KEY]);
  });

  it('PATCH /:id: 200 with the changed key; the id handed over lower case, only the given fields', async () => {
    keys.update.mockResolvedValue({ ...KEY, name: 'renamed' });
    const res = await call('patch', `/${ID.toUpperCase()}`).send({ name: 'renamed', expiresAt: null });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('renamed');
    expect(keys.update).toHaveBeenCalledWith(ID, { name: 'renamed', expiresAt: null }, ADMIN);
  });

  it('PATCH, rotate and DELETE with an id that is not a UUID: 400 naming id, the service untouched', async () => {
    for (const [method, path] of [
      ['patch', '/not-a-uuid'],
      ['post', '/not-a-uuid/rotate'],
      ['delete', '/not-a-uuid'],
    ] as const) {
      const res = await call(method, path).send({});
      expect(res.status).toBe(400);
      expect(fields(res)).toEqual(['id']);
    }
    expect(keys.update).not.toHaveBeenCalled();
    expect(keys.rotate).not.toHaveBeenCalled();
    expect(keys.revoke).not.toHaveBeenCalled();
  });

  it('POST /:id/rotate: 200 (not 201) with the new secret; graceSeconds checked from 0 to 86400', async () => {
    keys.rotate.mockResolvedValue({ ...KEY, key: 'sns_new' });
    const res = await call('post', `/${ID}/rotate`).send({ graceSeconds: 3600 });
    expect(res.status).toBe(200);
    expect(res.body.key).toBe('sns_new');
    expect(keys.rotate).toHaveBeenCalledWith(ID, { graceSeconds: 3600 }, ADMIN);
    for (const body of [{ graceSeconds: 86_401 }, { graceSeconds: -1 }, { graceSeconds: 1.5 }, { grace: 5 }]) {
      const bad = await call('post', `/${ID}/rotate`).send(body);
      expect(bad.status).toBe(400);
      expect(fields(bad)).toEqual(Object.keys(body));
    }
    expect(keys.rotate).toHaveBeenCalledTimes(1);
  });

  it.each([
    [new KeyRevokedError(ID), 409, 'CONFLICT'],
    [new NotFoundError(`No API key with id ${ID}`), 404, 'NOT_FOUND'],
  ])('POST /:id/rotate: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    keys.rotate.mockRejectedValue(error);
    const res = await call('post', `/${ID}/rotate`).send({});
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code, status, detail: error.detail });
  });

  it('DELETE /:id: 204 without a body, the id and admin handed over', async () => {
    keys.revoke.mockResolvedValue(undefined);
    const res = await call('delete', `/${ID}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(keys.revoke).toHaveBeenCalledWith(ID, ADMIN);
  });
});
