import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TypedDataField, Wallet } from 'ethers';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

const now = () => Math.floor(Date.now() / 1000);
type Fields = Record<string, unknown>;

/** Holder routes' own budgets (RATE_LIMIT_PER_HOLDER, CONTRACT section 15): per client address and per signer. */
describe('holder budgets', () => {
  let t: TestApp;
  let key: { id: string; key: string };
  let n = 0;
  const alice = new Wallet(Wallet.createRandom().privateKey);
  const bob = new Wallet(Wallet.createRandom().privateKey);
  // Each call from its own client address (TRUST_PROXY=true) unless one is given.
  const from = (ip = `10.1.${Math.floor(++n / 250)}.${n % 250}`) => ({ 'x-forwarded-for': ip });

  async function signed(action: string, signer: Wallet, fields: Fields): Promise<Fields> {
    const td = await request(t.http).post(`/api/v1/holder/${action}/typed-data`).set(from()).send(fields).expect(200);
    const { EIP712Domain: _domain, ...types } = td.body.types as Record<string, TypedDataField[]>;
    return { ...fields, signature: await signer.signTypedData(td.body.domain, types, td.body.message) };
  }
  const claimFields = (label: string, owner: Wallet, issuedAt: number) => ({
    name: `${label}.oak.eth`,
    owner: owner.address,
    texts: [],
    addresses: [],
    issuedAt,
  });

  beforeAll(async () => {
    t = await createTestApp({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'holder-budgets-')),
      PUBLIC_URL: 'https://subnames.example.com',
      ENS_CHAIN_ID: '1',
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_HOLDER: '3',
    });
    key = await t.issueKey(['oak.eth'], 5);
    await request(t.http)
      .put('/api/v1/policies/oak.eth')
      .set('x-auth-token', key.key)
      .send({ claims: 'open' })
      .expect(200);
  });
  afterAll(() => t.close());

  it('made-up signatures spend the address budget: 429 after 3; /policies and other addresses unaffected', async () => {
    const forged = await signed('claim', bob, claimFields('forged', alice, now()));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await request(t.http).post('/api/v1/holder/claim').set(from('203.0.113.9')).send(forged)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await request(t.http).post('/api/v1/holder/claim').set(from('203.0.113.9')).send(forged);
    expect(refused.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      const policy = await request(t.http).get('/api/v1/policies/oak.eth').set(from('203.0.113.9'));
      expect(policy.status).toBe(200);
    }
    const names = await request(t.http).get(`/api/v1/holder/${alice.address}/names`).set(from('203.0.113.10'));
    expect(names.status).toBe(200);
  });

  it("a signer's actions from many addresses stop after 3 with 429; another signer is unaffected", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const body = await signed('claim', alice, claimFields(`alice${i}`, alice, now() + i));
      statuses.push((await request(t.http).post('/api/v1/holder/claim').set(from()).send(body)).status);
    }
    // One claim per address (the policy's default), so the 2nd and 3rd are 403; the 4th is over the budget.
    expect(statuses).toEqual([201, 403, 403, 429]);
    const bobs = await signed('claim', bob, claimFields('bobby', bob, now()));
    expect((await request(t.http).post('/api/v1/holder/claim').set(from()).send(bobs)).status).toBe(201);
  });
});
