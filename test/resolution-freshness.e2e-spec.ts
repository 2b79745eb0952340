import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, dnsEncode, Interface, namehash, Wallet, ZeroAddress } from 'ethers';
import { Client } from 'pg';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { metricSample, scrapeMetrics } from './support/metrics-sample';
import { answerAfterReadThrough, cachedAnswer } from './support/read-through';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const NAME = 'alice.oak.eth';
const addresses = Array.from({ length: 6 }, () => Wallet.createRandom().address);
const iface = new Interface(['function resolve(bytes name, bytes data)', 'function addr(bytes32 node)']);
const DATA = iface.encodeFunctionData('resolve', [dnsEncode(NAME), iface.encodeFunctionData('addr', [namehash(NAME)])]);
const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * docs/reference.md#freshness: a write or delete is visible to resolution on every replica. Two service processes on
 * one database: writes go to A (or straight to the database), resolutions to B, whose cache has the old value and
 * would keep it for up to a minute if nothing told it otherwise. Each change is asserted causally, not against a
 * clock: B answers the old value from its cache until it reads the name again (evicted by the change notification
 * on PostgreSQL; on the embedded database, whose channel is never proven, once the entry's short life ends), and
 * that read answers the new value. How long an entry lives is record-cache.spec.ts's, with a held clock.
 */
describe('two replicas: a write on one is resolved on the other as soon as it reads the name again', () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    await resetTestDatabase();
    const env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'fresh-')),
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
    };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    const issued = await fetch(`${a.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'fresh', parentNames: ['oak.eth'] }),
    });
    key = ((await issued.json()) as { key: string }).key;
    await write(addresses[0], 201);
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

  async function resolveOnB(): Promise<string> {
    const res = await fetch(`${b.url}/api/v1/ccip-read/${SENDER}/${DATA}.json`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: string };
    const [result] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], data);
    return AbiCoder.defaultAbiCoder().decode(['address'], result)[0] as string;
  }

  const metric = async (svc: ServiceProcess, name: string) => metricSample(await scrapeMetrics(svc.url), name);

  /** B's answer once it has read the name through after the change: the change notification evicted it (PostgreSQL), or its entry expired. */
  const resolvedAfterChange = (previous: string) => answerAfterReadThrough(b.url, 'subnames', previous, resolveOnB);

  /** B answers `expected` from its cache (a hit, nothing read through), and (on PostgreSQL) has proven its change channel. */
  async function warmB(expected: string): Promise<void> {
    while (onPostgres && (await metric(b, 'subname_changes_channel_up')) !== 1) {
      await resolveOnB();
      await new Promise((r) => setTimeout(r, 50));
    }
    await cachedAnswer(b.url, 'subnames', expected, resolveOnB);
    // With the channel proven, B would keep the old value for up to a minute but for the change notification.
    expect(await metric(b, 'subname_changes_channel_up')).toBe(onPostgres ? 1 : 0);
  }

  it('an update through A', async () => {
    await warmB(addresses[0]);
    await write(addresses[1]);
    expect(await resolvedAfterChange(addresses[0])).toBe(addresses[1]);
  });

  it('a delete through A', async () => {
    await warmB(addresses[1]);
    const res = await fetch(`${a.url}/api/v1/subnames/${NAME}`, { method: 'DELETE', headers: { 'x-auth-token': key } });
    expect(res.status).toBe(204);
    expect(await resolvedAfterChange(addresses[1])).toBe(ZeroAddress);
    await write(addresses[2], 201);
    expect(await resolvedAfterChange(ZeroAddress)).toBe(addresses[2]);
  });

  it('a write that bypasses the service (a statement on the database) reaches B too', async () => {
    await warmB(addresses[2]);
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(`UPDATE subnames SET addresses = jsonb_build_object('60', $1::text) WHERE full_name = $2`, [
        addresses[3],
        NAME,
      ]);
    } finally {
      await client.end();
    }
    expect(await resolvedAfterChange(addresses[2])).toBe(addresses[3]);
  });

  it('B keeps the promise while its listening connection is cut, and listens again', async () => {
    await warmB(addresses[3]);
    if (onPostgres) {
      const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'ens-subname-service:changes'`,
        );
        expect(rowCount).toBe(2);
      } finally {
        await admin.end();
      }
    }
    await write(addresses[4]);
    expect(await resolvedAfterChange(addresses[3])).toBe(addresses[4]);
    // It reconnects by itself and proves the channel again.
    await warmB(addresses[4]);
    await write(addresses[5]);
    expect(await resolvedAfterChange(addresses[4])).toBe(addresses[5]);
  });
});
