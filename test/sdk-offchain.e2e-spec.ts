import { AddressInfo } from 'node:net';
import { ChainName, createOffchainClient, OffchainClient } from '@thenamespace/offchain-manager';
import { createTestApp, TestApp } from './support/test-app';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** What axios rejects with on an HTTP error: the status and our problem body. */
interface HttpFailure {
  response: { status: number; data: { code: string; errors?: { field: string; message: string }[] } };
}

/**
 * The public Namespace SDK (@thenamespace/offchain-manager) as a client of the running service, over HTTP.
 * Where the SDK and docs/reference.md disagree the reference stands; docs/integrators.md (the offchain SDK)
 * lists each difference, and these tests pin what an SDK user sees.
 */
describe('@thenamespace/offchain-manager against the running service', () => {
  let t: TestApp;
  let writer: OffchainClient;
  let reader: OffchainClient;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const key = (await t.issueKey(['oak.eth'])).key;
    // backendUri replaces the mode's default host (mode is then ignored); the SDK appends /api/v1/… itself.
    writer = createOffchainClient({ backendUri: url, defaultApiKey: key });
    // Reads need no key: the read-only client of the specification.
    reader = createOffchainClient({ backendUri: url });
  });
  afterAll(() => t.close());

  const failure = async (promise: Promise<unknown>): Promise<HttpFailure['response']> => {
    try {
      await promise;
    } catch (e) {
      return (e as HttpFailure).response;
    }
    throw new Error('expected the SDK call to fail');
  };

  it('isSubnameAvailable: true for a name nobody has', async () => {
    expect(await reader.isSubnameAvailable('alice.oak.eth')).toEqual({ isAvailable: true });
  });

  it('createSubname creates it with every record kind', async () => {
    await expect(
      writer.createSubname({
        parentName: 'oak.eth',
        label: 'Alice',
        texts: [{ key: 'com.github', value: 'alice' }],
        addresses: [{ chain: ChainName.Ethereum, value: ETH.toLowerCase() }],
        metadata: [{ key: 'tier', value: 'gold' }],
        owner: ETH,
        contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
        ttl: 600,
      }),
    ).resolves.toBeUndefined();
    expect(await reader.isSubnameAvailable('alice.oak.eth')).toEqual({ isAvailable: false });
  });

  it('getSingleSubname returns the Subname; addresses are keyed by coin name (eth), not coin type (60)', async () => {
    const subname = await reader.getSingleSubname('alice.oak.eth');
    expect(subname).toMatchObject({
      fullName: 'alice.oak.eth',
      parentName: 'oak.eth',
      label: 'alice',
      texts: { 'com.github': 'alice' },
      addresses: { eth: ETH },
      metadata: { tier: 'gold' },
      owner: ETH,
      ttl: 600,
      namehash: '0xcdf7581bf874b959e7c4d1988cda7ec94c543a2232b18c18114f4b7ed87baa68',
    });
    expect(subname!.addresses['60']).toBeUndefined();
    expect(await reader.getTextRecord('alice.oak.eth', 'com.github')).toEqual({ record: 'alice' });
    expect(await reader.getDataRecords('alice.oak.eth')).toEqual({ tier: 'gold' });
  });

  it('getSingleSubname of an unknown name rejects with our 404 (the SDK means to return null but does not await)', async () => {
    const res = await failure(reader.getSingleSubname('nobody.oak.eth'));
    expect(res.status).toBe(404);
    expect(res.data.code).toBe('SUBNAME_NOT_FOUND');
  });

  it('ChainName.Base sends the raw chain id 8453: refused, naming the ENSIP-11 coin type 2147492101', async () => {
    const res = await failure(
      writer.createSubname({
        parentName: 'oak.eth',
        label: 'basey',
        addresses: [{ chain: ChainName.Base, value: ETH }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.data.code).toBe('VALIDATION_FAILED');
    expect(res.data.errors).toEqual([{ field: 'addresses[0].coin', message: expect.stringContaining('2147492101') }]);
    expect(await reader.isSubnameAvailable('basey.oak.eth')).toEqual({ isAvailable: true });
  });

  it('ChainName.Polygon sends 137, which is SLIP-44 RSK (rbtc): a checksummed 0x address is refused, lower case is stored as rbtc', async () => {
    const refused = await failure(
      writer.createSubname({
        parentName: 'oak.eth',
        label: 'poly',
        addresses: [{ chain: ChainName.Polygon, value: ETH }],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.errors).toEqual([
      { field: 'addresses[0].value', message: 'is not a valid rbtc address (fails its EIP-55 checksum)' },
    ]);
    await writer.createSubname({
      parentName: 'oak.eth',
      label: 'poly',
      addresses: [{ chain: ChainName.Polygon, value: ETH.toLowerCase() }],
    });
    const stored = await reader.getSingleSubname('poly.oak.eth');
    expect(Object.keys(stored!.addresses)).toEqual(['rbtc']);
    expect(stored!.addresses.rbtc.toLowerCase()).toBe(ETH.toLowerCase());
    await writer.deleteSubname('poly.oak.eth');
  });

  it('addAddressRecord works once on a subname without addresses; setDefaultEvmAddress sends raw chain ids and is refused', async () => {
    await writer.createSubname({ parentName: 'oak.eth', label: 'addr' });
    await writer.addAddressRecord('addr.oak.eth', ChainName.Ethereum, ETH);
    expect((await reader.getSingleSubname('addr.oak.eth'))!.addresses).toEqual({ eth: ETH });
    // Now the subname has an address, which the SDK reads back as coin parseInt("eth") = NaN.
    const second = await failure(
      writer.addAddressRecord('addr.oak.eth', ChainName.Solana, '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'),
    );
    expect(second.status).toBe(400);
    // {"501": sol, "eth": …}: the integer-like key comes first, so the refused entry is addresses[1].
    expect(second.data.errors).toEqual([{ field: 'addresses[1].coin', message: expect.any(String) }]);
    await writer.updateSubname('addr.oak.eth', {});
    const evm = await failure(writer.setDefaultEvmAddress('addr.oak.eth', ETH));
    expect(evm.status).toBe(400);
    expect(evm.data.errors!.map((e) => e.message).join(' ')).toContain('ENSIP-11 coin type 2147492101');
    expect((await reader.getSingleSubname('addr.oak.eth'))!.addresses).toEqual({});
    await writer.deleteSubname('addr.oak.eth');
  });

  it('addTextRecord on a subname with addresses is refused: the SDK re-sends "eth" as coin parseInt("eth") = NaN', async () => {
    const res = await failure(writer.addTextRecord('alice.oak.eth', 'url', 'https://alice.example'));
    expect(res.status).toBe(400);
    expect(res.data.errors).toEqual([{ field: 'addresses[0].coin', message: expect.any(String) }]);
    const unchanged = await reader.getSingleSubname('alice.oak.eth');
    expect(unchanged!.texts).toEqual({ 'com.github': 'alice' });
    expect(unchanged!.addresses).toEqual({ eth: ETH });
  });

  it('getFilteredSubnames posts our search body and reads our page', async () => {
    await writer.createSubname({
      parentName: 'oak.eth',
      label: 'alicia',
      metadata: [{ key: 'tier', value: 'silver' }],
    });
    await writer.createSubname({ parentName: 'team.oak.eth', label: 'bob' });
    const page = await reader.getFilteredSubnames({
      parentName: 'oak.eth',
      labelSearch: 'ALI',
      owner: ETH.toLowerCase(),
      metadata: { tier: 'gold' },
      page: 1,
      size: 10,
    });
    expect(page).toMatchObject({ page: 1, size: 10, totalItems: 1 });
    expect(page.items.map((s) => s.fullName)).toEqual(['alice.oak.eth']);
    expect(page.items[0]).toEqual(await reader.getSingleSubname('alice.oak.eth'));

    const all = await reader.getFilteredSubnames({ parentNames: ['oak.eth', 'team.oak.eth'], size: 2 });
    expect(all).toMatchObject({ page: 1, size: 2, totalItems: 3 });
    expect(all.items.map((s) => s.fullName)).toEqual(['alice.oak.eth', 'alicia.oak.eth']);
    const second = await reader.getFilteredSubnames({ parentNames: ['oak.eth', 'team.oak.eth'], page: 2, size: 2 });
    expect(second.items.map((s) => s.fullName)).toEqual(['bob.team.oak.eth']);
  });

  it('updateSubname replaces what it is given, and also empties addresses: it always sends addresses ([] if none)', async () => {
    const updated = await writer.updateSubname('alice.oak.eth', {
      texts: [{ key: 'url', value: 'https://alice.example' }],
      ttl: 300,
    });
    expect(updated).toMatchObject({
      fullName: 'alice.oak.eth',
      texts: { url: 'https://alice.example' },
      ttl: 300,
      metadata: { tier: 'gold' },
      owner: ETH,
      contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
      addresses: {},
    });
  });

  it('addTextRecord / deleteTextRecord / addDataRecord work on a subname without addresses', async () => {
    await writer.addTextRecord('alice.oak.eth', 'com.github', 'alice');
    expect(await reader.getTextRecords('alice.oak.eth')).toEqual({
      url: 'https://alice.example',
      'com.github': 'alice',
    });
    await writer.deleteTextRecord('alice.oak.eth', 'url');
    expect(await reader.getTextRecords('alice.oak.eth')).toEqual({ 'com.github': 'alice' });
    await writer.addDataRecord('alice.oak.eth', 'team', 'red');
    expect(await reader.getDataRecords('alice.oak.eth')).toEqual({ tier: 'gold', team: 'red' });
    const found = await reader.getFilteredSubnames({ parentName: 'oak.eth', metadata: { team: 'red' } });
    expect(found.items.map((s) => s.fullName)).toEqual(['alice.oak.eth']);
    const kept = await reader.getSingleSubname('alice.oak.eth');
    expect(kept).toMatchObject({ owner: ETH, ttl: 300, addresses: {} });
  });

  it('updateSubname with an ENSIP-9 coin (ChainName.Ethereum) sets the address again', async () => {
    const updated = await writer.updateSubname('alice.oak.eth', {
      addresses: [{ chain: ChainName.Ethereum, value: ETH }],
    });
    expect(updated).toMatchObject({ addresses: { eth: ETH }, texts: { 'com.github': 'alice' } });
  });

  it('a wrong key is our 401; a key for another parent is our 403', async () => {
    const stranger = createOffchainClient({ backendUri: url, defaultApiKey: 'sns_not-a-key' });
    const unauthorized = await failure(stranger.createSubname({ parentName: 'oak.eth', label: 'eve' }));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.data.code).toBe('UNAUTHORIZED');
    const pine = createOffchainClient({ backendUri: url, defaultApiKey: (await t.issueKey(['pine.eth'])).key });
    const forbidden = await failure(pine.deleteSubname('alice.oak.eth'));
    expect(forbidden.status).toBe(403);
    expect(forbidden.data.code).toBe('FORBIDDEN_PARENT');
  });

  it('deleteSubname deletes; the name is available again, and a second delete is our 404', async () => {
    await expect(writer.deleteSubname('alice.oak.eth')).resolves.toBeUndefined();
    expect(await reader.isSubnameAvailable('alice.oak.eth')).toEqual({ isAvailable: true });
    const page = await reader.getFilteredSubnames({ parentName: 'oak.eth' });
    expect(page.items.map((s) => s.fullName)).toEqual(['alicia.oak.eth']);
    const again = await failure(writer.deleteSubname('alice.oak.eth'));
    expect(again.status).toBe(404);
    expect(again.data.code).toBe('SUBNAME_NOT_FOUND');
  });
});
