import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

const RECEIVER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const OAK_NODE = '0x437e3b9bab563acfa6e713f2c6dab6d78deb7bbfd2e9037da34e8d4e5f6e09dd';

export const validListing = (over: Record<string, unknown> = {}) => ({
  price: '5000000000000000',
  fee: '1000000000000000',
  paymentReceiver: RECEIVER.toLowerCase(),
  expirable: false,
  fuses: 65536,
  ...over,
});

describe('admin listings: PUT/GET/DELETE /api/v1/admin/listings/{network}/{parentName}, GET /api/v1/admin/listings', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'listings-e2e-')) });
  });
  afterAll(() => t.close());

  const put = (path: string, body: unknown, token: string | null = ADMIN_TOKEN) => {
    const r = request(t.http).put(`/api/v1/admin/listings/${path}`);
    if (token !== null) r.set('x-admin-token', token);
    return r.send(body as object);
  };
  const get = (path = '', token: string | null = ADMIN_TOKEN) => {
    const r = request(t.http).get(`/api/v1/admin/listings${path}`);
    return token === null ? r : r.set('x-admin-token', token);
  };
  const del = (path: string, token: string | null = ADMIN_TOKEN) => {
    const r = request(t.http).delete(`/api/v1/admin/listings/${path}`);
    return token === null ? r : r.set('x-admin-token', token);
  };
  const count = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM listings'))[0].n);

  it('creates a listing with every field, normalised and EIP-55 (200)', async () => {
    const res = await put(
      'mainnet/Oak.ETH',
      validListing({
        lengthPrices: { '1': '100000000000000000', '2': '50000000000000000' },
        reservedLabels: ['Admin', 'www', 'admin'],
        expirable: true,
        fuses: 65537,
        active: true,
      }),
    ).expect(200);
    expect(res.body).toEqual({
      network: 'mainnet',
      parentName: 'oak.eth',
      parentNode: OAK_NODE,
      price: '5000000000000000',
      lengthPrices: { '1': '100000000000000000', '2': '50000000000000000' },
      fee: '1000000000000000',
      paymentReceiver: RECEIVER,
      expirable: true,
      fuses: 65537,
      reservedLabels: ['admin', 'www'],
      active: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('reads it back by any letter case; PUT again replaces it whole (left-out optionals reset)', async () => {
    const read = await get('/mainnet/OAK.eth').expect(200);
    expect(read.body.parentName).toBe('oak.eth');
    expect(read.body.reservedLabels).toEqual(['admin', 'www']);
    const res = await put('mainnet/oak.eth', validListing({ price: '0', active: false })).expect(200);
    expect(res.body).toMatchObject({
      price: '0',
      lengthPrices: {},
      reservedLabels: [],
      active: false,
      expirable: false,
    });
    expect(res.body.createdAt).toBe(read.body.createdAt);
    expect(await count()).toBe(1);
  });

  it('keeps networks apart and lists every listing by network, then name', async () => {
    await put('testnet/oak.eth', validListing()).expect(200);
    await put('mainnet/ash.eth', validListing({ price: (2n ** 256n - 1n).toString() })).expect(200);
    const res = await get().expect(200);
    expect(res.body.map((l: { network: string; parentName: string }) => `${l.network}/${l.parentName}`)).toEqual([
      'mainnet/ash.eth',
      'mainnet/oak.eth',
      'testnet/oak.eth',
    ]);
    expect(res.body[0].price).toBe('115792089237316195423570985008687907853269984665640564039457584007913129639935');
    expect((await get('/testnet/oak.eth').expect(200)).body.active).toBe(true); // active defaults to true
  });

  it('deletes one listing (204), then 404 LISTING_NOT_FOUND for it', async () => {
    await del('testnet/OAK.eth').expect(204);
    const again = await del('testnet/oak.eth').expect(404);
    expect(again.body).toMatchObject({ code: 'LISTING_NOT_FOUND', status: 404 });
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect((await get('/testnet/oak.eth').expect(404)).body.code).toBe('LISTING_NOT_FOUND');
    expect((await get('/mainnet/oak.eth').expect(200)).body.network).toBe('mainnet');
  });

  describe('400 names the bad field and writes nothing', () => {
    const cases: [string, string, unknown, string][] = [
      ['an unknown network', 'base/oak.eth', validListing(), 'network'],
      ['a capitalised network', 'MAINNET/oak.eth', validListing(), 'network'],
      ['a one-label parent', 'mainnet/eth', validListing(), 'parentName'],
      ['an invalid parent', 'mainnet/a..eth', validListing(), 'parentName'],
      ['a number price', 'mainnet/pine.eth', validListing({ price: 5 }), 'price'],
      ['a negative price', 'mainnet/pine.eth', validListing({ price: '-5' }), 'price'],
      ['a price of 2^256', 'mainnet/pine.eth', validListing({ price: (2n ** 256n).toString() }), 'price'],
      ['a fractional fee', 'mainnet/pine.eth', validListing({ fee: '0.5' }), 'fee'],
      ['a missing fee', 'mainnet/pine.eth', validListing({ fee: undefined }), 'fee'],
      ['a bad receiver', 'mainnet/pine.eth', validListing({ paymentReceiver: '0x123' }), 'paymentReceiver'],
      [
        'a receiver with a wrong checksum',
        'mainnet/pine.eth',
        validListing({ paymentReceiver: '0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }),
        'paymentReceiver',
      ],
      ['a string expirable', 'mainnet/pine.eth', validListing({ expirable: 'true' }), 'expirable'],
      ['fuses over uint32', 'mainnet/pine.eth', validListing({ fuses: 4294967296 }), 'fuses'],
      ['IS_DOT_ETH', 'mainnet/pine.eth', validListing({ fuses: 131072 }), 'fuses'],
      ['CANNOT_UNWRAP without PCC', 'mainnet/pine.eth', validListing({ fuses: 1 }), 'fuses'],
      ['a length key 0', 'mainnet/pine.eth', validListing({ lengthPrices: { '0': '1' } }), 'lengthPrices'],
      ['a length price number', 'mainnet/pine.eth', validListing({ lengthPrices: { '1': 1 } }), 'lengthPrices'],
      ['a reserved label with a dot', 'mainnet/pine.eth', validListing({ reservedLabels: ['a.b'] }), 'reservedLabels'],
      ['null active', 'mainnet/pine.eth', validListing({ active: null }), 'active'],
      ['an unknown field', 'mainnet/pine.eth', validListing({ currency: 'ETH' }), 'currency'],
    ];
    it.each(cases)('%s', async (_, path, body, field) => {
      const res = await put(path, body).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await get('/mainnet/pine.eth')).status).not.toBe(200);
    });

    it('a body that is not a JSON object, and malformed JSON', async () => {
      expect((await put('mainnet/pine.eth', [1, 2]).expect(400)).body.code).toBe('VALIDATION_FAILED');
      const res = await request(t.http)
        .put('/api/v1/admin/listings/mainnet/pine.eth')
        .set('x-admin-token', ADMIN_TOKEN)
        .set('content-type', 'application/json')
        .send('{"price": ')
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });

    it('GET and DELETE check the path too', async () => {
      expect((await get('/goerli/oak.eth').expect(400)).body.errors[0].field).toBe('network');
      expect((await del('mainnet/a_b.eth').expect(400)).body.errors[0].field).toBe('parentName');
    });
  });

  it('401 without the admin token or with a wrong one, for every route', async () => {
    for (const token of [null, '', 'wrong-token-wrong-token']) {
      expect((await put('mainnet/pine.eth', validListing(), token).expect(401)).body.code).toBe('UNAUTHORIZED');
      await get('', token).expect(401);
      await get('/mainnet/oak.eth', token).expect(401);
      await del('mainnet/oak.eth', token).expect(401);
    }
    expect((await get('/mainnet/oak.eth').expect(200)).body.parentName).toBe('oak.eth');
  });
});

describe('admin listings without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_TOKEN: undefined, DATA_DIR: mkdtempSync(join(tmpdir(), 'listings-e2e-')) });
  });
  afterAll(() => t.close());

  it('answers 404 on every admin listing route', async () => {
    await request(t.http).get('/api/v1/admin/listings').set('x-admin-token', ADMIN_TOKEN).expect(404);
    await request(t.http)
      .put('/api/v1/admin/listings/mainnet/oak.eth')
      .set('x-admin-token', ADMIN_TOKEN)
      .send(validListing())
      .expect(404);
    await request(t.http).delete('/api/v1/admin/listings/mainnet/oak.eth').expect(404);
  });
});

describe('GET /api/v1/listing/network/{MAINNET|SEPOLIA}/name/{name} (the mint SDK listing lookup)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'listings-e2e-')) });
    const put = (path: string, body: object) =>
      request(t.http).put(`/api/v1/admin/listings/${path}`).set('x-admin-token', ADMIN_TOKEN).send(body).expect(200);
    await put('mainnet/oak.eth', validListing());
    await put('testnet/pine.eth', validListing());
    await put('mainnet/ash.eth', validListing({ active: false }));
  });
  afterAll(() => t.close());

  it('answers an active listing as an L1 listing, without a token, normalising the name', async () => {
    const res = await request(t.http).get('/api/v1/listing/network/MAINNET/name/Oak.eth').expect(200);
    expect(res.body).toEqual({ name: 'oak.eth', nameNetwork: 'MAINNET', type: 'L1' });
    const testnet = await request(t.http).get('/api/v1/listing/network/SEPOLIA/name/pine.eth').expect(200);
    expect(testnet.body).toEqual({ name: 'pine.eth', nameNetwork: 'SEPOLIA', type: 'L1' });
  });

  it('404 LISTING_NOT_FOUND for no listing, an inactive one, or the other network', async () => {
    for (const path of ['MAINNET/birch.eth', 'MAINNET/ash.eth', 'SEPOLIA/oak.eth', 'MAINNET/pine.eth']) {
      const res = await request(t.http).get(`/api/v1/listing/network/${path}`.replace(/\/([^/]+)$/, '/name/$1'));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('LISTING_NOT_FOUND');
    }
  });

  it('400 for an unknown network or a name that is not one', async () => {
    const net = await request(t.http).get('/api/v1/listing/network/BASE/name/oak.eth').expect(400);
    expect(net.body.errors[0].field).toBe('network');
    const name = await request(t.http).get('/api/v1/listing/network/MAINNET/name/eth').expect(400);
    expect(name.body.errors[0].field).toBe('name');
  });
});
