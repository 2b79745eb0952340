import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { ChainUnavailableError } from '../chain/chain.errors';
import { ResolutionStatusController } from './resolution-status.controller';
import { ResolutionStatusService } from './resolution-status.service';

const STATUS = {
  parentName: 'oak.eth',
  ok: false,
  steps: [
    { step: 'registry', ok: true, detail: 'oak.eth has the resolver 0x… in the ENS registry' },
    { step: 'wildcard', ok: false, detail: 'the resolver does not support ENSIP-10' },
  ],
};

describe(ResolutionStatusController.name, () => {
  let app: NestExpressApplication;
  const status = { check: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([ResolutionStatusController], [{ provide: ResolutionStatusService, useValue: status }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const get = (query: string) => request(app.getHttpServer()).get(`/api/v1/resolution/status${query}`);

  it('GET /resolution/status: 200 with the check, no key, the parent name handed over normalised', async () => {
    status.check.mockResolvedValue(STATUS);
    const res = await get('?parentName=Oak.ETH');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(STATUS);
    expect(status.check).toHaveBeenCalledWith('oak.eth');
  });

  it.each([
    ['a one-label name', 'parentName', '?parentName=eth'],
    ['no parent name', 'parentName', ''],
    ['an unknown parameter', 'chain', '?parentName=oak.eth&chain=1'],
  ])(
    'GET /resolution/status with %s: 400 VALIDATION_FAILED naming %s, the service untouched',
    async (_, field, query) => {
      const res = await get(query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      expect(status.check).not.toHaveBeenCalled();
    },
  );

  it('CHAIN_UNAVAILABLE from the service is a 503 problem with Retry-After', async () => {
    status.check.mockRejectedValue(new ChainUnavailableError('ENS_RPC_URL is not set'));
    const res = await get('?parentName=oak.eth');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'CHAIN_UNAVAILABLE', status: 503, detail: 'ENS_RPC_URL is not set' });
  });
});
