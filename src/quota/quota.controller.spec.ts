import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_KEY } from '../../test/support/controller-app';
import { QuotaController } from './quota.controller';
import { QuotaService } from './quota.service';

describe(QuotaController.name, () => {
  let app: NestExpressApplication;
  const quota = { current: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([QuotaController], [{ provide: QuotaService, useValue: quota }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  it('GET /quota: 401 problem without a valid key, the service untouched', async () => {
    for (const token of [undefined, 'wrong']) {
      const req = request(app.getHttpServer()).get('/api/v1/quota');
      const res = await (token ? req.set('x-auth-token', token) : req);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }
    expect(quota.current).not.toHaveBeenCalled();
  });

  it("GET /quota: 200 with the calling key's quota, asked by its id", async () => {
    quota.current.mockResolvedValue({ limit: 10, used: 3, remaining: 7 });
    const res = await request(app.getHttpServer()).get('/api/v1/quota').set('x-auth-token', 'good-key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ limit: 10, used: 3, remaining: 7 });
    expect(quota.current).toHaveBeenCalledWith(TEST_KEY.id);
  });
});
