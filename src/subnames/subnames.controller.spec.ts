import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_KEY } from '../../test/support/controller-app';
import { SubnamesBatchService } from './subnames-batch.service';
import { SubnamesController } from './subnames.controller';
import { SubnameNotFoundError } from './subnames.errors';
import { SubnamesService, WriteResult } from './subnames.service';

const STORED = { fullName: 'alice.oak.eth', parentName: 'oak.eth', label: 'alice' };
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe(SubnamesController.name, () => {
  let app: NestExpressApplication;
  const subnames = { upsert: jest.fn(), findOrFail: jest.fn(), remove: jest.fn(), search: jest.fn() };
  const write = (created: boolean, ended: WriteResult['ended'] = []) =>
    ({ subname: STORED, created, quota: { limit: 10, used: 3, remaining: 7 }, ended }) as unknown as WriteResult;

  beforeAll(async () => {
    app = await controllerApp(
      [SubnamesController],
      [
        { provide: SubnamesService, useValue: subnames },
        { provide: SubnamesBatchService, useValue: {} },
      ],
    );
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const post = (body: object, token = 'good-key') =>
    request(app.getHttpServer()).post('/api/v1/subnames').set('x-auth-token', token).send(body);

  it('POST /subnames without a valid key: 401 UNAUTHORIZED problem, the service untouched', async () => {
    const res = await post({ parentName: 'oak.eth', label: 'alice' }, 'wrong');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(subnames.upsert).not.toHaveBeenCalled();
  });

  it('POST /subnames with a bad body: 400 naming each field, the service untouched', async () => {
    const res = await post({ parentName: 'ab.eth', label: 'a.b' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['label', 'parentName']);
    expect(subnames.upsert).not.toHaveBeenCalled();
  });

  it('POST /subnames creating: 201, quota headers, the normalised body and the key as actor', async () => {
    subnames.upsert.mockResolvedValue(write(true));
    const res = await post({ parentName: 'OAK.eth', label: 'Alice' }).set('x-request-id', 'req-1');
    expect(res.status).toBe(201);
    expect(res.body).toEqual(STORED);
    expect(res.headers).toMatchObject({ 'x-quota-limit': '10', 'x-quota-remaining': '7' });
    expect(res.headers['x-primary-name-ended']).toBeUndefined();
    const [key, dto, by] = subnames.upsert.mock.calls[0];
    expect(key).toEqual(TEST_KEY);
    expect(dto).toMatchObject({ parentName: 'oak.eth', label: 'alice' });
    expect(by).toEqual({ actor: TEST_KEY.id, requestId: 'req-1' });
  });

  it('POST /subnames updating: 200, and X-Primary-Name-Ended for each primary name the write ended', async () => {
    subnames.upsert.mockResolvedValue(write(false, [{ address: ADDRESS, name: 'alice.oak.eth' }]));
    const res = await post({ parentName: 'oak.eth', label: 'alice' });
    expect(res.status).toBe(200);
    expect(res.headers['x-primary-name-ended']).toBe(`${ADDRESS} alice.oak.eth`);
  });

  it('GET /subnames/:fullName: 200 with the stored subname; SUBNAME_NOT_FOUND is a 404 problem', async () => {
    subnames.findOrFail.mockResolvedValueOnce(STORED);
    const found = await request(app.getHttpServer()).get('/api/v1/subnames/Alice.oak.eth');
    expect(found.status).toBe(200);
    expect(found.body).toEqual(STORED);
    expect(subnames.findOrFail).toHaveBeenCalledWith('alice.oak.eth');

    subnames.findOrFail.mockRejectedValueOnce(new SubnameNotFoundError('bob.oak.eth'));
    const missing = await request(app.getHttpServer()).get('/api/v1/subnames/bob.oak.eth');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SUBNAME_NOT_FOUND', status: 404, detail: 'No subname bob.oak.eth' });
  });

  it('GET /subnames/:fullName with a name that is not ENS: 400, the service untouched', async () => {
    const res = await request(app.getHttpServer()).get('/api/v1/subnames/a_b..eth');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('fullName');
    expect(subnames.findOrFail).not.toHaveBeenCalled();
  });

  it('DELETE /subnames/:fullName: 401 without a key, 204 with one', async () => {
    const anonymous = await request(app.getHttpServer()).delete('/api/v1/subnames/alice.oak.eth');
    expect(anonymous.status).toBe(401);
    subnames.remove.mockResolvedValue({ ended: [], quota: { limit: 10, used: 3, remaining: 7 } });
    const res = await request(app.getHttpServer())
      .delete('/api/v1/subnames/alice.oak.eth')
      .set('x-auth-token', 'good-key');
    expect(res.status).toBe(204);
    expect([res.headers['x-quota-limit'], res.headers['x-quota-remaining']]).toEqual(['10', '7']);
    expect(subnames.remove).toHaveBeenCalledTimes(1);
    expect(subnames.remove.mock.calls[0].slice(0, 2)).toEqual([TEST_KEY, 'alice.oak.eth']);
  });
});
