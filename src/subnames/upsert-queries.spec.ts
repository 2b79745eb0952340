import { migratedPGlite, WorkerPGlite } from '../../test/support/pglite-schema';
import type { SubnameWrite } from './subname-row';
import { buildUpsertManyQuery } from './upsert-queries';

const OWNER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const KEY_ID = '00000000-0000-4000-8000-000000000001';
const SEEDED_AT = '2026-01-01T00:00:00.000Z';

type Row = Record<string, unknown> & { full_name: string };

// Run on the migrated schema (PGlite): what the statement writes and returns, not how its text reads.
describe(buildUpsertManyQuery.name, () => {
  let db: WorkerPGlite;
  const write = (fullName: string, fields: Partial<SubnameWrite> = {}): SubnameWrite => ({
    fullName,
    parentName: fullName.slice(fullName.indexOf('.') + 1),
    label: fullName.slice(0, fullName.indexOf('.')),
    namehash: `0x${'0'.repeat(64)}`,
    createdBy: KEY_ID,
    ...fields,
  });
  const seed = async (fullName: string, texts: object, owner: string | null, ttl: number | null) => {
    const w = write(fullName);
    await db.query(
      `INSERT INTO subnames (full_name, parent_name, label, namehash, texts, owner, ttl, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)`,
      [w.fullName, w.parentName, w.label, w.namehash, JSON.stringify(texts), owner, ttl, SEEDED_AT],
    );
  };
  /** The statement's rows by full name. */
  const upsert = async (writes: SubnameWrite[]): Promise<Record<string, Row>> => {
    const { sql, params } = buildUpsertManyQuery(writes);
    const rows = await db.query<Row>(sql, params);
    return Object.fromEntries(rows.map((r) => [r.full_name, r]));
  };
  const ttl = (r: Row) => (r.ttl === null ? null : Number(r.ttl));
  const updatedAt = (r: Row) => new Date(r.updated_at as string).toISOString();

  beforeAll(async () => {
    db = await migratedPGlite();
  });
  afterAll(() => db?.close());
  beforeEach(() => db.query('DELETE FROM subnames', []));

  it('one JSON parameter for every item; left-out fields insert empty', async () => {
    const writes = [write('b.oak.eth', { ttl: 5 }), write('a.oak.eth', { ttl: null })];
    expect(buildUpsertManyQuery(writes).params).toHaveLength(1);
    const rows = await upsert(writes);
    expect(Object.keys(rows).sort()).toEqual(['a.oak.eth', 'b.oak.eth']);
    expect(rows['b.oak.eth']).toMatchObject({ inserted: true, had_old: false, texts: {}, addresses: {}, owner: null });
    expect(ttl(rows['b.oak.eth'])).toBe(5);
    expect(ttl(rows['a.oak.eth'])).toBeNull();
  });

  it('a field every item gives is taken from the row proposed; a field no item gives is left alone', async () => {
    await seed('a.oak.eth', { url: 'old' }, OWNER, 1);
    const rows = await upsert([write('a.oak.eth', { ttl: 5 }), write('b.oak.eth', { ttl: null })]);
    expect(rows['a.oak.eth']).toMatchObject({ inserted: false, texts: { url: 'old' }, owner: OWNER });
    expect(ttl(rows['a.oak.eth'])).toBe(5);
    expect(rows['b.oak.eth']).toMatchObject({ inserted: true });
  });

  it('a field some items give is taken only for the full names that give it', async () => {
    await seed('a.oak.eth', { url: 'old' }, OWNER, null);
    await seed('b.oak.eth', { url: 'b' }, null, null);
    const rows = await upsert([
      write('a.oak.eth', { texts: { url: 'x' }, owner: null }),
      write('b.oak.eth', { owner: OWNER }),
      write('c.oak.eth', { texts: {} }),
    ]);
    expect(rows['a.oak.eth']).toMatchObject({ texts: { url: 'x' }, owner: null });
    expect(rows['b.oak.eth']).toMatchObject({ texts: { url: 'b' }, owner: OWNER });
    expect(rows['c.oak.eth']).toMatchObject({ inserted: true, texts: {}, owner: null });
  });

  it('items that change nothing keep updated_at; a change moves it', async () => {
    await seed('a.oak.eth', { url: 'old' }, null, 1);
    await seed('b.oak.eth', {}, null, 1);
    const rows = await upsert([write('a.oak.eth'), write('b.oak.eth', { texts: {} })]);
    expect(updatedAt(rows['a.oak.eth'])).toBe(SEEDED_AT);
    expect(updatedAt(rows['b.oak.eth'])).toBe(SEEDED_AT);
    const changed = await upsert([write('b.oak.eth', { ttl: 2 })]);
    expect(updatedAt(changed['b.oak.eth'])).not.toBe(SEEDED_AT);
  });

  it('an update returns the row it replaced (old_*) beside the new one, for the audit trail', async () => {
    await seed('a.oak.eth', { url: 'old' }, OWNER, 1);
    const rows = await upsert([write('a.oak.eth', { texts: { url: 'new' }, ttl: 9 })]);
    expect(rows['a.oak.eth']).toMatchObject({
      had_old: true,
      old_texts: { url: 'old' },
      old_owner: OWNER,
      texts: { url: 'new' },
    });
    expect(Number(rows['a.oak.eth'].old_ttl)).toBe(1);
  });
});
