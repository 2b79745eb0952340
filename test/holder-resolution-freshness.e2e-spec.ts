import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { HolderClient, nowSeconds, type TypedDataSigner } from './support/holder-client';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { answerAfterReadThrough, cachedAnswer } from './support/read-through';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';
import { startUniversalEns, UNIVERSAL_CHAIN_ID, UniversalEns } from './support/universal-ens';

const NAME = 'alice.oak.eth';

/**
 * A holder's edit reaches wallets (CONTRACT sections 9 and 15), the way wallets resolve: ethers' resolveName and
 * viem's getEnsAddress through the Universal Resolver, whose resolver's gateway is replica B, while the holder's
 * signed edits go to replica A. B has the old answer cached before each edit. Asserted causally, not against a
 * clock: B answers the old address until it reads the name through (evicted by the change notification, or its
 * entry expired), and that read answers the edit; the entry's lifetime is record-cache.spec.ts's, with a held clock.
 */
describe('holder edits through the Universal Resolver: resolved by ethers and viem once B reads the name again', () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let ens: UniversalEns;
  let holders: HolderClient;
  const alice = Wallet.createRandom();
  const heir = Wallet.createRandom();
  let issuedAt = nowSeconds();

  const viemAddress = () => ens.viem.getEnsAddress({ name: NAME });
  const ethersAddress = () => ens.ethers.resolveName(NAME);
  const ethersText = async (key: string) => (await ens.ethers.getResolver(NAME))!.getText(key);

  /** What ethers resolves once B has read the name through after the edit (evicted by its notification, or expired). */
  const resolvedAfterEdit = (previous: string) => answerAfterReadThrough(b.url, 'subnames', previous, ethersAddress);

  const setEth = (signer: TypedDataSigner, value: string, texts: { key: string; value: string }[] = []) =>
    holders.act('records', signer, {
      name: NAME,
      texts,
      addresses: [{ coin: 60, value }],
      contenthash: '',
      issuedAt: ++issuedAt,
    });

  beforeAll(async () => {
    await resetTestDatabase();
    const signer = Wallet.createRandom();
    const env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'holder-fresh-')),
      CCIP_SIGNER_KEY: signer.privateKey,
      PUBLIC_URL: 'https://subnames.example.com',
      ENS_CHAIN_ID: String(UNIVERSAL_CHAIN_ID),
    };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    ens = await startUniversalEns(`${b.url}/api/v1/ccip-read/{sender}/{data}.json`, signer, ['oak.eth']);
    holders = new HolderClient(a.url);

    const issued = await fetch(`${a.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'holders', parentNames: ['oak.eth'] }),
    });
    const { key } = (await issued.json()) as { key: string };
    const policy = await fetch(`${a.url}/api/v1/policies/oak.eth`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify({ claims: 'open' }),
    });
    expect(policy.status).toBe(200);
    const claimed = await holders.claim(alice, NAME, {
      addresses: [{ coin: 60, value: alice.address }],
      issuedAt,
    });
    expect(claimed.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await ens?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("the holder's new ETH address, set on A, is what ethers and viem resolve through B", async () => {
    // B holds alice's address in its cache before the edit.
    await cachedAnswer(b.url, 'subnames', alice.address, ethersAddress);
    expect(await viemAddress()).toBe(alice.address);

    const next = Wallet.createRandom().address;
    const set = await setEth(alice, next, [{ key: 'description', value: 'moved' }]);
    expect(set.status).toBe(200);
    expect(await resolvedAfterEdit(alice.address)).toBe(next);
    // B's entry is now the edited subname: every client resolves the edit.
    expect(await viemAddress()).toBe(next);
    expect(await ethersText('description')).toBe('moved');
  });

  it("a transfer keeps what resolves; the new holder's edit is then resolved", async () => {
    // Resolution answers records (addr, text, contenthash), not the owner: a transfer itself changes no answer.
    const before = await ethersAddress();
    const moved = await holders.act('transfer', alice, { name: NAME, newOwner: heir.address, issuedAt: ++issuedAt });
    expect(moved.status).toBe(200);
    expect(moved.body.owner).toBe(heir.address);
    expect(await ethersAddress()).toBe(before);
    expect(await viemAddress()).toBe(before);

    const refused = await setEth(alice, alice.address);
    expect(refused.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const set = await setEth(heir, heir.address);
    expect(set.status).toBe(200);
    expect(await resolvedAfterEdit(before!)).toBe(heir.address);
    expect(await viemAddress()).toBe(heir.address);
  });
});
