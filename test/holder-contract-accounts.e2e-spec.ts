import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { id, Wallet } from 'ethers';
import request from 'supertest';
import { HolderClient, nowSeconds } from './support/holder-client';
import { PortalChain } from './support/portal-chain';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Holders that are contract accounts (CONTRACT section 15): the service asks the account itself, through
 * ENS_RPC_URL (the in-process chain behind loopback JSON-RPC), whether a signature is its own: ERC-1271 for a
 * deployed ContractWallet, ERC-6492 for one its factory has not deployed yet.
 */
describe('holders that are contract accounts: ERC-1271 and ERC-6492 signatures checked on chain', () => {
  let chain: PortalChain;
  let t: TestApp;
  let holders: HolderClient;
  const owner = Wallet.createRandom();
  const stranger = Wallet.createRandom();

  const stored = async (name: string) => (await request(t.http).get(`/api/v1/subnames/${name}`).expect(200)).body;

  beforeAll(async () => {
    chain = await PortalChain.start();
    t = await createTestApp({
      ...(await chain.env()),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'holder-accounts-')),
      PUBLIC_URL: 'https://subnames.example.com',
    });
    const server = await t.app.listen(0, '127.0.0.1');
    holders = new HolderClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const { key } = await t.issueKey(['oak.eth'], 10);
    await request(t.http)
      .put('/api/v1/policies/oak.eth')
      .set('x-auth-token', key)
      .send({ claims: 'open', claimsPerAddress: 5 })
      .expect(200);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it('an ERC-1271 account claims, sets records and transfers by its owner key; other keys are 401', async () => {
    const account = await chain.deployContractWallet(owner.address);
    const start = nowSeconds();

    const foreignClaim = await holders.claim(stranger, 'safe.oak.eth', { issuedAt: start }, account);
    expect(foreignClaim.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const claimed = await holders.claim(owner, 'safe.oak.eth', { issuedAt: start }, account);
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ fullName: 'safe.oak.eth', owner: account });

    const records = {
      name: 'safe.oak.eth',
      texts: [{ key: 'description', value: 'a contract account' }],
      addresses: [{ coin: 60, value: account }],
      contenthash: '',
      issuedAt: start + 1,
    };
    const refused = await holders.act('records', stranger, records);
    expect(refused.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const set = await holders.act('records', owner, records);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ texts: { description: 'a contract account' }, addresses: { eth: account } });

    const heir = Wallet.createRandom();
    const transfer = { name: 'safe.oak.eth', newOwner: heir.address, issuedAt: start + 2 };
    expect((await holders.act('transfer', stranger, transfer)).body.code).toBe('UNAUTHORIZED');
    const moved = await holders.act('transfer', owner, transfer);
    expect(moved.status).toBe(200);
    expect(moved.body.owner).toBe(heir.address);
    // Nothing refused was written: the records are the owner key's, the holder is now the heir.
    expect(await stored('safe.oak.eth')).toMatchObject({
      owner: heir.address,
      texts: { description: 'a contract account' },
      addresses: { eth: account },
    });
    const after = await holders.act('records', owner, { ...records, texts: [], issuedAt: start + 3 });
    expect(after.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const events = await t.dataSource.query(
      `SELECT actor, action FROM audit_events WHERE subject = 'safe.oak.eth' ORDER BY id`,
    );
    expect(events).toEqual([
      { actor: `wallet:${account}`, action: 'subname.create' },
      { actor: `wallet:${account}`, action: 'subname.update' },
      { actor: `wallet:${account}`, action: 'subname.update' },
    ]);
  });

  it('an account not deployed yet claims with an ERC-6492 signature, checked by simulation only', async () => {
    const factory = await chain.deployWalletFactory();
    const counterfactual = await chain.counterfactualAccount(factory, owner.address, id('later'));
    const account = counterfactual.address;
    expect(await chain.provider.getCode(account)).toBe('0x');

    const fields = { name: 'later.oak.eth', owner: account, texts: [], addresses: [], issuedAt: nowSeconds() };
    const byStranger = await holders.signed('claim', stranger, fields);
    const forged = await holders.post('claim', {
      ...byStranger,
      signature: counterfactual.wrap(byStranger.signature as string),
    });
    expect(forged.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const byOwner = await holders.signed('claim', owner, fields);
    const claimed = await holders.post('claim', {
      ...byOwner,
      signature: counterfactual.wrap(byOwner.signature as string),
    });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ fullName: 'later.oak.eth', owner: account });

    // Records too; the accepted claim, sent again, is refused and creates nothing.
    const records = {
      name: 'later.oak.eth',
      texts: [{ key: 'url', value: 'https://later.example' }],
      addresses: [],
      contenthash: '',
      issuedAt: fields.issuedAt + 1,
    };
    const signedRecords = await holders.signed('records', owner, records);
    const set = await holders.post('records', {
      ...signedRecords,
      signature: counterfactual.wrap(signedRecords.signature as string),
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ texts: { url: 'https://later.example' } });
    const replay = await holders.post('claim', {
      ...byOwner,
      signature: counterfactual.wrap(byOwner.signature as string),
    });
    expect(replay.body).toMatchObject({ status: 409, code: 'SUBNAME_TAKEN' });
    expect(await chain.provider.getCode(account)).toBe('0x');
    const held = await request(t.http).get(`/api/v1/holder/${account}/names`).expect(200);
    expect(held.body).toMatchObject({ totalItems: 1, items: [{ fullName: 'later.oak.eth', owner: account }] });
  });
});
