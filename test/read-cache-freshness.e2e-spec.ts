import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { Client } from 'pg';
import { itOnPostgres, ON_POSTGRES } from './support/postgres-only';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { answerAfterReadThrough } from './support/read-through';
import { ADMIN_TOKEN } from './support/test-app';
import { resetTestDatabase } from './support/test-database';

const MINTER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const RECEIVER = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const LISTING = { price: '5000', fee: '100', paymentReceiver: RECEIVER, expirable: false, fuses: 0 };

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * GET /subnames/{fullName} and the mint (its listing lookup and its existence check) read through in-process
 * caches, and follow the rule of docs/reference.md#freshness: a change is seen at once by the process that made it,
 * and by every other replica as soon as it reads the entry again. Two service processes on one database: A reads, B
 * writes (or a statement on the database does); A's caches hold the old value and, with a proven change channel,
 * would keep it for up to a minute if nothing told them otherwise. Asserted causally, not against a clock: A
 * answers the old value from memory until its cache reads the entry through (evicted by the change notification
 * on PostgreSQL; expired on the embedded database, whose channel is never proven), and that read answers the
 * change. How long an entry lives is record-cache.spec.ts's, with a held clock.
 */
describe('two replicas: cached GET /subnames/{fullName} and mint lookups follow the other replica once A reads them again', () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    await resetTestDatabase();
    const env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'read-cache-')),
      CCIP_SIGNER_KEY: Wallet.createRandom().privateKey,
      MINT_MAINNET_SIGNER_KEY: Wallet.createRandom().privateKey,
      MINT_TESTNET_SIGNER_KEY: Wallet.createRandom().privateKey,
    };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    const issued = await call(a, 'POST', '/admin/api-keys', { name: 'cache', parentNames: ['oak.eth'], quota: 1000 });
    expect(issued.status).toBe(201);
    key = issued.body.key as string;
    expect((await putListing(b, 'mainnet/oak.eth', LISTING)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function call(svc: ServiceProcess, method: string, path: string, body?: object): Promise<Answer> {
    const headers: Record<string, string> = { 'x-admin-token': ADMIN_TOKEN };
    if (key) headers['x-auth-token'] = key;
    if (body) headers['content-type'] = 'application/json';
    const res = await fetch(`${svc.url}/api/v1${path}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  const write = (svc: ServiceProcess, label: string, texts: Record<string, string> = {}) =>
    call(svc, 'POST', '/subnames', {
      parentName: 'oak.eth',
      label,
      texts: Object.entries(texts).map(([k, value]) => ({ key: k, value })),
    });
  const remove = (svc: ServiceProcess, fullName: string) => call(svc, 'DELETE', `/subnames/${fullName}`);
  const get = (svc: ServiceProcess, fullName: string) => call(svc, 'GET', `/subnames/${fullName}`);
  const putListing = (svc: ServiceProcess, path: string, body: object) =>
    call(svc, 'PUT', `/admin/listings/${path}`, body);
  const mint = (svc: ServiceProcess, label: string, parentName = 'oak.eth') =>
    call(svc, 'POST', '/mint', { label, parentName, minterAddress: MINTER });

  async function metric(svc: ServiceProcess, name: string): Promise<number> {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    const match = new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\d+)`, 'm').exec(text);
    return match ? Number(match[1]) : 0;
  }

  /** An answer without what differs between two requests: a problem's request id, a mint's clock and signature. */
  const stable = ({ status, body }: Answer): Answer => {
    const content = body?.content ? { ...body.content, expiry: undefined, signatureExpiry: undefined } : undefined;
    return { status, body: { ...body, requestId: undefined, signature: undefined, content } };
  };

  /**
   * A's answer once it has read `cache` through after the change (the entry that held `previous` was evicted by
   * the change notification, or outlived an unproven channel's short life); every answer before it is `previous`.
   */
  const afterReadThrough = (cache: 'subnames' | 'listings', previous: Answer, read: () => Promise<Answer>) =>
    answerAfterReadThrough(a.url, cache, previous, read, stable);

  /**
   * What shows that A answered from memory: a hit of the cache; for the mint's existence check also the name
   * filter answering "not stored" without a read (`names` alone: only that).
   */
  const FROM_MEMORY = {
    subnames: [
      'cache_lookups_total{cache="subnames",result="hit"}',
      'cache_lookups_total{cache="names",result="absent"}',
    ],
    listings: ['cache_lookups_total{cache="listings",result="hit"}'],
    names: ['cache_lookups_total{cache="names",result="absent"}'],
  };

  async function fromMemory(cache: keyof typeof FROM_MEMORY): Promise<number> {
    let n = 0;
    for (const name of FROM_MEMORY[cache]) n += await metric(a, name);
    return n;
  }

  /**
   * `read` answers from A's memory (`cache`), and (on PostgreSQL) A has proven its change channel, so that what A
   * knows would outlive a second but for the change notifications. Reads until both hold (a loaded machine may
   * need a few rounds); every answer is the first one.
   */
  async function warm(cache: keyof typeof FROM_MEMORY, read: () => Promise<Answer>): Promise<Answer> {
    const first = await read();
    for (;;) {
      const before = await fromMemory(cache);
      expect(stable(await read())).toEqual(stable(first));
      const cached = (await fromMemory(cache)) > before;
      if (cached && (await metric(a, 'subname_changes_channel_up')) === (ON_POSTGRES ? 1 : 0)) return first;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  describe('GET /subnames/{fullName} on A', () => {
    it('shows an update made through B on its next read, the whole subname as B answered it', async () => {
      expect((await write(b, 'alice', { description: '1' })).status).toBe(201);
      const cached = await warm('subnames', () => get(a, 'alice.oak.eth'));
      expect(cached.body.texts).toEqual({ description: '1' });
      const updated = await write(b, 'alice', { description: '2' });
      expect(updated.status).toBe(200);
      const seen = await afterReadThrough('subnames', cached, () => get(a, 'alice.oak.eth'));
      expect(seen).toEqual({ status: 200, body: updated.body });
      expect(seen.body.updatedAt).not.toBe(seen.body.createdAt);
    });

    it('answers 404 on its next read after a delete through B, and the name again once B recreates it', async () => {
      const cached = await warm('subnames', () => get(a, 'alice.oak.eth'));
      expect((await remove(b, 'alice.oak.eth')).status).toBe(204);
      const gone = await afterReadThrough('subnames', cached, () => get(a, 'alice.oak.eth'));
      expect(gone).toMatchObject({ status: 404, body: { code: 'SUBNAME_NOT_FOUND' } });
      // A now holds the absence.
      const absent = await warm('subnames', () => get(a, 'alice.oak.eth'));
      const created = await write(b, 'alice', { description: '3' });
      expect(created.status).toBe(201);
      const back = await afterReadThrough('subnames', absent, () => get(a, 'alice.oak.eth'));
      expect(back).toEqual({ status: 200, body: created.body });
    });
  });

  describe('POST /mint on A', () => {
    it('refuses a name on its next read after its creation through B, and signs it again after its delete', async () => {
      const signed = await warm('subnames', () => mint(a, 'carol'));
      expect(signed.status).toBe(200);
      expect((await write(b, 'carol')).status).toBe(201);
      const taken = await afterReadThrough('subnames', signed, () => mint(a, 'carol'));
      expect(taken).toMatchObject({ status: 409, body: { code: 'SUBNAME_TAKEN' } });
      const refused = await warm('subnames', () => mint(a, 'carol'));
      expect((await remove(b, 'carol.oak.eth')).status).toBe(204);
      const free = await afterReadThrough('subnames', refused, () => mint(a, 'carol'));
      expect(free.status).toBe(200);
      expect(free.body.content.label).toBe('carol');
    });

    // The embedded database never proves its channel, so there the filter never answers (and the test above holds).
    const withProvenChannel = itOnPostgres('a change channel proven across connections (LISTEN/NOTIFY)');

    withProvenChannel(
      'refuses on its next read a name created through B while its name filter said "not stored"',
      async () => {
        const signed = await warm('names', () => mint(a, 'ivy'));
        expect(signed.status).toBe(200);
        expect((await write(b, 'ivy')).status).toBe(201);
        // Told of the name, the filter sends the check to the subname cache, which reads it through.
        const taken = await afterReadThrough('subnames', signed, () => mint(a, 'ivy'));
        expect(taken).toMatchObject({ status: 409, body: { code: 'SUBNAME_TAKEN' } });
      },
    );

    withProvenChannel('refuses on its next read a name inserted by a plain statement on the database', async () => {
      const signed = await warm('names', () => mint(a, 'jack'));
      expect(signed.status).toBe(200);
      const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(
          `INSERT INTO subnames (full_name, parent_name, label, namehash) VALUES ('jack.oak.eth', 'oak.eth', 'jack', $1)`,
          [`0x${'ab'.repeat(32)}`],
        );
      } finally {
        await client.end();
      }
      const taken = await afterReadThrough('subnames', signed, () => mint(a, 'jack'));
      expect(taken).toMatchObject({ status: 409, body: { code: 'SUBNAME_TAKEN' } });
      // A name nobody stored is still answered from the filter.
      expect((await warm('names', () => mint(a, 'kate'))).status).toBe(200);
    });

    it("prices with a listing changed through B's admin route on its next read; active: false is a 404", async () => {
      const priced = await warm('listings', () => mint(a, 'dave'));
      expect(priced.body.content.price).toBe('5000');
      expect((await putListing(b, 'mainnet/oak.eth', { ...LISTING, price: '7000' })).status).toBe(200);
      const repriced = await afterReadThrough('listings', priced, () => mint(a, 'dave'));
      expect(repriced.status).toBe(200);
      expect(repriced.body.content).toMatchObject({ price: '7000', fee: '100', paymentReceiver: RECEIVER });

      const repricedCached = await warm('listings', () => mint(a, 'dave'));
      expect((await putListing(b, 'mainnet/oak.eth', { ...LISTING, price: '7000', active: false })).status).toBe(200);
      const closed = await afterReadThrough('listings', repricedCached, () => mint(a, 'dave'));
      expect(closed).toMatchObject({ status: 404, body: { code: 'LISTING_NOT_FOUND' } });

      const closedCached = await warm('listings', () => mint(a, 'dave'));
      expect((await putListing(b, 'mainnet/oak.eth', LISTING)).status).toBe(200);
      const open = await afterReadThrough('listings', closedCached, () => mint(a, 'dave'));
      expect(open.body.content.price).toBe('5000');
    });

    it('signs under a parent on its next read after its listing through B (A had cached its absence), until its delete', async () => {
      const unlisted = await warm('listings', () => mint(a, 'erin', 'pine.eth'));
      expect(unlisted).toMatchObject({ status: 404 });
      expect((await putListing(b, 'mainnet/pine.eth', { ...LISTING, price: '42' })).status).toBe(200);
      const listed = await afterReadThrough('listings', unlisted, () => mint(a, 'erin', 'pine.eth'));
      expect(listed.status).toBe(200);
      expect(listed.body.content?.price).toBe('42');
      const listedCached = await warm('listings', () => mint(a, 'erin', 'pine.eth'));
      expect((await call(b, 'DELETE', '/admin/listings/mainnet/pine.eth')).status).toBe(204);
      const delisted = await afterReadThrough('listings', listedCached, () => mint(a, 'erin', 'pine.eth'));
      expect(delisted).toMatchObject({ status: 404, body: { code: 'LISTING_NOT_FOUND' } });
    });

    it('follows a listing changed by a statement on the database (the trigger covers every writer)', async () => {
      const priced = await warm('listings', () => mint(a, 'fred'));
      expect(priced.body.content.price).toBe('5000');
      const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`UPDATE listings SET price = 9000 WHERE network = 'mainnet' AND parent_name = 'oak.eth'`);
      } finally {
        await client.end();
      }
      const seen = await afterReadThrough('listings', priced, () => mint(a, 'fred'));
      expect(seen.body.content?.price).toBe('9000');
      expect((await putListing(b, 'mainnet/oak.eth', LISTING)).status).toBe(200);
    });
  });

  describe('one process reads its own writes at once', () => {
    it('GET after an update, a delete and a create on A answers each write on the very next request', async () => {
      expect((await write(a, 'gina', { description: '1' })).status).toBe(201);
      await warm('subnames', () => get(a, 'gina.oak.eth'));
      const updated = await write(a, 'gina', { description: '2' });
      expect(await get(a, 'gina.oak.eth')).toEqual({ status: 200, body: updated.body });
      expect((await remove(a, 'gina.oak.eth')).status).toBe(204);
      expect(await get(a, 'gina.oak.eth')).toMatchObject({ status: 404, body: { code: 'SUBNAME_NOT_FOUND' } });
      const created = await write(a, 'gina', { description: '3' });
      expect(created.status).toBe(201);
      expect(await get(a, 'gina.oak.eth')).toEqual({ status: 200, body: created.body });
    });

    it("the mint on A sees A's own subname and listing changes on the very next request", async () => {
      expect((await warm('subnames', () => mint(a, 'hank'))).status).toBe(200);
      expect((await write(a, 'hank')).status).toBe(201);
      expect(await mint(a, 'hank')).toMatchObject({ status: 409, body: { code: 'SUBNAME_TAKEN' } });
      expect((await remove(a, 'hank.oak.eth')).status).toBe(204);
      expect((await mint(a, 'hank')).status).toBe(200);

      await warm('listings', () => mint(a, 'hank'));
      expect((await putListing(a, 'mainnet/oak.eth', { ...LISTING, price: '6000' })).status).toBe(200);
      expect((await mint(a, 'hank')).body.content.price).toBe('6000');
      expect((await putListing(a, 'mainnet/oak.eth', { ...LISTING, active: false })).status).toBe(200);
      expect(await mint(a, 'hank')).toMatchObject({ status: 404, body: { code: 'LISTING_NOT_FOUND' } });
      expect((await putListing(a, 'mainnet/oak.eth', LISTING)).status).toBe(200);
      expect((await mint(a, 'hank')).body.content.price).toBe('5000');
    });
  });
});
