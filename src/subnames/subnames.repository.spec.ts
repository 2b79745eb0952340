import { insertApiKey, useMigratedDatabase } from '../../test/support/pglite-data-source';
import { QuotaRepository } from '../quota/quota.repository';
import type { SubnameWrite } from './subname-row';
import { SubnamesRepository } from './subnames.repository';
import { QUOTA_REFUSED_SQLSTATE } from './upsert-queries';

const OWNER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const KEY_ID = '00000000-0000-4000-8000-000000000001';
const BY = { actor: KEY_ID, requestId: 'req-1' };
const EVENT = { actor: KEY_ID, request_id: 'req-1', action: 'subname.update', subject: 'alice.oak.eth' };
const SEEDED_AT = '2026-01-01T00:00:00.000Z';
const NAMEHASH = `0x${'0'.repeat(64)}`;

const write = (fullName: string, fields: Partial<SubnameWrite> = {}): SubnameWrite => ({
  fullName,
  parentName: fullName.slice(fullName.indexOf('.') + 1),
  label: fullName.slice(0, fullName.indexOf('.')),
  namehash: NAMEHASH,
  createdBy: KEY_ID,
  ...fields,
});

// Each method runs on the migrated schema (PGlite, through TypeORM and pg as in the service): what it writes,
// returns and leaves, not how its SQL reads.
describe(SubnamesRepository.name, () => {
  const db = useMigratedDatabase('subnames, audit_events, key_quotas, api_keys');
  const sut = new SubnamesRepository();

  /** A row as a test needs it before the call: its parent and label from the full name. */
  const seed = async (fullName: string, fields: Record<string, unknown> = {}) => {
    const w = write(fullName);
    const row = { texts: {}, addresses: {}, metadata: {}, owner: null, ttl: null, created_at: SEEDED_AT, ...fields };
    await db.manager.query(
      `INSERT INTO subnames (full_name, parent_name, label, namehash, created_by, texts, addresses, metadata, owner, ttl,
                             created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10, $11, $11)`,
      [
        w.fullName,
        w.parentName,
        w.label,
        w.namehash,
        KEY_ID,
        JSON.stringify(row.texts),
        JSON.stringify(row.addresses),
        JSON.stringify(row.metadata),
        row.owner,
        row.ttl,
        row.created_at,
      ],
    );
  };
  const stored = async () =>
    (await db.manager.query('SELECT * FROM subnames ORDER BY full_name')) as Record<string, unknown>[];
  const used = async () =>
    ((await db.manager.query('SELECT used FROM key_quotas WHERE api_key_id = $1', [KEY_ID])) as { used: number }[])[0]
      .used;
  const auditRows = () =>
    db.manager.query(
      'SELECT actor, request_id, action, subject, before, after FROM audit_events ORDER BY id',
    ) as Promise<Record<string, unknown>[]>;

  beforeEach(async () => {
    await insertApiKey(db.manager, KEY_ID, 'f'.repeat(64));
    await new QuotaRepository().create(db.manager, KEY_ID, 2);
  });

  describe('write', () => {
    it('creates the name, records its event with every record as "after", and charges one unit', async () => {
      const w = write('alice.oak.eth', {
        texts: { url: 'https://a' },
        addresses: { '60': '0xab' },
        owner: OWNER,
        ttl: 60,
      });
      const query = jest.spyOn(db.manager, 'query');
      const created = await sut.write(db.manager, w, BY);
      // One statement, one round trip: no BEGIN, no COMMIT.
      expect(query).toHaveBeenCalledTimes(1);
      query.mockRestore();
      expect(created).toMatchObject({ created: true, previous: null, quota: { limit: 2, used: 1 } });
      expect(created!.entity).toMatchObject({
        fullName: 'alice.oak.eth',
        parentName: 'oak.eth',
        label: 'alice',
        texts: { url: 'https://a' },
        addresses: { '60': '0xab' },
        metadata: {},
        contenthash: null,
        owner: OWNER,
        ttl: 60,
        createdBy: KEY_ID,
      });
      expect(await stored()).toHaveLength(1);
      expect(await used()).toBe(1);
      expect(await auditRows()).toEqual([
        {
          actor: KEY_ID,
          request_id: 'req-1',
          action: 'subname.create',
          subject: 'alice.oak.eth',
          before: null,
          after: {
            texts: { url: 'https://a' },
            addresses: { '60': '0xab' },
            metadata: {},
            contenthash: null,
            owner: OWNER,
            ttl: 60,
          },
        },
      ]);
    });

    it('charges exactly one unit per creation, and the key’s next creation past its limit is refused', async () => {
      expect((await sut.write(db.manager, write('a.oak.eth'), BY))!.quota).toEqual({ limit: 2, used: 1 });
      expect((await sut.write(db.manager, write('b.oak.eth'), BY))!.quota).toEqual({ limit: 2, used: 2 });
      await expect(sut.write(db.manager, write('c.oak.eth'), BY)).rejects.toMatchObject({
        driverError: { code: QUOTA_REFUSED_SQLSTATE },
      });
      expect(await used()).toBe(2);
      expect((await auditRows()).map((r) => r.subject)).toEqual(['a.oak.eth', 'b.oak.eth']);
      expect((await stored()).map((r) => r.full_name)).toEqual(['a.oak.eth', 'b.oak.eth']);
    });

    it('createOnly on a name that exists: null, and nothing written, charged or recorded', async () => {
      await seed('alice.oak.eth', { texts: { url: 'old' } });
      expect(await sut.write(db.manager, write('alice.oak.eth', { texts: { url: 'new' } }), BY, true)).toBeNull();
      expect((await stored()).map((r) => r.texts)).toEqual([{ url: 'old' }]);
      expect(await used()).toBe(0);
      expect(await auditRows()).toEqual([]);
    });

    it('no unit left: refused with its SQLSTATE, and neither the name nor its event is written', async () => {
      await db.manager.query('UPDATE key_quotas SET used = quota_limit WHERE api_key_id = $1', [KEY_ID]);
      const refused = sut.write(db.manager, write('alice.oak.eth'), BY);
      await expect(refused).rejects.toMatchObject({ driverError: { code: QUOTA_REFUSED_SQLSTATE } });
      expect(await stored()).toEqual([]);
      expect(await auditRows()).toEqual([]);
      expect(await used()).toBe(2);
    });

    it('an absent name: left-out fields are stored empty', async () => {
      const r = await sut.write(db.manager, write('alice.oak.eth', { ttl: 5 }), BY);
      expect(r!.entity).toMatchObject({
        texts: {},
        addresses: {},
        metadata: {},
        owner: null,
        contenthash: null,
        ttl: 5,
      });
    });

    it('an existing name is updated in its one row: given fields replaced, others kept, only the changes recorded, nothing charged', async () => {
      await seed('alice.oak.eth', { texts: { url: 'old' }, owner: OWNER, ttl: 1 });
      await db.manager.query('UPDATE key_quotas SET used = 1 WHERE api_key_id = $1', [KEY_ID]);
      const r = await sut.write(db.manager, write('alice.oak.eth', { texts: { url: 'new' }, ttl: 1 }), BY);
      expect(r).toMatchObject({ created: false, quota: { limit: 2, used: 1 } });
      expect(r!.entity).toMatchObject({ texts: { url: 'new' }, owner: OWNER, ttl: 1 });
      expect(r!.previous).toMatchObject({ texts: { url: 'old' }, owner: OWNER, ttl: 1 });
      expect(r!.entity.createdAt.toISOString()).toBe(SEEDED_AT);
      expect(r!.entity.updatedAt.getTime()).toBeGreaterThan(Date.parse(SEEDED_AT));
      const second = await sut.write(db.manager, write('alice.oak.eth', { ttl: 9, owner: null }), BY);
      expect(second!.previous).toMatchObject({ texts: { url: 'new' }, owner: OWNER, ttl: 1 });
      expect(second!.entity).toMatchObject({ texts: { url: 'new' }, owner: null, ttl: 9 });
      expect(await stored()).toHaveLength(1);
      expect(await used()).toBe(1);
      expect(await auditRows()).toEqual([
        { ...EVENT, before: { texts: { url: 'old' } }, after: { texts: { url: 'new' } } },
        { ...EVENT, before: { owner: OWNER, ttl: 1 }, after: { owner: null, ttl: 9 } },
      ]);
    });

    it('a name whose row a concurrent delete took between the insert and the update is created, charged and recorded', async () => {
      // The first insert answers as if the name were stored; the update then finds no row.
      const racing = sut as unknown as { chargedInsert: SubnamesRepository['write'] };
      const spy = jest.spyOn(racing, 'chargedInsert').mockResolvedValueOnce(null);
      const r = await sut.write(db.manager, write('alice.oak.eth', { owner: OWNER }), BY);
      expect(r).toMatchObject({
        created: true,
        previous: null,
        entity: { owner: OWNER },
        quota: { limit: 2, used: 1 },
      });
      expect(await stored()).toHaveLength(1);
      expect((await auditRows()).map((e) => [e.action, e.subject])).toEqual([['subname.create', 'alice.oak.eth']]);
      expect(spy).toHaveBeenCalledTimes(2);
      spy.mockRestore();
    });
  });

  describe('upsertMany', () => {
    it('results in the order of the writes; left-out fields insert empty', async () => {
      const results = await sut.upsertMany(db.manager, [
        write('b.oak.eth', { ttl: 5 }),
        write('a.oak.eth', { ttl: null }),
      ]);
      expect(results.map((r) => [r.entity.fullName, r.inserted, r.previous, r.entity.ttl])).toEqual([
        ['b.oak.eth', true, null, 5],
        ['a.oak.eth', true, null, null],
      ]);
      expect(results[0].entity).toMatchObject({ texts: {}, addresses: {}, metadata: {}, owner: null });
      expect((await stored()).map((r) => r.full_name)).toEqual(['a.oak.eth', 'b.oak.eth']);
    });

    it('a field every item gives is taken from the item; a field no item gives is left alone', async () => {
      await seed('a.oak.eth', { texts: { url: 'old' }, owner: OWNER, ttl: 1 });
      const [a, b] = await sut.upsertMany(db.manager, [
        write('a.oak.eth', { ttl: 5 }),
        write('b.oak.eth', { ttl: null }),
      ]);
      expect(a).toMatchObject({ inserted: false, entity: { texts: { url: 'old' }, owner: OWNER, ttl: 5 } });
      expect(b).toMatchObject({ inserted: true });
    });

    it('a field some items give is taken only for the full names that give it', async () => {
      await seed('a.oak.eth', { texts: { url: 'old' }, owner: OWNER });
      await seed('b.oak.eth', { texts: { url: 'b' } });
      const [a, b, c] = await sut.upsertMany(db.manager, [
        write('a.oak.eth', { texts: { url: 'x' }, owner: null }),
        write('b.oak.eth', { owner: OWNER }),
        write('c.oak.eth', { texts: {} }),
      ]);
      expect(a.entity).toMatchObject({ texts: { url: 'x' }, owner: null });
      expect(b.entity).toMatchObject({ texts: { url: 'b' }, owner: OWNER });
      expect(c).toMatchObject({ inserted: true, entity: { texts: {}, owner: null } });
    });

    it('items that change nothing keep updated_at; a change moves it', async () => {
      await seed('a.oak.eth', { texts: { url: 'old' }, ttl: 1 });
      await seed('b.oak.eth', { ttl: 1 });
      const same = await sut.upsertMany(db.manager, [write('a.oak.eth'), write('b.oak.eth', { texts: {} })]);
      expect(same.map((r) => r.entity.updatedAt.toISOString())).toEqual([SEEDED_AT, SEEDED_AT]);
      const [changed] = await sut.upsertMany(db.manager, [write('b.oak.eth', { ttl: 2 })]);
      expect(changed.entity.updatedAt.getTime()).toBeGreaterThan(Date.parse(SEEDED_AT));
    });

    it('an update hands back the row it replaced as "previous", for the audit trail; a creation none', async () => {
      await seed('a.oak.eth', { texts: { url: 'old' }, owner: OWNER, ttl: 1 });
      const [a, b] = await sut.upsertMany(db.manager, [
        write('a.oak.eth', { texts: { url: 'new' }, ttl: 9 }),
        write('b.oak.eth'),
      ]);
      expect(a.previous).toMatchObject({ texts: { url: 'old' }, owner: OWNER, ttl: 1 });
      expect(a.entity).toMatchObject({ texts: { url: 'new' }, owner: OWNER, ttl: 9 });
      expect(b.previous).toBeNull();
      expect(await stored()).toHaveLength(2);
    });
  });

  describe('searchPage', () => {
    /** label, parent, minute of creation, owner, metadata: two parents interleaved in time, and one elsewhere. */
    const ROWS: [string, string, number, string | null, object][] = [
      ['alice', 'oak.eth', 1, OWNER, { tier: 'gold' }],
      ['carol', 'pine.eth', 2, null, { tier: 'gold' }],
      ['bob', 'oak.eth', 3, null, {}],
      ['dave', 'pine.eth', 4, null, { tier: 'silver' }],
      ['ali_b%x', 'oak.eth', 5, OWNER, {}],
      ['erin', 'elm.eth', 6, null, { tier: 'gold' }],
      ['alibaba', 'oak.eth', 7, null, {}],
    ];
    beforeEach(async () => {
      for (const [label, parent, minute, owner, metadata] of ROWS) {
        const at = new Date(Date.parse(SEEDED_AT) + minute * 60_000).toISOString();
        await seed(`${label}.${parent}`, { owner, metadata, created_at: at });
      }
    });

    /** The page's labels in order, and the total, as the repository answers them in a transaction of its own. */
    const search = (
      filter: Parameters<SubnamesRepository['searchPage']>[1],
      window = { limit: 25, offset: 0 },
    ): Promise<{ total: number; labels: string[] }> =>
      db.dataSource.transaction(async (m) => {
        const page = await sut.searchPage(m, filter, window, 5_000);
        return { total: page.totalItems, labels: page.items.map((e) => e.label) };
      });

    it('one parent, no filter: its rows in creation order, the window applied, the total of all', async () => {
      expect(await search({ parentNames: ['oak.eth'] }, { limit: 2, offset: 1 })).toEqual({
        total: 4,
        labels: ['bob', 'ali_b%x'],
      });
      expect(await search({ parentNames: ['oak.eth'] }, { limit: 2, offset: 4 })).toEqual({ total: 4, labels: [] });
      expect(await search({ parentNames: ['nowhere.eth'] })).toEqual({ total: 0, labels: [] });
    });

    it('several parents, no filter: their rows merged in creation order, then the window', async () => {
      expect(await search({ parentNames: ['oak.eth', 'pine.eth'] }, { limit: 3, offset: 2 })).toEqual({
        total: 6,
        labels: ['bob', 'dave', 'ali_b%x'],
      });
    });

    it('rows created at the same instant come in id order, so pages never overlap', async () => {
      await seed('zed.elm.eth', { created_at: '2026-01-01T00:06:00.000Z' });
      const ids = (
        (await db.manager.query(`SELECT label FROM subnames WHERE parent_name = 'elm.eth' ORDER BY id`)) as {
          label: string;
        }[]
      ).map((r) => r.label);
      const first = await search({ parentNames: ['elm.eth'] }, { limit: 1, offset: 0 });
      const second = await search({ parentNames: ['elm.eth'] }, { limit: 1, offset: 1 });
      expect([...first.labels, ...second.labels]).toEqual(ids);
    });

    it('a label fragment matches literally (LIKE wildcards escaped), short or long, within the parent', async () => {
      expect(await search({ parentNames: ['oak.eth'], labelSearch: 'i_' })).toEqual({ total: 1, labels: ['ali_b%x'] });
      expect(await search({ parentNames: ['oak.eth'], labelSearch: '%' })).toEqual({ total: 1, labels: ['ali_b%x'] });
      expect(await search({ parentNames: ['oak.eth'], labelSearch: 'ali_' })).toEqual({
        total: 1,
        labels: ['ali_b%x'],
      });
      expect(await search({ parentNames: ['oak.eth'], labelSearch: 'ali' })).toEqual({
        total: 3,
        labels: ['alice', 'ali_b%x', 'alibaba'],
      });
      expect(await search({ parentNames: ['pine.eth'], labelSearch: 'ali' })).toEqual({ total: 0, labels: [] });
    });

    it('with filters: every condition holds for each row, counted and paged from the matches', async () => {
      const both = { parentNames: ['oak.eth'], labelSearch: 'ali_b%', owner: OWNER.toLowerCase() };
      expect(await search(both)).toEqual({ total: 1, labels: ['ali_b%x'] });
      const owner = { parentNames: ['oak.eth'], owner: OWNER.toLowerCase() };
      expect(await search(owner, { limit: 1, offset: 1 })).toEqual({ total: 2, labels: ['ali_b%x'] });
      expect(await search(owner, { limit: 1, offset: 2 })).toEqual({ total: 2, labels: [] });
    });

    it('metadata matches only under the given parents', async () => {
      const gold = { tier: 'gold' };
      expect(await search({ parentNames: ['oak.eth'], metadata: gold })).toEqual({ total: 1, labels: ['alice'] });
      expect(await search({ parentNames: ['oak.eth', 'pine.eth'], metadata: gold })).toEqual({
        total: 2,
        labels: ['alice', 'carol'],
      });
      expect(await search({ parentNames: ['oak.eth', 'pine.eth'], metadata: gold, labelSearch: 'car' })).toEqual({
        total: 1,
        labels: ['carol'],
      });
    });

    it('its statement timeout holds for its own transaction only', async () => {
      const runner = db.dataSource.createQueryRunner();
      try {
        const outside = await runner.query('SHOW statement_timeout');
        await runner.startTransaction();
        await sut.searchPage(runner.manager, { parentNames: ['oak.eth'] }, { limit: 1, offset: 0 }, 1234);
        expect(await runner.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '1234ms' }]);
        await runner.commitTransaction();
        expect(await runner.query('SHOW statement_timeout')).toEqual(outside);
      } finally {
        await runner.release();
      }
    });
  });

  describe('exportPage', () => {
    it('names under the parent at any depth, in reversed-name order, paged by the cursor it returns', async () => {
      for (const name of ['b.oak.eth', 'a.oak.eth', 'x.a.oak.eth', 'c.xoak.eth', 'oak.eth', 'd.pine.eth']) {
        await seed(name);
      }
      const first = await sut.exportPage(db.manager, 'oak.eth', null, 2);
      expect(first.items.map((e) => e.fullName)).toEqual(['a.oak.eth', 'x.a.oak.eth']);
      expect(first.cursor).toBe('hte.kao.a.x');
      const second = await sut.exportPage(db.manager, 'oak.eth', first.cursor, 2);
      expect(second.items.map((e) => e.fullName)).toEqual(['b.oak.eth']);
      const last = await sut.exportPage(db.manager, 'oak.eth', second.cursor, 2);
      expect(last).toEqual({ items: [], cursor: null });
    });
  });

  describe('patch', () => {
    beforeEach(() => seed('alice.oak.eth', { texts: { a: '1', b: '2' }, addresses: { '60': '0xab' }, owner: OWNER }));
    const patch = { setTexts: { c: '3' }, removeTexts: ['a'], setAddresses: {}, removeAddresses: ['60'] };

    it('the holder (any letter case) merges and removes keys; the row before comes back beside it', async () => {
      const r = await sut.patch(db.manager, 'alice.oak.eth', OWNER.toUpperCase().replace('0X', '0x'), {
        ...patch,
        contenthash: 'ipfs://x',
      });
      expect(r!.entity).toMatchObject({
        texts: { b: '2', c: '3' },
        addresses: {},
        contenthash: 'ipfs://x',
        owner: OWNER,
      });
      expect(r!.previous).toMatchObject({ texts: { a: '1', b: '2' }, addresses: { '60': '0xab' }, contenthash: null });
    });

    it('anyone else, or a name that is not stored: null, and the row is unchanged', async () => {
      expect(
        await sut.patch(db.manager, 'alice.oak.eth', '0x0000000000000000000000000000000000000001', patch),
      ).toBeNull();
      expect(await sut.patch(db.manager, 'nobody.oak.eth', OWNER, patch)).toBeNull();
      expect((await stored())[0]).toMatchObject({ texts: { a: '1', b: '2' }, addresses: { '60': '0xab' } });
    });
  });

  describe('reads and deletes', () => {
    beforeEach(async () => {
      await seed('c.oak.eth', { owner: OWNER, created_at: '2026-01-01T00:03:00.000Z' });
      await seed('a.oak.eth', { owner: OWNER.toLowerCase(), created_at: '2026-01-01T00:01:00.000Z' });
      await seed('b.oak.eth', { created_at: '2026-01-01T00:02:00.000Z' });
    });

    it('ownedPage: the names an address holds in any letter case, in creation order, and how many in all', async () => {
      const owner = OWNER.toLowerCase();
      const page = await sut.ownedPage(db.manager, owner, { limit: 1, offset: 1 });
      expect(page.items.map((e) => e.fullName)).toEqual(['c.oak.eth']);
      expect(page.totalItems).toBe(2);
      expect(await sut.ownedPage(db.manager, owner, { limit: 5, offset: 5 })).toEqual({ items: [], totalItems: 2 });
      expect(await sut.ownedPage(db.manager, '0x01', { limit: 5, offset: 0 })).toEqual({ items: [], totalItems: 0 });
    });

    it('count, findByFullName and fullNamesAfter read the stored rows', async () => {
      expect(await sut.count(db.manager)).toBe(3);
      expect((await sut.findByFullName(db.manager, 'b.oak.eth'))?.label).toBe('b');
      expect(await sut.findByFullName(db.manager, 'z.oak.eth')).toBeNull();
      expect(await sut.fullNamesAfter(db.manager, 'a.oak.eth', 5)).toEqual(['b.oak.eth', 'c.oak.eth']);
      expect(await sut.fullNamesAfter(db.manager, '', 1)).toEqual(['a.oak.eth']);
    });

    it('deleteByFullName: the deleted row, or null; given an owner, only a row that address holds', async () => {
      expect(await sut.deleteByFullName(db.manager, 'b.oak.eth', OWNER)).toBeNull();
      expect((await sut.deleteByFullName(db.manager, 'c.oak.eth', OWNER.toLowerCase()))?.fullName).toBe('c.oak.eth');
      expect((await sut.deleteByFullName(db.manager, 'b.oak.eth'))?.fullName).toBe('b.oak.eth');
      expect(await sut.deleteByFullName(db.manager, 'b.oak.eth')).toBeNull();
      expect((await stored()).map((r) => r.full_name)).toEqual(['a.oak.eth']);
    });
  });
});
