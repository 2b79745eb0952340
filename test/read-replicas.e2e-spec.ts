import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbiCoder, dnsEncode, Interface, namehash, Wallet } from 'ethers';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { StandbyCluster, startStandbyCluster } from './support/standby-cluster';
import { ADMIN_TOKEN } from './support/test-app';

const SENDER = '0x8464135c8F25Da09e49BC8782676a84730C318bC';
const NAME = 'alice.oak.eth';
const addresses = Array.from({ length: 4 }, () => Wallet.createRandom().address);
const iface = new Interface(['function resolve(bytes name, bytes data)', 'function addr(bytes32 node)']);
const DATA = iface.encodeFunctionData('resolve', [dnsEncode(NAME), iface.encodeFunctionData('addr', [namehash(NAME)])]);

/**
 * docs/operators.md#read-replicas: the service on a throwaway primary with a streaming standby made by
 * `pg_basebackup -R`, both on loopback. Public reads go to the standby only once it has replayed every write the
 * service made or heard of, else to the primary, so a read after a write never goes back in time.
 */
describe('reads from a PostgreSQL standby (DATABASE_READ_URL)', () => {
  let cluster: StandbyCluster;
  let svc: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    cluster = await startStandbyCluster();
    svc = await startServiceProcess({
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_READ_URL: cluster.standbyUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'replica-')),
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
    });
    const issued = await fetch(`${svc.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'replica', parentNames: ['oak.eth'] }),
    });
    key = ((await issued.json()) as { key: string }).key;
    await write(addresses[0], 201);
  }, 40_000);

  afterAll(async () => {
    await svc?.stop();
    cluster?.destroy();
  });

  async function write(address: string, status = 200): Promise<void> {
    const res = await fetch(`${svc.url}/api/v1/subnames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify({ parentName: 'oak.eth', label: 'alice', addresses: [{ coin: 60, value: address }] }),
    });
    expect(res.status).toBe(status);
  }

  /** The address the search (never cached) answers for the name. */
  async function searched(): Promise<string | undefined> {
    const res = await fetch(`${svc.url}/api/v1/subnames?parentName=oak.eth`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { items: { fullName: string; addresses: Record<string, string> }[] };
    return page.items.find((i) => i.fullName === NAME)?.addresses.eth;
  }

  async function read(): Promise<string> {
    const res = await fetch(`${svc.url}/api/v1/subnames/${NAME}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { addresses: Record<string, string> }).addresses.eth;
  }

  async function resolved(): Promise<string> {
    const res = await fetch(`${svc.url}/api/v1/ccip-read/${SENDER}/${DATA}.json`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: string };
    const [result] = AbiCoder.defaultAbiCoder().decode(['bytes', 'uint64', 'bytes'], data);
    return AbiCoder.defaultAbiCoder().decode(['address'], result)[0] as string;
  }

  async function reads(): Promise<{ primary: number; replica: number }> {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    const count = (target: string) =>
      Number(new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { primary: count('primary'), replica: count('replica') };
  }

  /** Asks (by default searches) until the standby answers with `expected` (at most `ms`); whether it did. */
  async function answeredByStandby(expected: string, ms = 5_000, ask = searched): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const before = (await reads()).replica;
      const value = await ask();
      if ((await reads()).replica > before) return value === expected;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  }

  async function standbyValue(): Promise<string> {
    const rows = await cluster.query(
      cluster.standbyUrl,
      `SELECT addresses->>'60' AS address FROM subnames WHERE full_name = '${NAME}'`,
    );
    return rows[0]?.address as string;
  }

  it('the search is answered by the standby once it has replayed the write', async () => {
    expect(await answeredByStandby(addresses[0])).toBe(true);
  });

  it('the names an address holds are read from the standby too', async () => {
    const holder = Wallet.createRandom().address;
    const created = await fetch(`${svc.url}/api/v1/subnames`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': key },
      body: JSON.stringify({ parentName: 'oak.eth', label: 'held', owner: holder }),
    });
    expect(created.status).toBe(201);
    const held = async () => {
      const res = await fetch(`${svc.url}/api/v1/holder/${holder}/names`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: { fullName: string }[] }).items.map((i) => i.fullName).join();
    };
    expect(await answeredByStandby('held.oak.eth', 5_000, held)).toBe(true);
  });

  it('replay paused: a write is read back at once, from the primary, by GET, search and resolution', async () => {
    await cluster.query(cluster.standbyUrl, 'SELECT pg_wal_replay_pause()');
    const before = await reads();
    await write(addresses[1]);
    expect(await read()).toBe(addresses[1]);
    expect(await searched()).toBe(addresses[1]);
    expect(await resolved()).toBe(addresses[1]);
    const after = await reads();
    expect(after.replica).toBe(before.replica);
    expect(after.primary).toBeGreaterThanOrEqual(before.primary + 2);
    // The standby really is behind: it still holds the value before the write.
    expect(await standbyValue()).toBe(addresses[0]);
  });

  it('replay paused: a write straight on the primary (another replica) is heard, and read from the primary', async () => {
    await cluster.query(
      cluster.primaryUrl,
      `UPDATE subnames SET addresses = jsonb_build_object('60', '${addresses[2]}') WHERE full_name = '${NAME}'`,
    );
    const deadline = Date.now() + 1000;
    let seen = await searched();
    while (seen !== addresses[2] && Date.now() < deadline) seen = await searched();
    expect(seen).toBe(addresses[2]);
    // Paused before the previous test's write: the standby has neither.
    expect(await standbyValue()).toBe(addresses[0]);
  });

  it('replay resumed: reads return to the standby, with the latest value', async () => {
    await cluster.query(cluster.standbyUrl, 'SELECT pg_wal_replay_resume()');
    expect(await answeredByStandby(addresses[2])).toBe(true);
  });

  it('standby stopped: every read is answered from the primary, without an error', async () => {
    cluster.stopStandby();
    const before = await reads();
    for (let i = 0; i < 10; i++) expect(await searched()).toBe(addresses[2]);
    await write(addresses[3]);
    expect(await read()).toBe(addresses[3]);
    expect(await resolved()).toBe(addresses[3]);
    const after = await reads();
    expect(after.primary).toBeGreaterThanOrEqual(before.primary + 11);
    const ready = await fetch(`${svc.url}/health/ready`);
    expect(ready.status).toBe(200);
  });
});
