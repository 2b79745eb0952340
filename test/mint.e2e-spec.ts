import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namehash, Signature, verifyTypedData, Wallet } from 'ethers';
import request from 'supertest';
import { Metrics } from '../src/metrics/metrics';
import { ADMIN_TOKEN, createTestApp, expectSignedOnTheThread, TestApp } from './support/test-app';

const MINTER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OWNER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const RECEIVER = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const HALF_N = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');
const YEAR = 365 * 24 * 60 * 60;

const mainnetKey = Wallet.createRandom();
const testnetKey = Wallet.createRandom();
/** The test signers, and a data folder of the test's own. */
const signerEnv = () => ({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'mint-e2e-')),
  MINT_MAINNET_SIGNER_KEY: mainnetKey.privateKey,
  MINT_TESTNET_SIGNER_KEY: testnetKey.privateKey,
});

describe('POST /api/v1/mint and /api/v1/minting-parameters', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({
      ...signerEnv(),
      MINT_SIGNATURE_TTL_SECONDS: '900',
    });
    apiKey = (await t.issueKey(['oak.eth', 'pine.eth'])).key;
    const put = (path: string, body: object) =>
      request(t.http).put(`/api/v1/admin/listings/${path}`).set('x-admin-token', ADMIN_TOKEN).send(body).expect(200);
    const base = { fee: '1000000000000000', paymentReceiver: RECEIVER, fuses: 65536 };
    await put('mainnet/oak.eth', {
      ...base,
      price: '5000000000000000',
      lengthPrices: { '1': '900000000000000000', '3': '300000000000000000' },
      expirable: false,
      reservedLabels: ['admin', 'Www'],
    });
    await put('testnet/pine.eth', { ...base, price: '2000000000000000', expirable: true, fuses: 65537 });
    await put('mainnet/ash.eth', { ...base, price: '0', fee: '0', expirable: true, active: false });
    await put('mainnet/free.eth', { ...base, price: '0', fee: '0', expirable: false, fuses: 0 });
  });
  afterAll(() => t.close());

  const mint = (body: unknown, path = '/api/v1/mint') =>
    request(t.http)
      .post(path)
      .send(body as object);
  const signer = async (isTestnet: boolean) =>
    (await request(t.http).get(`/api/v1/mint/signer?isTestnet=${isTestnet}`).expect(200)).body;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  describe('200: content as the contract table says, signed by the network signer', () => {
    it('mainnet, non-expirable: normalised label, namehash parent, owner = minter, expiry 4294967295', async () => {
      const before = nowSeconds();
      const res = await mint({ label: 'Alice', parentName: 'Oak.ETH', minterAddress: MINTER.toLowerCase() }).expect(
        200,
      );
      const after = nowSeconds();
      expect(res.headers['content-type']).toContain('application/json');
      expect(Object.keys(res.body).sort()).toEqual(['content', 'signature']);
      const { content, signature } = res.body;
      expect(content).toEqual({
        label: 'alice',
        parentNode: namehash('oak.eth'),
        owner: MINTER,
        price: '5000000000000000',
        fee: '1000000000000000',
        paymentReceiver: RECEIVER,
        verifiedMinter: MINTER,
        signatureExpiry: expect.any(Number),
        expiry: 4294967295,
        fuses: 65536,
      });
      expect(content.signatureExpiry).toBeGreaterThanOrEqual(before + 900);
      expect(content.signatureExpiry).toBeLessThanOrEqual(after + 900);
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
      expect(BigInt(Signature.from(signature).s) <= HALF_N).toBe(true);
      const s = await signer(false);
      expect(s.address).toBe(mainnetKey.address);
      expect(verifyTypedData(s.domain, s.types, content, signature)).toBe(mainnetKey.address);
    });

    it('testnet, expirable: price and fee times the years, expiry years of 365 days, the testnet signer', async () => {
      const before = nowSeconds();
      const res = await mint({
        label: 'bob',
        parentName: 'pine.eth',
        minterAddress: MINTER,
        owner: OWNER.toLowerCase(),
        expiryInYears: 3,
        isTestnet: true,
      }).expect(200);
      const after = nowSeconds();
      const { content, signature } = res.body;
      expect(content).toMatchObject({
        label: 'bob',
        parentNode: namehash('pine.eth'),
        owner: OWNER,
        verifiedMinter: MINTER,
        price: '6000000000000000',
        fee: '3000000000000000',
        fuses: 65537,
      });
      expect(content.expiry - content.signatureExpiry).toBe(3 * YEAR - 900);
      expect(content.expiry).toBeGreaterThanOrEqual(before + 3 * YEAR);
      expect(content.expiry).toBeLessThanOrEqual(after + 3 * YEAR);
      const s = await signer(true);
      expect(s).toMatchObject({ address: testnetKey.address, chainId: 11155111, primaryType: 'MintContext' });
      expect(verifyTypedData(s.domain, s.types, content, signature)).toBe(testnetKey.address);
    });

    it('per-length prices by code points: one character, one emoji, three characters; years ignored when not expirable', async () => {
      const price = async (label: string) =>
        (await mint({ label, parentName: 'oak.eth', minterAddress: MINTER, expiryInYears: 100 }).expect(200)).body
          .content.price;
      expect(await price('x')).toBe('900000000000000000');
      expect(await price('🙂')).toBe('900000000000000000');
      expect(await price('abc')).toBe('300000000000000000');
      expect(await price('abcd')).toBe('5000000000000000');
    });

    it('100 years on an expirable listing', async () => {
      const res = await mint({
        label: 'long',
        parentName: 'pine.eth',
        minterAddress: MINTER,
        expiryInYears: 100,
        isTestnet: true,
      }).expect(200);
      expect(res.body.content).toMatchObject({ price: '200000000000000000', fee: '100000000000000000' });
      expect(res.body.content.expiry - res.body.content.signatureExpiry).toBe(100 * YEAR - 900);
    });

    it('a zero price and fee, zero fuses', async () => {
      const res = await mint({ label: 'gift', parentName: 'free.eth', minterAddress: MINTER }).expect(200);
      expect(res.body.content).toMatchObject({ price: '0', fee: '0', fuses: 0, expiry: 4294967295 });
    });

    it('serves the same handler at /minting-parameters (the SDK path), and counts signatures', async () => {
      const count = async () =>
        (await t.app.get(Metrics, { strict: false }).signaturesMade.get()).values.find(
          (v) => v.labels.network === 'mainnet',
        )?.value ?? 0;
      const before = await count();
      const res = await mint(
        { label: 'carol', parentName: 'oak.eth', minterAddress: MINTER },
        '/api/v1/minting-parameters',
      ).expect(200);
      expect(res.body.content.label).toBe('carol');
      expect(await count()).toBe(before + 1);
    });

    it('writes nothing: minting parameters are not a subname', async () => {
      expect(Number((await t.dataSource.query('SELECT count(*) AS n FROM subnames'))[0].n)).toBe(0);
    });
  });

  describe('404 LISTING_NOT_FOUND', () => {
    it.each([
      ['no listing', { parentName: 'birch.eth' }],
      ['an inactive listing', { parentName: 'ash.eth' }],
      ['the other network (mainnet listing, testnet asked)', { parentName: 'oak.eth', isTestnet: true }],
      ['the other network (testnet listing, mainnet asked)', { parentName: 'pine.eth', isTestnet: false }],
    ])('%s', async (_, over) => {
      const res = await mint({ label: 'alice', minterAddress: MINTER, ...over }).expect(404);
      expect(res.body).toMatchObject({ code: 'LISTING_NOT_FOUND', status: 404 });
      expect(res.headers['content-type']).toContain('application/problem+json');
    });

    it('comes before the reserved check', async () => {
      const res = await mint({ label: 'admin', parentName: 'oak.eth', minterAddress: MINTER, isTestnet: true });
      expect(res.status).toBe(404);
    });
  });

  describe('409', () => {
    it('SUBNAME_RESERVED for a reserved label in any letter case', async () => {
      for (const label of ['admin', 'ADMIN', 'www']) {
        const res = await mint({ label, parentName: 'oak.eth', minterAddress: MINTER }).expect(409);
        expect(res.body).toMatchObject({ code: 'SUBNAME_RESERVED', status: 409 });
      }
    });

    it('SUBNAME_TAKEN when an offchain subname of that full name exists; reserved is checked first', async () => {
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', apiKey)
        .send({ parentName: 'oak.eth', label: 'dave' })
        .expect(201);
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', apiKey)
        .send({ parentName: 'oak.eth', label: 'admin' })
        .expect(201);
      const taken = await mint({ label: 'DAVE', parentName: 'oak.eth', minterAddress: MINTER }).expect(409);
      expect(taken.body).toMatchObject({ code: 'SUBNAME_TAKEN', status: 409 });
      expect(taken.body.detail).toContain('dave.oak.eth');
      const both = await mint({ label: 'admin', parentName: 'oak.eth', minterAddress: MINTER }).expect(409);
      expect(both.body.code).toBe('SUBNAME_RESERVED');
      // a subname under another parent does not take the label here
      await mint({ label: 'dave', parentName: 'pine.eth', minterAddress: MINTER, isTestnet: true }).expect(200);
    });
  });

  describe('400 names the bad field', () => {
    const ok = { label: 'alice', parentName: 'oak.eth', minterAddress: MINTER };
    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing label', { label: undefined }, 'label'],
      ['an empty label', { label: '' }, 'label'],
      ['a label of 256 characters', { label: 'a'.repeat(256) }, 'label'],
      ['a label with a dot', { label: 'a.b' }, 'label'],
      ['a label that does not normalise', { label: 'a_b' }, 'label'],
      ['a number label', { label: 5 }, 'label'],
      ['a missing parent', { parentName: undefined }, 'parentName'],
      ['a one-label parent', { parentName: 'eth' }, 'parentName'],
      ['a parent of 256 characters', { parentName: `${'a'.repeat(252)}.eth` }, 'parentName'],
      ['a missing minter', { minterAddress: undefined }, 'minterAddress'],
      ['a short minter', { minterAddress: '0x1234' }, 'minterAddress'],
      [
        'a minter with a bad checksum',
        { minterAddress: '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
        'minterAddress',
      ],
      ['0 years', { expiryInYears: 0 }, 'expiryInYears'],
      ['101 years', { expiryInYears: 101 }, 'expiryInYears'],
      ['1.5 years', { expiryInYears: 1.5 }, 'expiryInYears'],
      ['years as a string', { expiryInYears: '2' }, 'expiryInYears'],
      ['null years', { expiryInYears: null }, 'expiryInYears'],
      ['isTestnet as a string', { isTestnet: 'true' }, 'isTestnet'],
      ['isTestnet as 1', { isTestnet: 1 }, 'isTestnet'],
      ['owner as an object', { owner: { address: OWNER } }, 'owner'],
      ['owner as an array', { owner: [OWNER] }, 'owner'],
      ['owner as a number', { owner: 1 }, 'owner'],
      ['owner as null', { owner: null }, 'owner'],
      ['owner not an address', { owner: 'alice.eth' }, 'owner'],
      ['an unknown field', { records: [] }, 'records'],
    ];
    it.each(cases)('%s', async (_, over, field) => {
      const res = await mint({ ...ok, ...over }).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(res.headers['content-type']).toContain('application/problem+json');
    });

    it('lists every bad field at once', async () => {
      const res = await mint({ label: '', parentName: 'x', minterAddress: 'y', expiryInYears: 0 }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['expiryInYears', 'label', 'minterAddress', 'parentName'].sort(),
      );
    });

    it('malformed JSON, a non-object body, an empty body', async () => {
      const bad = await request(t.http)
        .post('/api/v1/mint')
        .set('content-type', 'application/json')
        .send('{"label": "alice",')
        .expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
      expect((await mint([ok]).expect(400)).body.code).toBe('VALIDATION_FAILED');
      expect((await mint('"alice"').set('content-type', 'application/json').expect(400)).body.code).toBe(
        'VALIDATION_FAILED',
      );
      await request(t.http).post('/api/v1/mint').expect(400);
    });

    it('no input gets a 500', async () => {
      const weird: unknown[] = [
        { ...ok, label: '\u0000' },
        { ...ok, label: '\ud800' },
        { ...ok, parentName: '.'.repeat(200) },
        { ...ok, label: '💩'.repeat(70) },
        { ...ok, minterAddress: { toString: 'x' } },
        { ...ok, expiryInYears: 1e308 },
        { ...ok, expiryInYears: -0 },
        { __proto__: { label: 'x' } },
        { ...ok, constructor: 'x' },
      ];
      for (const body of weird) {
        const res = await mint(body);
        expect(res.status).toBeLessThan(500);
      }
    });
  });

  it('signed on the signing thread, as production signs: signing_thread_up 1 after its signatures', async () => {
    await expectSignedOnTheThread(t);
  });
});

describe('GET /api/v1/mint/estimate and /api/v1/minting-parameters/estimated', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...signerEnv(),
    });
    await request(t.http)
      .put('/api/v1/admin/listings/mainnet/oak.eth')
      .set('x-admin-token', ADMIN_TOKEN)
      .send({
        price: '10000000000000000',
        fee: '2500000000000000',
        paymentReceiver: RECEIVER,
        expirable: true,
        fuses: 65536,
        reservedLabels: ['admin'],
      })
      .expect(200);
    const { key } = await t.issueKey(['oak.eth']);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'admin' });
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'eve' });
  });
  afterAll(() => t.close());

  const estimate = (query: string, path = '/api/v1/mint/estimate') => request(t.http).get(`${path}?${query}`);

  it('prices the years and says it can mint', async () => {
    const res = await estimate(`label=Alice&parentName=oak.eth&minterAddress=${MINTER}&expiryInYears=2`).expect(200);
    expect(res.body).toEqual({
      canMint: true,
      price: '20000000000000000',
      fee: '5000000000000000',
      estimatedPriceEth: 0.02,
      estimatedFeeEth: 0.005,
      isStandardFee: true,
      validationErrors: [],
    });
    const same = await estimate(
      `label=Alice&parentName=oak.eth&minterAddress=${MINTER}&expiryInYears=2&isTestnet=false`,
      '/api/v1/minting-parameters/estimated',
    ).expect(200);
    expect(same.body).toEqual(res.body);
  });

  it('reports SUBNAME_RESERVED, SUBNAME_TAKEN and LISTING_NOT_FOUND instead of refusing', async () => {
    const taken = await estimate('label=eve&parentName=oak.eth').expect(200);
    expect(taken.body).toMatchObject({
      canMint: false,
      validationErrors: ['SUBNAME_TAKEN'],
      price: '10000000000000000',
    });
    const both = await estimate('label=ADMIN&parentName=oak.eth').expect(200);
    expect(both.body.validationErrors).toEqual(['SUBNAME_RESERVED', 'SUBNAME_TAKEN']);
    const none = await estimate('label=alice&parentName=oak.eth&isTestnet=true').expect(200);
    expect(none.body).toEqual({
      canMint: false,
      price: '0',
      fee: '0',
      estimatedPriceEth: 0,
      estimatedFeeEth: 0,
      isStandardFee: false,
      validationErrors: ['LISTING_NOT_FOUND'],
    });
  });

  it.each([
    ['isTestnet=maybe', 'isTestnet'],
    ['isTestnet=1', 'isTestnet'],
    ['isTestnet=', 'isTestnet'],
    ['expiryInYears=two', 'expiryInYears'],
    ['expiryInYears=1.5', 'expiryInYears'],
    ['expiryInYears=0', 'expiryInYears'],
    ['expiryInYears=101', 'expiryInYears'],
    ['expiryInYears=-1', 'expiryInYears'],
    ['minterAddress=0x12', 'minterAddress'],
    ['label=a.b', 'label'],
    ['label=alice&label=bob', 'label'],
    ['parentName=eth', 'parentName'],
    ['unknown=1', 'unknown'],
  ])('400 for %s', async (query, field) => {
    const base = new URLSearchParams({ label: 'alice', parentName: 'oak.eth' });
    const given = new URLSearchParams(query);
    for (const k of new Set(given.keys())) base.delete(k);
    const res = await estimate(`${base.toString()}&${query}`).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('400 when label or parentName is missing', async () => {
    const res = await estimate('').expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['label', 'parentName']);
  });
});

describe('GET /api/v1/mint/signer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      ...signerEnv(),
      MINT_TESTNET_CHAIN_ID: '17000',
      MINT_TESTNET_CONTRACT: '0x000000000000000000000000000000000000dEaD',
    });
  });
  afterAll(() => t.close());

  it('answers the mainnet signer by default, with the domain and types a wallet needs', async () => {
    const res = await request(t.http).get('/api/v1/mint/signer').expect(200);
    expect(res.body).toEqual({
      address: mainnetKey.address,
      chainId: 1,
      verifyingContract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad',
      domain: {
        name: 'namespace',
        version: '1',
        chainId: 1,
        verifyingContract: '0xCf7625A2fb60B0822444E5964b4Ce80c148e7Fad',
      },
      types: {
        MintContext: [
          { name: 'label', type: 'string' },
          { name: 'parentNode', type: 'bytes32' },
          { name: 'owner', type: 'address' },
          { name: 'price', type: 'uint256' },
          { name: 'fee', type: 'uint256' },
          { name: 'paymentReceiver', type: 'address' },
          { name: 'expiry', type: 'uint256' },
          { name: 'signatureExpiry', type: 'uint256' },
          { name: 'verifiedMinter', type: 'address' },
          { name: 'fuses', type: 'uint32' },
        ],
      },
      primaryType: 'MintContext',
    });
    expect(JSON.stringify(res.body)).not.toContain(mainnetKey.privateKey.slice(2));
  });

  it('answers the configured testnet domain for isTestnet=true', async () => {
    const res = await request(t.http).get('/api/v1/mint/signer?isTestnet=true').expect(200);
    expect(res.body).toMatchObject({
      address: testnetKey.address,
      chainId: 17000,
      verifyingContract: '0x000000000000000000000000000000000000dEaD',
      domain: { chainId: 17000, verifyingContract: '0x000000000000000000000000000000000000dEaD' },
    });
    expect((await request(t.http).get('/api/v1/mint/signer?isTestnet=false').expect(200)).body.chainId).toBe(1);
  });

  it('400 for isTestnet that is not true or false', async () => {
    for (const q of ['maybe', 'TRUE', 'yes', '']) {
      const res = await request(t.http).get(`/api/v1/mint/signer?isTestnet=${q}`).expect(400);
      expect(res.body.errors[0].field).toBe('isTestnet');
    }
  });
});
