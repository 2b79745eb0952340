import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { ListingNotFoundError } from '../listings/listings.errors';
import { MintController } from './mint.controller';
import { SubnameReservedError, SubnameTakenError } from './mint.errors';
import { MintService } from './mint.service';

const MINTER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const PARAMETERS = { label: 'alice', owner: MINTER, price: '5000000000000000', fee: '1000000000000000' };

describe(MintController.name, () => {
  let app: NestExpressApplication;
  const mint = { mintParameters: jest.fn(), estimate: jest.fn(), signerInfo: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([MintController], [{ provide: MintService, useValue: mint }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const post = (path: string, body: object) => request(app.getHttpServer()).post(path).send(body);

  it('POST /mint and /minting-parameters (the SDK path): 200, no key, the normalised body handed over', async () => {
    mint.mintParameters.mockResolvedValue(PARAMETERS);
    for (const path of ['/api/v1/mint', '/api/v1/minting-parameters']) {
      const res = await post(path, { label: 'Alice', parentName: 'oak.eth', minterAddress: MINTER.toLowerCase() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(PARAMETERS);
    }
    expect(mint.mintParameters).toHaveBeenCalledTimes(2);
    expect(mint.mintParameters.mock.calls[0][0]).toMatchObject({
      label: 'alice',
      parentName: 'oak.eth',
      minterAddress: MINTER,
    });
  });

  it('POST /mint with a bad body: 400 naming each field, the service untouched', async () => {
    const res = await post('/api/v1/mint', {
      label: 'a.b',
      parentName: 'oak.eth',
      minterAddress: '0x12',
      expiryInYears: 0,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'expiryInYears',
      'label',
      'minterAddress',
    ]);
    expect(mint.mintParameters).not.toHaveBeenCalled();
  });

  it.each([
    [new ListingNotFoundError('mainnet', 'oak.eth'), 404, 'LISTING_NOT_FOUND'],
    [new SubnameReservedError('alice', 'oak.eth'), 409, 'SUBNAME_RESERVED'],
    [new SubnameTakenError('alice.oak.eth'), 409, 'SUBNAME_TAKEN'],
  ])('POST /mint: the service refusing with %p is a %i %s problem', async (error, status, code) => {
    mint.mintParameters.mockRejectedValue(error);
    const res = await post('/api/v1/mint', { label: 'alice', parentName: 'oak.eth', minterAddress: MINTER });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code, status });
  });

  it('GET /mint/estimate and /minting-parameters/estimated: 200 with the estimate; a bad query is 400', async () => {
    mint.estimate.mockResolvedValue({ price: '1', fee: '0', available: true });
    for (const path of ['/api/v1/mint/estimate', '/api/v1/minting-parameters/estimated']) {
      const res = await request(app.getHttpServer()).get(path).query({ label: 'alice', parentName: 'oak.eth' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ price: '1', fee: '0', available: true });
    }
    const bad = await request(app.getHttpServer()).get('/api/v1/mint/estimate').query({ parentName: 'oak.eth' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['label']);
    expect(mint.estimate).toHaveBeenCalledTimes(2);
  });

  it('GET /mint/signer: isTestnet read as a boolean; anything but true or false is 400', async () => {
    mint.signerInfo.mockReturnValue({ address: MINTER });
    expect((await request(app.getHttpServer()).get('/api/v1/mint/signer?isTestnet=true')).status).toBe(200);
    expect(mint.signerInfo).toHaveBeenLastCalledWith(true);
    expect((await request(app.getHttpServer()).get('/api/v1/mint/signer')).body).toEqual({ address: MINTER });
    expect(mint.signerInfo).toHaveBeenLastCalledWith(undefined);
    const bad = await request(app.getHttpServer()).get('/api/v1/mint/signer?isTestnet=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('isTestnet');
  });
});
