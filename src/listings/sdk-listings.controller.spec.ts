import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp } from '../../test/support/controller-app';
import { ListingNotFoundError } from './listings.errors';
import { ListingsService } from './listings.service';
import { SdkListingsController } from './sdk-listings.controller';

describe(SdkListingsController.name, () => {
  let app: NestExpressApplication;
  const listings = { findForSdk: jest.fn() };

  beforeAll(async () => {
    app = await controllerApp([SdkListingsController], [{ provide: ListingsService, useValue: listings }]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  const get = (network: string, name: string) =>
    request(app.getHttpServer()).get(`/api/v1/listing/network/${network}/name/${name}`);

  it('GET /listing/network/:network/name/:name: 200 without any token, asked by the normalised name', async () => {
    listings.findForSdk.mockResolvedValue({ name: 'oak.eth', nameNetwork: 'MAINNET', type: 'L1' });
    const res = await get('MAINNET', 'Oak.eth');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'oak.eth', nameNetwork: 'MAINNET', type: 'L1' });
    expect(listings.findForSdk).toHaveBeenCalledWith('MAINNET', 'oak.eth');
  });

  it('LISTING_NOT_FOUND from the service is a 404 problem', async () => {
    listings.findForSdk.mockRejectedValue(new ListingNotFoundError('testnet', 'oak.eth'));
    const res = await get('SEPOLIA', 'oak.eth');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'LISTING_NOT_FOUND', status: 404 });
    expect(listings.findForSdk).toHaveBeenCalledWith('SEPOLIA', 'oak.eth');
  });

  it.each([
    ['network', 'BASE', 'oak.eth', 'must be MAINNET or SEPOLIA'],
    ['network', 'mainnet', 'oak.eth', 'must be MAINNET or SEPOLIA'],
    ['name', 'MAINNET', 'eth', undefined],
  ])(
    'a bad %s (%s/%s): 400 VALIDATION_FAILED naming it, the service untouched',
    async (field, network, name, message) => {
      const res = await get(network, name);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field, message: message ?? expect.any(String) }]);
      expect(listings.findForSdk).not.toHaveBeenCalled();
    },
  );
});
