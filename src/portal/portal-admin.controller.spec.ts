import type { NestExpressApplication } from '@nestjs/platform-express';
import { controllerApp } from '../../test/support/controller-app';
import { anonymous, asWallet, OPERATOR, portalProviders, WALLET } from '../../test/support/portal-session';
import { NotFoundError } from '../common/errors';
import { PortalAdminController } from './portal-admin.controller';
import { PortalAdminService } from './portal-admin.service';

const ID = '0b5c1c0e-9a57-4d43-8f43-3c1f0c7e2a11';
const ROUTES = [
  ['get', '/portal/api/admin/keys'],
  ['patch', `/portal/api/admin/keys/${ID}`],
  ['get', '/portal/api/admin/audit'],
] as const;

describe(PortalAdminController.name, () => {
  let app: NestExpressApplication;
  const admin = { keysPage: jest.fn(), setQuota: jest.fn(), auditPage: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp(
      [PortalAdminController],
      [{ provide: PortalAdminService, useValue: admin }, ...portalProviders()],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const asOperator = (method: 'get' | 'patch', path: string) => asWallet(app, method, path, 'operator-session');

  it('every route: 401 UNAUTHORIZED without a session, 403 NOT_OPERATOR for a wallet that is not an operator', async () => {
    for (const [method, path] of ROUTES) {
      const none = await anonymous(app, method, path).send({ quota: 5 });
      expect(none.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      const user = await asWallet(app, method, path).send({ quota: 5 });
      expect(user.status).toBe(403);
      expect(user.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(user.body).toMatchObject({ code: 'NOT_OPERATOR', status: 403 });
    }
    for (const fn of Object.values(admin)) expect(fn).not.toHaveBeenCalled();
  });

  it('PATCH /admin/keys/:id by an operator without the CSRF token: 403 CROSS_SITE_REQUEST, the service untouched', async () => {
    const res = await asOperator('patch', `/portal/api/admin/keys/${ID}`).unset('x-portal-csrf').send({ quota: 5 });
    expect(res.body).toMatchObject({ status: 403, code: 'CROSS_SITE_REQUEST' });
    expect(admin.setQuota).not.toHaveBeenCalled();
  });

  it('GET /admin/keys: 200 with the page; page and size default to 1 and 25, read as integers, size at most 100', async () => {
    const page = { items: [], page: 1, size: 25, totalItems: 0 };
    admin.keysPage.mockResolvedValue(page);
    const res = await asOperator('get', '/portal/api/admin/keys');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(page);
    expect(admin.keysPage).toHaveBeenLastCalledWith({ page: 1, size: 25 });
    await asOperator('get', '/portal/api/admin/keys?page=2&size=10').expect(200);
    expect(admin.keysPage).toHaveBeenLastCalledWith({ page: 2, size: 10 });

    const bad = await asOperator('get', '/portal/api/admin/keys?page=0&size=101');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['page', 'size']);
    expect(admin.keysPage).toHaveBeenCalledTimes(2);
  });

  it('PATCH /admin/keys/:id: 200 with the key; the operator, the lower-cased id, the quota and the request id handed over', async () => {
    const key = { id: ID, quota: 50 };
    admin.setQuota.mockResolvedValue(key);
    const res = await asOperator('patch', `/portal/api/admin/keys/${ID.toUpperCase()}`)
      .set('x-request-id', 'req-1')
      .send({ quota: 50 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(key);
    expect(admin.setQuota).toHaveBeenCalledWith(OPERATOR, ID, 50, 'req-1');
  });

  it('PATCH /admin/keys/:id: 400 naming a bad id or quota; NOT_FOUND from the service is a 404 problem', async () => {
    // Path and body are separate arguments, each checked by the pipe on its own: one request, one field here.
    const badId = await asOperator('patch', '/portal/api/admin/keys/nope').send({ quota: 50 });
    expect(badId.status).toBe(400);
    expect(badId.body.errors.map((e: { field: string }) => e.field)).toEqual(['id']);
    for (const quota of ['50', -1, 1.5, 2147483648]) {
      const bad = await asOperator('patch', `/portal/api/admin/keys/${ID}`).send({ quota });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['quota']);
    }
    expect(admin.setQuota).not.toHaveBeenCalled();

    admin.setQuota.mockRejectedValue(new NotFoundError(`No API key with id ${ID}`));
    const missing = await asOperator('patch', `/portal/api/admin/keys/${ID}`).send({ quota: 0 });
    expect(missing.body).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: `No API key with id ${ID}` });
  });

  it('GET /admin/audit: 200 with the page, the filters parsed (actor checksummed, since a date); a bad filter is 400', async () => {
    const page = { items: [], page: 1, size: 25, totalItems: 0 };
    admin.auditPage.mockResolvedValue(page);
    const actor = `wallet:${WALLET.address.toLowerCase()}`;
    const res = await asOperator('get', `/portal/api/admin/audit?actor=${actor}&since=2026-11-22T00:00:00Z&size=5`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(page);
    expect(admin.auditPage).toHaveBeenCalledWith({
      actor: `wallet:${WALLET.address}`,
      since: new Date('2026-11-22T00:00:00Z'),
      page: 1,
      size: 5,
    });

    const bad = await asOperator('get', '/portal/api/admin/audit?actor=someone&since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['actor', 'since']);
    expect(admin.auditPage).toHaveBeenCalledTimes(1);
  });
});
