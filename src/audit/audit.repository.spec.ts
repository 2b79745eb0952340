import type { EntityManager } from 'typeorm';
import { migratedDatabase, MigratedDatabase } from '../../test/support/pglite-data-source';
import { AuditRepository } from './audit.repository';
import type { AuditEvent } from './audit.types';

const event = (actor: string, subject: string, before: object | null, after: object | null): AuditEvent => ({
  by: { actor, requestId: `req-${subject}` },
  action: 'subname.update',
  subject,
  before: before as AuditEvent['before'],
  after: after as AuditEvent['after'],
});

// On the migrated schema (PGlite, through TypeORM and pg as in the service): the rows written and the pages read.
describe(AuditRepository.name, () => {
  let db: MigratedDatabase;
  let manager: EntityManager;
  const sut = new AuditRepository();

  beforeAll(async () => {
    db = await migratedDatabase();
    manager = db.dataSource.manager;
  });
  afterAll(() => db?.close());
  beforeEach(() => manager.query('TRUNCATE audit_events RESTART IDENTITY'));

  it('insertMany writes one row per event, in the order given, before and after as JSON (null kept)', async () => {
    await sut.insertMany(manager, [
      event('k1', 'b.oak.eth', null, { ttl: 1 }),
      event('k1', 'a.oak.eth', { texts: { url: 'x' } }, null),
    ]);
    await sut.insert(manager, event('admin', 'c.oak.eth', { owner: null }, { owner: '0xab' }));
    await sut.insertMany(manager, []);
    expect(
      await manager.query('SELECT actor, request_id, action, subject, before, after FROM audit_events ORDER BY id'),
    ).toEqual([
      {
        actor: 'k1',
        request_id: 'req-b.oak.eth',
        action: 'subname.update',
        subject: 'b.oak.eth',
        before: null,
        after: { ttl: 1 },
      },
      {
        actor: 'k1',
        request_id: 'req-a.oak.eth',
        action: 'subname.update',
        subject: 'a.oak.eth',
        before: { texts: { url: 'x' } },
        after: null,
      },
      {
        actor: 'admin',
        request_id: 'req-c.oak.eth',
        action: 'subname.update',
        subject: 'c.oak.eth',
        before: { owner: null },
        after: { owner: '0xab' },
      },
    ]);
  });

  it('the trail is append-only: an update or a delete of an event is refused', async () => {
    await sut.insert(manager, event('k1', 'a.oak.eth', null, { ttl: 1 }));
    await expect(manager.query(`UPDATE audit_events SET actor = 'x'`)).rejects.toThrow();
    await expect(manager.query('DELETE FROM audit_events')).rejects.toThrow();
    expect(await manager.query('SELECT actor FROM audit_events')).toEqual([{ actor: 'k1' }]);
  });

  describe('page', () => {
    beforeEach(async () => {
      // Two events in one statement share their time (the transaction's): the id orders them.
      await sut.insertMany(manager, [event('k1', 'a.oak.eth', null, {}), event('k2', 'a.oak.eth', null, {})]);
      await sut.insert(manager, event('k1', 'b.oak.eth', null, {}));
    });
    const page = async (f: Parameters<AuditRepository['page']>[1], window = { limit: 10, offset: 0 }) => {
      const p = await sut.page(manager, f, window);
      return { total: p.totalItems, items: p.items.map((e) => `${e.actor}:${e.subject}`) };
    };

    it('newest first (time, then id), the window applied, the total of all', async () => {
      expect(await page({})).toEqual({ total: 3, items: ['k1:b.oak.eth', 'k2:a.oak.eth', 'k1:a.oak.eth'] });
      expect(await page({}, { limit: 1, offset: 1 })).toEqual({ total: 3, items: ['k2:a.oak.eth'] });
      expect(await page({}, { limit: 5, offset: 3 })).toEqual({ total: 3, items: [] });
    });

    it('filters by actor, subject and since, together', async () => {
      expect(await page({ actor: 'k1' })).toEqual({ total: 2, items: ['k1:b.oak.eth', 'k1:a.oak.eth'] });
      expect(await page({ subject: 'a.oak.eth', actor: 'k2' })).toEqual({ total: 1, items: ['k2:a.oak.eth'] });
      expect(await page({ since: new Date(Date.now() + 60_000) })).toEqual({ total: 0, items: [] });
      expect(await page({ since: new Date(Date.now() - 3_600_000), subject: 'b.oak.eth' })).toEqual({
        total: 1,
        items: ['k1:b.oak.eth'],
      });
    });

    it('maps each row to its entity: id as a string, time as a Date, before and after as stored', async () => {
      const [newest] = (await sut.page(manager, { subject: 'b.oak.eth' }, { limit: 1, offset: 0 })).items;
      expect(newest).toMatchObject({ id: '3', actor: 'k1', requestId: 'req-b.oak.eth', before: null, after: {} });
      expect(newest.at).toBeInstanceOf(Date);
    });
  });
});
