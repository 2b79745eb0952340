import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_ADMIN_TOKEN } from '../../test/support/controller-app';
import { AuditService } from '../audit/audit.service';
import { AdminAuditController } from './admin-audit.controller';

const KEY_ID = '9f1c7a52-3f0e-4a4e-b6a3-8c1d2e3f4a5b';
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PAGE = {
  items: [
    {
      id: '42',
      at: '2026-11-22T10:00:00.000Z',
      actor: KEY_ID,
      requestId: 'req-1',
      action: 'subname.update',
      subject: 'alice.oak.eth',
      before: { owner: null },
      after: { owner: WALLET },
    },
  ],
  page: 1,
  size: 25,
  totalItems: 1,
};

describe(AdminAuditController.name, () => {
  let app: NestExpressApplication;
  const audit = { search: jest.fn() };
  const provider = { provide: AuditService, useValue: audit };

  beforeAll(async () => {
    app = await controllerApp([AdminAuditController], [provider]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const get = (query: string, token: string | null = TEST_ADMIN_TOKEN) => {
    const req = request(app.getHttpServer()).get(`/api/v1/admin/audit${query}`);
    return token === null ? req : req.set('x-admin-token', token);
  };

  it('GET /admin/audit: 401 UNAUTHORIZED problem without or with a wrong admin token (an API key is not one)', async () => {
    for (const res of [
      await get('', null),
      await get('', 'wrong-admin-token'),
      await get('', null).set('x-auth-token', 'good-key'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }
    expect(audit.search).not.toHaveBeenCalled();
  });

  it('GET /admin/audit without ADMIN_TOKEN configured: 404 NOT_FOUND', async () => {
    const off = await controllerApp([AdminAuditController], [provider], { env: { ADMIN_TOKEN: undefined } });
    try {
      const res = await request(off.getHttpServer()).get('/api/v1/admin/audit').set('x-admin-token', TEST_ADMIN_TOKEN);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    } finally {
      await off.close();
    }
  });

  it('GET /admin/audit: 200 with the page; page 1 and size 25 by default', async () => {
    audit.search.mockResolvedValue(PAGE);
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(PAGE);
    expect(audit.search).toHaveBeenCalledWith({ page: 1, size: 25 });
  });

  it('GET /admin/audit: the filters handed over parsed: since a Date, a key id lower case, a wallet EIP-55', async () => {
    audit.search.mockResolvedValue(PAGE);
    const since = '2026-11-22T00:00:00Z';
    await get(`?since=${since}&actor=${KEY_ID.toUpperCase()}&name=alice.oak.eth&page=2&size=3`).expect(200);
    expect(audit.search).toHaveBeenLastCalledWith({
      since: new Date(since),
      actor: KEY_ID,
      name: 'alice.oak.eth',
      page: 2,
      size: 3,
    });
    await get(`?actor=wallet:${WALLET.toLowerCase()}`).expect(200);
    expect(audit.search).toHaveBeenLastCalledWith({ actor: `wallet:${WALLET}`, page: 1, size: 25 });
  });

  it.each([
    ['since', 'since=yesterday'],
    ['actor', 'actor=someone'],
    ['name', `name=${'x'.repeat(513)}`],
    ['name', 'name='],
    ['page', 'page=0'],
    ['size', 'size=101'],
    ['size', 'size=abc'],
    ['page', 'page=101&size=100'],
    ['actor', 'actor=admin&actor=admin'],
    ['sort', 'sort=asc'],
  ])(
    'GET /admin/audit with a bad %s (case %#): 400 VALIDATION_FAILED naming it, the service untouched',
    async (field, query) => {
      const res = await get(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      expect(audit.search).not.toHaveBeenCalled();
    },
  );
});
