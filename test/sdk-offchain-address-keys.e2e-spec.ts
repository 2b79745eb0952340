import { AddressInfo } from 'node:net';
import { ChainName, createOffchainClient, OffchainClient } from '@thenamespace/offchain-manager';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** The SDK's record helpers re-post a read subname's addresses through parseInt: CONTRACT section 17's header. */
describe('@thenamespace/offchain-manager record helpers with x-address-keys: coin-type (setCustomHeaders)', () => {
  let t: TestApp;
  let sdk: OffchainClient;
  let reader: OffchainClient;
  const read = async () => (await reader.getSingleSubname('bob.oak.eth'))!;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    reader = createOffchainClient({ backendUri: url });
    sdk = createOffchainClient({ backendUri: url, defaultApiKey: (await t.issueKey(['oak.eth'])).key });
    sdk.setCustomHeaders({ 'x-address-keys': 'coin-type' });
    await sdk.createSubname({
      parentName: 'oak.eth',
      label: 'bob',
      addresses: [{ chain: ChainName.Ethereum, value: ETH }],
      texts: [{ key: 'url', value: 'https://bob.example' }],
    });
  });
  afterAll(() => t.close());

  it('answers addresses keyed by decimal coin type with the header, by coin name without it', async () => {
    const keyed = await request(t.http).get('/api/v1/subnames/bob.oak.eth').set('x-address-keys', 'coin-type');
    expect(keyed.body.addresses).toEqual({ '60': ETH });
    expect((await read()).addresses).toEqual({ eth: ETH });
  });

  it('every record helper succeeds unmodified on a subname that has addresses', async () => {
    await sdk.addTextRecord('bob.oak.eth', 'com.github', 'bob');
    await sdk.addAddressRecord('bob.oak.eth', ChainName.Bitcoin, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await sdk.deleteTextRecord('bob.oak.eth', 'url');
    await sdk.addDataRecord('bob.oak.eth', 'tier', 'gold');
    expect(await read()).toMatchObject({
      texts: { 'com.github': 'bob' },
      addresses: {
        eth: ETH,
        btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      },
      metadata: { tier: 'gold' },
    });
    await sdk.deleteDataRecord('bob.oak.eth', 'tier');
    await sdk.deleteAddressRecord('bob.oak.eth', ChainName.Bitcoin);
    const after = await read();
    expect([after.texts, after.addresses, after.metadata]).toEqual([{ 'com.github': 'bob' }, { eth: ETH }, {}]);
  });

  it('without the header, an address record with coin null is refused naming the header', async () => {
    const key = (await t.issueKey(['oak.eth'])).key;
    const res = await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label: 'bob', addresses: [{ coin: null, value: ETH }] })
      .expect(400);
    expect(res.body.errors).toEqual([
      { field: 'addresses[0].coin', message: expect.stringContaining('x-address-keys: coin-type') },
    ]);
  });
});
