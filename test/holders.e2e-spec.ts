import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TypedDataField, Wallet } from 'ethers';
import request from 'supertest';
import { privateKeyToAccount } from 'viem/accounts';
import { auditTrail, replay as replayTrail } from './support/audit-replay';
import { createTestApp, TestApp } from './support/test-app';

const PUBLIC_URL = 'https://subnames.example.com';
const now = () => Math.floor(Date.now() / 1000);
type Fields = Record<string, unknown>;

/**
 * Holders act by EIP-712 signature (CONTRACT section 15): policies set by a key, claims, records, transfers and
 * deletes signed by EOAs (ethers and viem), each refusal in its order, replay and racing submissions refused.
 */
describe('holders: policies and signed actions', () => {
  let t: TestApp;
  let key: { id: string; key: string };
  const alice = new Wallet(Wallet.createRandom().privateKey);
  const bob = new Wallet(Wallet.createRandom().privateKey);

  const http = () => request(t.http);
  const putPolicy = (body: object, parent = 'oak.eth', k = key.key) =>
    http().put(`/api/v1/policies/${parent}`).set('x-auth-token', k).send(body);

  /** The route's typed data, signed with ethers (the domain's own type left out, as ethers wants). */
  async function signed(action: string, signer: Wallet, fields: Fields): Promise<Fields> {
    const td = await http().post(`/api/v1/holder/${action}/typed-data`).send(fields).expect(200);
    const { EIP712Domain: _domain, ...types } = td.body.types as Record<string, TypedDataField[]>;
    return { ...fields, signature: await signer.signTypedData(td.body.domain, types, td.body.message) };
  }
  const act = async (action: string, signer: Wallet, fields: Fields) =>
    http()
      .post(`/api/v1/holder/${action}`)
      .send(await signed(action, signer, fields));
  const claim = (signer: Wallet, name: string, extra: Fields = {}, issuedAt = now()) =>
    act('claim', signer, { name, owner: signer.address, texts: [], addresses: [], issuedAt, ...extra });

  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'holders-')), PUBLIC_URL, ENS_CHAIN_ID: '1' });
    key = await t.issueKey(['oak.eth'], 5);
  });
  afterAll(() => t.close());

  it('sets a policy with defaults filled, reads it publicly without the allowlist, and deletes it', async () => {
    const put = await putPolicy({ claims: 'allowlist', allowlist: [alice.address.toLowerCase()] }).expect(200);
    expect(put.body).toMatchObject({
      parentName: 'oak.eth',
      claims: 'allowlist',
      allowlist: [alice.address],
      allowlistSize: 1,
      claimsPerAddress: 1,
      labels: { minLength: 3, maxLength: 63, reserved: [] },
      holderRecords: { texts: ['*'], addresses: ['*'], contenthash: true },
      transfers: true,
      deletes: true,
      chargedKeyId: key.id,
    });
    const got = await http().get('/api/v1/policies/oak.eth').expect(200);
    expect(got.body.allowlist).toBeUndefined();
    expect(got.body.allowlistSize).toBe(1);
    const other = await t.issueKey(['elm.eth']);
    expect((await putPolicy({ claims: 'open' }, 'oak.eth', other.key)).body.code).toBe('FORBIDDEN_PARENT');
    expect((await putPolicy({ claims: 'open' }).set('x-auth-token', 'nope')).status).toBe(401);
    const bad = await putPolicy({ claims: 'allowlist' });
    expect(bad.body.errors).toEqual([{ field: 'allowlist', message: expect.stringContaining('required') }]);
    await http().delete('/api/v1/policies/oak.eth').set('x-auth-token', key.key).expect(204);
    expect((await http().get('/api/v1/policies/oak.eth')).body.code).toBe('POLICY_NOT_FOUND');
    expect((await claim(alice, 'alice.oak.eth')).body).toMatchObject({ status: 403, code: 'HOLDER_NOT_ALLOWED' });
  });

  it('takes the largest policy (10,000 addresses, 1,000 reserved labels of 255 characters); past 1 MB 413', async () => {
    const allowlist = Array.from({ length: 10_000 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const reserved = Array.from({ length: 1_000 }, (_, i) => `${i}`.padStart(255, 'r'));
    const put = await putPolicy({ claims: 'allowlist', allowlist, labels: { reserved } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ claims: 'allowlist', allowlistSize: 10_000 });
    expect(put.body.labels.reserved).toHaveLength(1_000);
    const past = await putPolicy({ claims: 'allowlist', allowlist: [...allowlist, ...allowlist, ...allowlist] });
    expect(past.status).toBe(413);
    expect(past.body.code).toBe('PAYLOAD_TOO_LARGE');
    const tooMany = await putPolicy({ claims: 'allowlist', allowlist: [...allowlist, `0x${'f'.repeat(40)}`] });
    expect(tooMany.body.errors).toEqual([{ field: 'allowlist', message: expect.stringContaining('10000') }]);
    await http().delete('/api/v1/policies/oak.eth').set('x-auth-token', key.key).expect(204);
  });

  it('claims under an open policy, charged to the policy key, audited as the wallet; refusals in order', async () => {
    await putPolicy({
      claims: 'open',
      labels: { minLength: 4, reserved: ['Admin'] },
      holderRecords: { texts: ['description'], addresses: [60] },
      claimsPerAddress: 2,
    }).expect(200);
    const eth = { coin: 60, value: alice.address };
    const ok = await claim(alice, 'alice.oak.eth', { texts: [{ key: 'description', value: 'hi' }], addresses: [eth] });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ fullName: 'alice.oak.eth', owner: alice.address, texts: { description: 'hi' } });
    const quota = await http().get('/api/v1/quota').set('x-auth-token', key.key).expect(200);
    expect(quota.body).toEqual({ limit: 5, used: 1, remaining: 4 });
    const events = await t.dataSource.query(`SELECT actor, action FROM audit_events WHERE subject = 'alice.oak.eth'`);
    expect(events).toEqual([{ actor: `wallet:${alice.address}`, action: 'subname.create' }]);

    const short = await claim(bob, 'bob.oak.eth');
    expect(short.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(short.body.errors[0]).toMatchObject({ field: 'name', message: expect.stringContaining('minLength') });
    const forged = await act('claim', bob, {
      name: 'bobby.oak.eth',
      owner: alice.address,
      texts: [],
      addresses: [],
      issuedAt: now(),
    });
    expect(forged.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const key2 = await claim(bob, 'bobby.oak.eth', { texts: [{ key: 'url', value: 'https://x.y' }] });
    expect(key2.body).toMatchObject({
      status: 403,
      code: 'HOLDER_NOT_ALLOWED',
      detail: expect.stringContaining('url'),
    });
    expect((await claim(bob, 'admin.oak.eth')).body.code).toBe('SUBNAME_RESERVED');
    expect((await claim(bob, 'alice.oak.eth')).body.code).toBe('SUBNAME_TAKEN');
    // One action per signer per second: each later action signs a later issuedAt.
    expect((await claim(alice, 'alice2.oak.eth', {}, now() + 1)).status).toBe(201);
    expect((await claim(alice, 'alice3.oak.eth', {}, now() + 2)).body.code).toBe('CLAIM_LIMIT_REACHED');
    expect((await claim(bob, 'bobby.oak.eth', {}, now() - 3600)).body.code).toBe('STALE_SIGNATURE');
  });

  it('sets and removes records, refuses a replay, then transfers and deletes by the holder only', async () => {
    const issuedAt = now() + 3;
    const body = await signed('records', alice, {
      name: 'alice.oak.eth',
      texts: [{ key: 'description', value: '' }],
      addresses: [{ coin: 60, value: bob.address.toLowerCase() }],
      contenthash: '',
      issuedAt,
    });
    const set = await http().post('/api/v1/holder/records').send(body).expect(200);
    expect(set.body.texts).toEqual({});
    expect(set.body.addresses).toEqual({ eth: bob.address });
    const replay = await http().post('/api/v1/holder/records').send(body);
    expect(replay.body).toMatchObject({ status: 409, code: 'STALE_SIGNATURE' });
    const contenthash = await act('records', alice, {
      name: 'alice.oak.eth',
      texts: [],
      addresses: [],
      contenthash: 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4',
      issuedAt: issuedAt + 1,
    });
    expect(contenthash.status).toBe(200);

    const byBob = await act('transfer', bob, { name: 'alice.oak.eth', newOwner: bob.address, issuedAt: now() });
    expect(byBob.body.code).toBe('UNAUTHORIZED');
    const moved = await act('transfer', alice, { name: 'alice.oak.eth', newOwner: bob.address, issuedAt: now() + 7 });
    expect(moved.status).toBe(200);
    expect(moved.body.owner).toBe(bob.address);
    const held = await http().get(`/api/v1/holder/${bob.address}/names?page=1&size=10`).expect(200);
    expect(held.body).toMatchObject({ page: 1, size: 10, totalItems: 1, items: [{ fullName: 'alice.oak.eth' }] });
    const aliceNow = await act('delete', alice, { name: 'alice.oak.eth', issuedAt: now() + 8 });
    expect(aliceNow.body.code).toBe('UNAUTHORIZED');
    expect((await act('delete', bob, { name: 'alice.oak.eth', issuedAt: now() + 9 })).status).toBe(204);
    expect((await act('delete', bob, { name: 'alice.oak.eth', issuedAt: now() + 10 })).body.code).toBe(
      'SUBNAME_NOT_FOUND',
    );
    const actors = await t.dataSource.query(
      `SELECT actor, action FROM audit_events WHERE subject = 'alice.oak.eth' ORDER BY id`,
    );
    expect(actors.map((a: { actor: string; action: string }) => `${a.action} ${a.actor}`)).toEqual([
      `subname.create wallet:${alice.address}`,
      `subname.update wallet:${alice.address}`,
      `subname.update wallet:${alice.address}`,
      `subname.update wallet:${alice.address}`,
      `subname.delete wallet:${bob.address}`,
    ]);
    // Replayed from nothing, each event's before is what the one before it left: the trail is the table's history.
    const { state, misstated } = replayTrail(await auditTrail(t.dataSource, 'alice.oak.eth'));
    expect(misstated).toEqual([]);
    expect(state).toBeNull();
  });

  it('signs with viem the typed data as the route returns it; of 16 racing submissions exactly one wins', async () => {
    await putPolicy({ claims: 'open', claimsPerAddress: 20 }).expect(200);
    const carol = new Wallet(Wallet.createRandom().privateKey);
    const account = privateKeyToAccount(carol.privateKey as `0x${string}`);
    const fields = { name: 'carol.oak.eth', owner: carol.address, texts: [], addresses: [], issuedAt: now() };
    const td = await http().post('/api/v1/holder/claim/typed-data').send(fields).expect(200);
    expect(td.body.primaryType).toBe('Claim');
    expect(td.body.message).toEqual({ ...fields, service: PUBLIC_URL });
    const signature = await account.signTypedData(td.body);
    const racing = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i === 0
          ? http()
              .post('/api/v1/holder/claim')
              .send({ ...fields, signature })
          : signed('claim', carol, { ...fields, name: `carol${i}.oak.eth` }).then((b) =>
              http().post('/api/v1/holder/claim').send(b),
            ),
      ),
    );
    const statuses = racing.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(racing.every((r) => r.status === 201 || r.body.code === 'STALE_SIGNATURE')).toBe(true);
  });
});
