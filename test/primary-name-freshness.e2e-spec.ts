import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, dnsEncode, Interface, namehash, Wallet } from 'ethers';
import { Client } from 'pg';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { metricSample, scrapeMetrics } from './support/metrics-sample';
import { answerAfterReadThrough, cachedAnswer } from './support/read-through';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const PUBLIC_URL = 'https://subnames.example.com';
const DOMAIN = { name: 'ENS subname service', version: '1', chainId: 1 };
const TYPES = {
  PrimaryName: [
    { name: 'addr', type: 'address' },
    { name: 'name', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'service', type: 'string' },
  ],
};
const holder = Wallet.createRandom();
const REVERSE = `${holder.address.slice(2).toLowerCase()}.addr.reverse`;
const iface = new Interface(['function resolve(bytes name, bytes data)', 'function name(bytes32 node)']);
const DATA = iface.encodeFunctionData('resolve', [
  dnsEncode(REVERSE),
  iface.encodeFunctionData('name', [namehash(REVERSE)]),
]);
const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * docs/reference.md#freshness for primary names: a choice, and a change of address that ends it, are answered by
 * name() on another replica, however long that replica would otherwise keep what it cached. Asserted causally,
 * not against a clock: B answers the old value from the cache that holds it until it reads that cache through
 * (evicted by the change notification on PostgreSQL; expired on the embedded database, whose channel is never
 * proven), and that read answers the new value. How long an entry lives is record-cache.spec.ts's, with a held clock.
 */
describe("two replicas: a primary name's choice and its end are resolved on the other once it reads them again", () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    await resetTestDatabase();
    const env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'primary-fresh-')),
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
      PUBLIC_URL,
    };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    const issued = await fetch(`${a.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'fresh', parentNames: ['oak.eth'] }),
    });
    key = ((await issued.json()) as { key: string }).key;
    await write(holder.address, 201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function write(address: string, status = 200): Promise<void> {
    const res = await fetch(`${a.url}/api/v1/subnames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: address }] }),
    });
    expect(res.status).toBe(status);
  }

  async function nameOnB(): Promise<string> {
    const res = await fetch(`${b.url}/api/v1/ccip-read/${SENDER}/${DATA}.json`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: string };
    const [result] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], data);
    return AbiCoder.defaultAbiCoder().decode(['string'], result)[0] as string;
  }

  const metric = async (name: string) => metricSample(await scrapeMetrics(b.url), name);

  /** B's answer once it has read `cache` through after the change (evicted by its notification, or expired). */
  const answeredAfterChange = (cache: string, previous: string) =>
    answerAfterReadThrough(b.url, cache, previous, nameOnB);

  /** B answers `expected` from `caches` (hits, nothing read through), and (on PostgreSQL) has proven its change channels. */
  async function warmB(expected: string, caches: string[]): Promise<void> {
    while (onPostgres && (await metric('subname_changes_channel_up')) !== 1) {
      await nameOnB();
      await new Promise((r) => setTimeout(r, 50));
    }
    await cachedAnswer(b.url, caches, expected, nameOnB);
    expect(await metric('subname_changes_channel_up')).toBe(onPostgres ? 1 : 0);
  }

  it('a choice made through A', async () => {
    // Nothing chosen yet, and B remembers that.
    await warmB('', ['primary-names']);
    const issuedAt = Math.floor(Date.now() / 1000);
    const message = { addr: holder.address, name: 'alice.oak.eth', issuedAt, service: PUBLIC_URL };
    const signature = await holder.signTypedData(DOMAIN, TYPES, message);
    const res = await fetch(`${a.url}/api/v1/primary-names`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: holder.address, name: 'alice.oak.eth', issuedAt, signature }),
    });
    expect(res.status).toBe(200);
    expect(await answeredAfterChange('primary-names', '')).toBe('alice.oak.eth');
  });

  it("a change of the name's address through A ends it", async () => {
    await warmB('alice.oak.eth', ['primary-names', 'subnames']);
    // The choice stands; what changes is the name's address, held in B's subname cache.
    await write(Wallet.createRandom().address);
    expect(await answeredAfterChange('subnames', 'alice.oak.eth')).toBe('');
    await write(holder.address);
    expect(await answeredAfterChange('subnames', '')).toBe('alice.oak.eth');
  });

  it('a choice cleared by a statement on the database reaches B too', async () => {
    await warmB('alice.oak.eth', ['primary-names', 'subnames']);
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`UPDATE primary_names SET name = NULL WHERE address = $1`, [holder.address]);
    } finally {
      await client.end();
    }
    expect(await answeredAfterChange('primary-names', 'alice.oak.eth')).toBe('');
  });
});
