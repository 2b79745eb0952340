import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_KEY } from '../../test/support/controller-app';
import { ForbiddenParentError } from '../auth/auth.errors';
import { PolicyNotFoundError } from './holders.errors';
import { PoliciesController } from './policies.controller';
import { PoliciesService } from './policies.service';

const HOLDER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const POLICY = { parentName: 'oak.eth', claims: 'open', allowlistSize: 0, claimsPerAddress: 1 };

describe(PoliciesController.name, () => {
  let app: NestExpressApplication;
  const policies = { put: jest.fn(), findOrFail: jest.fn(), remove: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([PoliciesController], [{ provide: PoliciesService, useValue: policies }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const put = (body: object, token = 'good-key', parent = 'oak.eth') =>
    request(app.getHttpServer()).put(`/api/v1/policies/${parent}`).set('x-auth-token', token).send(body);
  const remove = (token?: string) => {
    const req = request(app.getHttpServer()).delete('/api/v1/policies/oak.eth');
    return token ? req.set('x-auth-token', token) : req;
  };

  it('PUT and DELETE without a valid key: 401 UNAUTHORIZED problem, the service untouched', async () => {
    for (const res of [await put({ claims: 'open' }, 'wrong'), await remove(), await remove('wrong')]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    }
    expect(policies.put).not.toHaveBeenCalled();
    expect(policies.remove).not.toHaveBeenCalled();
  });

  it('PUT: 200 with the policy; the key, the normalised parent and the normalised body handed over', async () => {
    policies.put.mockResolvedValue(POLICY);
    const res = await put(
      { claims: 'allowlist', allowlist: [HOLDER.toLowerCase(), HOLDER], labels: { reserved: ['Admin'] } },
      'good-key',
      'Oak.eth',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(POLICY);
    const [key, parent, dto] = policies.put.mock.calls[0];
    expect([key, parent]).toEqual([TEST_KEY, 'oak.eth']);
    expect(dto).toMatchObject({ claims: 'allowlist', allowlist: [HOLDER], labels: { reserved: ['admin'] } });
  });

  it('PUT with a bad body or parent: 400 naming each field, the service untouched', async () => {
    const noList = await put({ claims: 'allowlist' });
    expect(noList.status).toBe(400);
    expect(noList.body.errors).toEqual([{ field: 'allowlist', message: expect.stringContaining('required') }]);
    const bad = await put({ claims: 'open', claimsPerAddress: 101, deletes: 1, allowlist: ['0x12'] });
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'allowlist',
      'claimsPerAddress',
      'deletes',
    ]);
    const parent = await put({ claims: 'open' }, 'good-key', 'eth');
    expect(parent.status).toBe(400);
    expect(parent.body.errors[0].field).toBe('parentName');
    expect(policies.put).not.toHaveBeenCalled();
  });

  it("PUT outside the key's parents: 403 FORBIDDEN_PARENT problem", async () => {
    policies.put.mockRejectedValue(new ForbiddenParentError('elm.eth'));
    const res = await put({ claims: 'open' }, 'good-key', 'elm.eth');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN_PARENT', detail: 'This API key may not write under elm.eth' });
  });

  it('GET: 200 with no key needed, asked for the normalised parent; POLICY_NOT_FOUND is a 404 problem', async () => {
    policies.findOrFail.mockResolvedValueOnce(POLICY);
    const res = await request(app.getHttpServer()).get('/api/v1/policies/OAK.eth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(POLICY);
    expect(policies.findOrFail).toHaveBeenCalledWith('oak.eth');

    policies.findOrFail.mockRejectedValueOnce(new PolicyNotFoundError('pine.eth'));
    const missing = await request(app.getHttpServer()).get('/api/v1/policies/pine.eth');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'POLICY_NOT_FOUND', status: 404 });
  });

  it('DELETE: 204 with the key and parent handed over; POLICY_NOT_FOUND is a 404 problem', async () => {
    policies.remove.mockResolvedValueOnce(undefined);
    const res = await remove('good-key');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(policies.remove).toHaveBeenCalledWith(TEST_KEY, 'oak.eth');

    policies.remove.mockRejectedValueOnce(new PolicyNotFoundError('oak.eth'));
    expect((await remove('good-key')).body).toMatchObject({ status: 404, code: 'POLICY_NOT_FOUND' });
  });
});
