import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { execFileLogged } from './support/suite-log';
import { ADMIN_TOKEN, createTestApp, TestApp, testEnv } from './support/test-app';
import { resetDatabase } from './support/test-database';

const RECEIVER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const OTHER_RECEIVER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OWNER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

interface EventRow {
  id: string;
  at: Date;
  actor: string;
  request_id: string;
  action: string;
  subject: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('audit trail: every change recorded once, in its own transaction; GET /api/v1/admin/audit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => resetDatabase(t.dataSource));

  const events = async (subject?: string): Promise<EventRow[]> =>
    subject === undefined
      ? t.dataSource.query('SELECT * FROM audit_events ORDER BY id')
      : t.dataSource.query('SELECT * FROM audit_events WHERE subject = $1 ORDER BY id', [subject]);
  const adminReq = (method: 'post' | 'patch' | 'delete' | 'put' | 'get', path: string, requestId?: string) => {
    const r = request(t.http)[method](`/api/v1/admin/${path}`).set('x-admin-token', ADMIN_TOKEN);
    return requestId ? r.set('x-request-id', requestId) : r;
  };
  const write = (key: string, body: object, requestId?: string) => {
    const r = request(t.http).post('/api/v1/subnames').set('x-auth-token', key);
    return (requestId ? r.set('x-request-id', requestId) : r).send(body);
  };
  const audit = (query: string) => adminReq('get', `audit${query}`);

  describe('API keys', () => {
    it('issue, update, rotate and revoke each leave exactly one event by admin, without any secret', async () => {
      const issued = await adminReq('post', 'api-keys', 'req-issue')
        .send({ name: 'wallet', parentNames: ['oak.eth'], quota: 5 })
        .expect(201);
      const id = issued.body.id as string;
      await adminReq('patch', `api-keys/${id}`, 'req-update')
        .send({ name: 'renamed', quota: 7, parentNames: ['oak.eth'] })
        .expect(200);
      const rotated = await adminReq('post', `api-keys/${id}/rotate`, 'req-rotate')
        .send({ graceSeconds: 600 })
        .expect(200);
      await adminReq('delete', `api-keys/${id}`, 'req-revoke').expect(204);

      const rows = await events(id);
      expect(rows.map((e) => [e.action, e.actor, e.request_id])).toEqual([
        ['key.issue', 'admin', 'req-issue'],
        ['key.update', 'admin', 'req-update'],
        ['key.rotate', 'admin', 'req-rotate'],
        ['key.revoke', 'admin', 'req-revoke'],
      ]);
      const [issue, update, rotate, revoke] = rows;
      expect(issue.before).toBeNull();
      expect(issue.after).toEqual({
        name: 'wallet',
        keyPrefix: issued.body.keyPrefix,
        parentNames: ['oak.eth'],
        quota: 5,
        expiresAt: null,
      });
      // parentNames was given unchanged, so only name and quota are recorded.
      expect(update.before).toEqual({ name: 'wallet', quota: 5 });
      expect(update.after).toEqual({ name: 'renamed', quota: 7 });
      expect(rotate.before).toEqual({ keyPrefix: issued.body.keyPrefix, previousKeyExpiresAt: null });
      expect(rotate.after).toEqual({ keyPrefix: rotated.body.keyPrefix, previousKeyExpiresAt: expect.any(String) });
      expect(revoke.before).toEqual({ revokedAt: null });
      expect(revoke.after).toEqual({ revokedAt: expect.any(String) });

      const stored = JSON.stringify(rows);
      for (const secret of [issued.body.key, rotated.body.key]) {
        expect(stored).not.toContain(secret);
        expect(stored).not.toContain(createHash('sha256').update(secret).digest('hex'));
      }
      expect(await events()).toHaveLength(4);
    });

    it('a refused key change leaves no event', async () => {
      const { id } = await t.issueKey(['oak.eth']);
      await adminReq('patch', `api-keys/${id}`).send({ quota: -1 }).expect(400);
      await adminReq('patch', 'api-keys/00000000-0000-4000-8000-000000000000').send({ name: 'x' }).expect(404);
      await adminReq('delete', 'api-keys/00000000-0000-4000-8000-000000000000').expect(404);
      expect((await events()).map((e) => e.action)).toEqual(['key.issue']);
    });
  });

  describe('subnames', () => {
    it('create, update and delete leave one event each, by the key, with the changed records', async () => {
      const { id, key } = await t.issueKey(['oak.eth'], 10);
      await write(
        key,
        { parentName: 'oak.eth', label: 'alice', texts: [{ key: 'url', value: 'https://a.example' }] },
        'req-c',
      ).expect(201);
      await write(key, { parentName: 'oak.eth', label: 'alice', owner: OWNER.toLowerCase() }, 'req-u').expect(200);
      // The same values again: an update that changes nothing is still one event, with nothing in it.
      await write(key, { parentName: 'oak.eth', label: 'alice', owner: OWNER }, 'req-same').expect(200);
      await request(t.http)
        .delete('/api/v1/subnames/alice.oak.eth')
        .set('x-auth-token', key)
        .set('x-request-id', 'req-d')
        .expect(204);

      const rows = await events('alice.oak.eth');
      expect(rows.map((e) => [e.action, e.actor, e.request_id])).toEqual([
        ['subname.create', id, 'req-c'],
        ['subname.update', id, 'req-u'],
        ['subname.update', id, 'req-same'],
        ['subname.delete', id, 'req-d'],
      ]);
      const created = {
        texts: { url: 'https://a.example' },
        addresses: {},
        metadata: {},
        contenthash: null,
        owner: null,
        ttl: null,
      };
      expect(rows[0].before).toBeNull();
      expect(rows[0].after).toEqual(created);
      expect(rows[1].before).toEqual({ owner: null });
      expect(rows[1].after).toEqual({ owner: OWNER });
      expect(rows[2].before).toEqual({});
      expect(rows[2].after).toEqual({});
      expect(rows[3].before).toEqual({ ...created, owner: OWNER });
      expect(rows[3].after).toBeNull();
    });

    it('records replaced maps whole, before and after', async () => {
      const { key } = await t.issueKey(['oak.eth'], 10);
      await write(key, { parentName: 'oak.eth', label: 'bob', addresses: [{ coin: 60, value: ETH_ADDRESS }] }).expect(
        201,
      );
      await write(key, { parentName: 'oak.eth', label: 'bob', addresses: [], ttl: 300 }).expect(200);
      const [, update] = await events('bob.oak.eth');
      expect(update.before).toEqual({ addresses: { '60': ETH_ADDRESS }, ttl: null });
      expect(update.after).toEqual({ addresses: {}, ttl: 300 });
    });

    it('parallel writes of one new name: one create event and an update event for each other write', async () => {
      const { key } = await t.issueKey(['oak.eth'], 10);
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          write(key, { parentName: 'oak.eth', label: 'race', ttl: 100 + i }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      const rows = await events('race.oak.eth');
      expect(rows.map((e) => e.action).sort()).toEqual(['subname.create', ...Array(7).fill('subname.update')]);
      expect(rows[0]).toMatchObject({ action: 'subname.create', before: null });
      // Each update saw the ttl that the write before it left: the events chain without a gap.
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i].before).toEqual({ ttl: (rows[i - 1].after as { ttl: number }).ttl });
      }
    });

    it('a create refused by QUOTA_EXCEEDED after its insert leaves no subname and no event', async () => {
      const { key } = await t.issueKey(['oak.eth'], 1);
      await write(key, { parentName: 'oak.eth', label: 'one' }).expect(201);
      const refused = await write(key, { parentName: 'oak.eth', label: 'two' }).expect(403);
      expect(refused.body.code).toBe('QUOTA_EXCEEDED');
      expect(await events('two.oak.eth')).toEqual([]);
      expect(await t.dataSource.query(`SELECT 1 FROM subnames WHERE full_name = 'two.oak.eth'`)).toEqual([]);
      // Refusals before any write leave nothing either.
      await write(key, { parentName: 'pine.eth', label: 'x' }).expect(403);
      await request(t.http).delete('/api/v1/subnames/nobody.oak.eth').set('x-auth-token', key).expect(404);
      expect((await events()).map((e) => `${e.action} ${e.subject}`).filter((s) => !s.startsWith('key.'))).toEqual([
        'subname.create one.oak.eth',
      ]);
    });
    it('a batch leaves one event per item, in item order, with the rows as they were; a refused batch leaves none', async () => {
      const { id, key } = await t.issueKey(['oak.eth'], 3);
      await write(key, { parentName: 'oak.eth', label: 'old', ttl: 1 }).expect(201);
      const batch = (items: object[], requestId: string) =>
        request(t.http)
          .post('/api/v1/subnames/batch')
          .set('x-auth-token', key)
          .set('x-request-id', requestId)
          .send({ items });
      await batch(
        [
          { parentName: 'oak.eth', label: 'new', texts: [{ key: 'url', value: 'https://n.example' }] },
          { parentName: 'oak.eth', label: 'old', ttl: 2 },
        ],
        'req-batch',
      ).expect(200);
      const rows = (await events()).filter((e) => e.request_id === 'req-batch');
      expect(rows.map((e) => [e.action, e.subject, e.actor])).toEqual([
        ['subname.create', 'new.oak.eth', id],
        ['subname.update', 'old.oak.eth', id],
      ]);
      expect(rows[0]).toMatchObject({ before: null, after: { texts: { url: 'https://n.example' } } });
      expect(rows[1]).toMatchObject({ before: { ttl: 1 }, after: { ttl: 2 } });
      // Two creations with one unit left: QUOTA_EXCEEDED after the upsert, so the events roll back with it.
      await batch(
        [
          { parentName: 'oak.eth', label: 'x1' },
          { parentName: 'oak.eth', label: 'x2' },
        ],
        'req-refused',
      ).expect(403);
      expect((await events()).filter((e) => e.request_id === 'req-refused')).toEqual([]);
    });
  });

  describe('listings', () => {
    const listing = (over: object = {}) => ({
      price: '5000000000000000',
      fee: '1000000000000000',
      paymentReceiver: RECEIVER,
      expirable: false,
      fuses: 65536,
      ...over,
    });

    it('put (create, then replace) and delete leave one event each, by admin, with the changed fields', async () => {
      await adminReq('put', 'listings/mainnet/Oak.ETH', 'req-l1').send(listing()).expect(200);
      await adminReq('put', 'listings/mainnet/oak.eth', 'req-l2')
        .send(listing({ paymentReceiver: OTHER_RECEIVER.toLowerCase(), price: '6000000000000000' }))
        .expect(200);
      await adminReq('delete', 'listings/mainnet/oak.eth', 'req-l3').expect(204);
      await adminReq('delete', 'listings/mainnet/oak.eth').expect(404);

      const rows = await events('mainnet/oak.eth');
      expect(rows.map((e) => [e.action, e.actor, e.request_id])).toEqual([
        ['listing.put', 'admin', 'req-l1'],
        ['listing.put', 'admin', 'req-l2'],
        ['listing.delete', 'admin', 'req-l3'],
      ]);
      const first = {
        price: '5000000000000000',
        lengthPrices: {},
        fee: '1000000000000000',
        paymentReceiver: RECEIVER,
        expirable: false,
        fuses: 65536,
        reservedLabels: [],
        active: true,
      };
      expect(rows[0].before).toBeNull();
      expect(rows[0].after).toEqual(first);
      expect(rows[1].before).toEqual({ price: '5000000000000000', paymentReceiver: RECEIVER });
      expect(rows[1].after).toEqual({ price: '6000000000000000', paymentReceiver: OTHER_RECEIVER });
      expect(rows[2].before).toEqual({ ...first, price: '6000000000000000', paymentReceiver: OTHER_RECEIVER });
      expect(rows[2].after).toBeNull();
      expect(await events()).toHaveLength(3);
    });
  });

  it('the table refuses UPDATE and DELETE: append-only in the database itself', async () => {
    await t.issueKey(['oak.eth']);
    await expect(t.dataSource.query(`UPDATE audit_events SET actor = 'someone'`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    expect((await events()).map((e) => e.actor)).toEqual(['admin']);
  });

  describe('GET /api/v1/admin/audit', () => {
    it('filters by actor, name and since, newest first, and pages', async () => {
      const a = await t.issueKey(['oak.eth'], 10);
      const b = await t.issueKey(['pine.eth'], 10);
      for (const label of ['a1', 'a2', 'a3']) await write(a.key, { parentName: 'oak.eth', label }).expect(201);
      await sleep(20);
      const middle = new Date();
      await sleep(20);
      await write(b.key, { parentName: 'pine.eth', label: 'b1' }).expect(201);
      await write(a.key, { parentName: 'oak.eth', label: 'a1', owner: OWNER }).expect(200);

      const all = (await audit('').expect(200)).body;
      expect(all.totalItems).toBe(7);
      expect(all.items.map((e: { action: string; subject: string }) => `${e.action} ${e.subject}`)).toEqual([
        'subname.update a1.oak.eth',
        'subname.create b1.pine.eth',
        'subname.create a3.oak.eth',
        'subname.create a2.oak.eth',
        'subname.create a1.oak.eth',
        `key.issue ${b.id}`,
        `key.issue ${a.id}`,
      ]);
      expect(all.items[0]).toEqual({
        id: expect.any(String),
        at: expect.any(String),
        actor: a.id,
        requestId: expect.any(String),
        action: 'subname.update',
        subject: 'a1.oak.eth',
        before: { owner: null },
        after: { owner: OWNER },
      });
      expect(all).toMatchObject({ page: 1, size: 25 });

      const byA = (await audit(`?actor=${a.id.toUpperCase()}`).expect(200)).body;
      expect(byA.totalItems).toBe(4);
      expect(byA.items.every((e: { actor: string }) => e.actor === a.id)).toBe(true);

      const byAdmin = (await audit('?actor=admin').expect(200)).body;
      expect(byAdmin.items.map((e: { action: string }) => e.action)).toEqual(['key.issue', 'key.issue']);

      const byName = (await audit('?name=a1.oak.eth').expect(200)).body;
      expect(byName.items.map((e: { action: string }) => e.action)).toEqual(['subname.update', 'subname.create']);

      const since = (await audit(`?since=${encodeURIComponent(middle.toISOString())}`).expect(200)).body;
      expect(since.items.map((e: { subject: string }) => e.subject)).toEqual(['a1.oak.eth', 'b1.pine.eth']);

      const combined = (await audit(`?since=${middle.toISOString()}&actor=${b.id}&name=b1.pine.eth`).expect(200)).body;
      expect(combined.items.map((e: { subject: string }) => e.subject)).toEqual(['b1.pine.eth']);

      const page2 = (await audit('?page=2&size=3').expect(200)).body;
      expect(page2).toMatchObject({ page: 2, size: 3, totalItems: 7 });
      expect(page2.items.map((e: { id: string }) => e.id)).toEqual(
        all.items.slice(3, 6).map((e: { id: string }) => e.id),
      );
      const beyond = (await audit('?page=5&size=3').expect(200)).body;
      expect(beyond).toMatchObject({ items: [], totalItems: 7 });
    });

    it('refuses a bad query with 400 naming the field', async () => {
      const field = async (query: string) => {
        const res = await audit(query).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        return res.body.errors.map((e: { field: string }) => e.field);
      };
      expect(await field('?since=yesterday')).toEqual(['since']);
      expect(await field('?actor=someone')).toEqual(['actor']);
      expect(await field(`?name=${'x'.repeat(513)}`)).toEqual(['name']);
      expect(await field('?name=')).toEqual(['name']);
      expect(await field('?page=0')).toEqual(['page']);
      expect(await field('?size=101')).toEqual(['size']);
      expect(await field('?size=abc')).toEqual(['size']);
      expect(await field('?page=101&size=100')).toEqual(['page']);
      expect(await field('?actor=admin&actor=admin')).toEqual(['actor']);
      expect(await field('?since=2026-01-01T00:00:00Z&sort=asc')).toEqual(['sort']);
      expect(await field('?name=a%00b')).toEqual(['name']);
    });

    it('needs the admin token', async () => {
      await request(t.http).get('/api/v1/admin/audit').expect(401);
      const { key } = await t.issueKey(['oak.eth']);
      await request(t.http).get('/api/v1/admin/audit').set('x-auth-token', key).expect(401);
    });
  });

  it('npm run cli -- audit: the same filters, as JSON; CLI changes are recorded as admin', async () => {
    const cli = (...args: string[]) =>
      execFileLogged('cli', process.execPath, [join(__dirname, '..', 'dist', 'cli.js'), ...args], {
        env: { ...process.env, ...testEnv() },
      });
    const created = JSON.parse((await cli('keys', 'create', '--name', 'c', '--parent', 'oak.eth', '--json')).stdout);
    await t.issueKey(['pine.eth']);
    const out = JSON.parse((await cli('audit', '--name', created.id, '--size', '5')).stdout);
    expect(out).toMatchObject({ page: 1, size: 5, totalItems: 1 });
    expect(out.items[0]).toMatchObject({
      actor: 'admin',
      action: 'key.issue',
      subject: created.id,
      requestId: expect.stringMatching(/^cli-[0-9a-f-]{36}$/),
    });
    const all = JSON.parse((await cli('audit', '--actor', 'admin', '--since', '2020-01-01T00:00:00Z')).stdout);
    expect(all.totalItems).toBe(2);
    await expect(cli('audit', '--page', '0')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--page: must be from 1'),
    });
  });
});
