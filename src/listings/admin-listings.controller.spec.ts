import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { controllerApp, TEST_ADMIN_TOKEN } from '../../test/support/controller-app';
import { AdminListingsController } from './admin-listings.controller';
import { ListingNotFoundError } from './listings.errors';
import { ListingsService } from './listings.service';

const RECEIVER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const BODY = {
  price: '5000000000000000',
  fee: '1000000000000000',
  paymentReceiver: RECEIVER,
  expirable: false,
  fuses: 65536,
};
const LISTING = {
  ...BODY,
  network: 'mainnet',
  parentName: 'oak.eth',
  parentNode: '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd',
  lengthPrices: {},
  reservedLabels: [],
  active: true,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
};
const ADMIN = { actor: 'admin', requestId: 'req-1' };

describe(AdminListingsController.name, () => {
  let app: NestExpressApplication;
  const listings = { put: jest.fn(), list: jest.fn(), findOrFail: jest.fn(), remove: jest.fn() };
  const provider = { provide: ListingsService, useValue: listings };

  beforeAll(async () => {
    app = await controllerApp([AdminListingsController], [provider]);
  });
  afterAll(() => app.close());
  beforeEach(() => jest.resetAllMocks());

  /** A request to /api/v1/admin/listings{path}, with the admin token unless told otherwise. */
  const call = (method: 'get' | 'put' | 'delete', path = '', token: string | null = TEST_ADMIN_TOKEN) => {
    const req = request(app.getHttpServer())[method](`/api/v1/admin/listings${path}`).set('x-request-id', 'req-1');
    return token === null ? req : req.set('x-admin-token', token);
  };
  const fields = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field).sort();

  it('every route: 401 UNAUTHORIZED problem without or with a wrong admin token, the service untouched', async () => {
    for (const token of [null, '', 'wrong-admin-token']) {
      for (const [method, path] of [
        ['put', '/mainnet/oak.eth'],
        ['get', ''],
        ['get', '/mainnet/oak.eth'],
        ['delete', '/mainnet/oak.eth'],
      ] as const) {
        const res = await call(method, path, token).send(BODY);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      }
    }
    for (const fn of Object.values(listings)) expect(fn).not.toHaveBeenCalled();
  });

  it('without ADMIN_TOKEN configured the routes answer 404 NOT_FOUND', async () => {
    const off = await controllerApp([AdminListingsController], [provider], { env: { ADMIN_TOKEN: undefined } });
    try {
      const res = await request(off.getHttpServer())
        .put('/api/v1/admin/listings/mainnet/oak.eth')
        .set('x-admin-token', TEST_ADMIN_TOKEN)
        .send(BODY);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(listings.put).not.toHaveBeenCalled();
    } finally {
      await off.close();
    }
  });

  it('PUT /:network/:parentName: 200 with the listing; name normalised, receiver EIP-55, labels deduplicated', async () => {
    listings.put.mockResolvedValue(LISTING);
    const res = await call('put', '/mainnet/Oak.ETH').send({
      ...BODY,
      paymentReceiver: RECEIVER.toLowerCase(),
      reservedLabels: ['Admin', 'www', 'admin'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(LISTING);
    expect(listings.put).toHaveBeenCalledWith(
      'mainnet',
      'oak.eth',
      { ...BODY, reservedLabels: ['admin', 'www'] },
      ADMIN,
    );
  });

  it.each([
    ['network', '/base/oak.eth', BODY],
    ['parentName', '/mainnet/eth', BODY],
    ['price', '/mainnet/oak.eth', { ...BODY, price: '-5' }],
    ['fee', '/mainnet/oak.eth', { ...BODY, fee: '0.5' }],
    ['paymentReceiver', '/mainnet/oak.eth', { ...BODY, paymentReceiver: '0x123' }],
    ['expirable', '/mainnet/oak.eth', { ...BODY, expirable: 'true' }],
    ['fuses', '/mainnet/oak.eth', { ...BODY, fuses: 1 }],
    ['lengthPrices', '/mainnet/oak.eth', { ...BODY, lengthPrices: { '0': '1' } }],
    ['reservedLabels', '/mainnet/oak.eth', { ...BODY, reservedLabels: ['a.b'] }],
    ['currency', '/mainnet/oak.eth', { ...BODY, currency: 'ETH' }],
  ])('PUT with a bad %s: 400 VALIDATION_FAILED naming it, the service untouched', async (field, path, body) => {
    const res = await call('put', path).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(fields(res)).toEqual([field]);
    expect(listings.put).not.toHaveBeenCalled();
  });

  it('GET: 200 with every listing', async () => {
    listings.list.mockResolvedValue([LISTING]);
    const res = await call('get');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([LISTING]);
  });

  it('GET /:network/:parentName: 200 asked by the normalised name; LISTING_NOT_FOUND is a 404 problem', async () => {
    listings.findOrFail.mockResolvedValueOnce(LISTING);
    const found = await call('get', '/mainnet/OAK.eth');
    expect(found.status).toBe(200);
    expect(found.body).toEqual(LISTING);
    expect(listings.findOrFail).toHaveBeenCalledWith('mainnet', 'oak.eth');

    listings.findOrFail.mockRejectedValueOnce(new ListingNotFoundError('testnet', 'oak.eth'));
    const missing = await call('get', '/testnet/oak.eth');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({
      code: 'LISTING_NOT_FOUND',
      status: 404,
      detail: 'oak.eth has no active listing on testnet',
    });
  });

  it('DELETE /:network/:parentName: 204 with admin as actor; LISTING_NOT_FOUND is 404; a bad path 400', async () => {
    listings.remove.mockResolvedValueOnce(undefined);
    const res = await call('delete', '/testnet/OAK.eth');
    expect(res.status).toBe(204);
    expect(listings.remove).toHaveBeenCalledWith('testnet', 'oak.eth', ADMIN);

    listings.remove.mockRejectedValueOnce(new ListingNotFoundError('testnet', 'oak.eth'));
    expect((await call('delete', '/testnet/oak.eth')).body.code).toBe('LISTING_NOT_FOUND');

    const bad = await call('delete', '/mainnet/a_b.eth');
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual(['parentName']);
    expect(listings.remove).toHaveBeenCalledTimes(2);
  });
});
