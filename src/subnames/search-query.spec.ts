import { migratedPGlite, WorkerPGlite } from '../../test/support/pglite-schema';
import { buildSearchQuery, escapeLike } from './search-query';
import type { PageWindow, SubnameFilter } from './search-filter';

const OWNER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe(escapeLike.name, () => {
  it('escapes the LIKE wildcards and the escape character, nothing else', () => {
    expect(escapeLike('50%_off\\x')).toBe('50\\%\\_off\\\\x');
    expect(escapeLike('alice')).toBe('alice');
  });
});

// Run on the migrated schema (PGlite), so a wrong condition or page shows in the rows, not in the text.
describe(buildSearchQuery.name, () => {
  let db: WorkerPGlite;
  /** label, parent, minute of creation, owner, metadata: two parents interleaved in time, and one elsewhere. */
  const ROWS: [string, string, number, string | null, object][] = [
    ['alice', 'oak.eth', 1, OWNER, { tier: 'gold' }],
    ['carol', 'pine.eth', 2, null, { tier: 'gold' }],
    ['bob', 'oak.eth', 3, null, {}],
    ['dave', 'pine.eth', 4, null, { tier: 'silver' }],
    ['ali_b%x', 'oak.eth', 5, OWNER, {}],
    ['erin', 'elm.eth', 6, null, { tier: 'gold' }],
  ];

  beforeAll(async () => {
    db = await migratedPGlite();
    for (const [label, parent, minute, owner, metadata] of ROWS) {
      await db.query(
        `INSERT INTO subnames (full_name, parent_name, label, namehash, owner, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, timestamptz '2026-01-01' + make_interval(mins => $7))`,
        [`${label}.${parent}`, parent, label, `0x${'0'.repeat(64)}`, owner, JSON.stringify(metadata), minute],
      );
    }
  });
  afterAll(() => db?.close());

  /** The page's labels in order, and the total, as the statement answers them. */
  const search = async (filter: SubnameFilter, window: PageWindow = { limit: 25, offset: 0 }) => {
    const { sql, params } = buildSearchQuery(filter, window);
    const rows = await db.query<{ total_items: unknown; label: string | null }>(sql, params);
    return { total: Number(rows[0].total_items), labels: rows.flatMap((r) => (r.label === null ? [] : [r.label])) };
  };

  it('one parent, no filter: its rows in creation order, the window applied, the total of all', async () => {
    expect(await search({ parentNames: ['oak.eth'] }, { limit: 2, offset: 1 })).toEqual({
      total: 3,
      labels: ['bob', 'ali_b%x'],
    });
    expect(await search({ parentNames: ['oak.eth'] }, { limit: 2, offset: 3 })).toEqual({ total: 3, labels: [] });
  });

  it('several parents, no filter: their rows merged in creation order, then the window', async () => {
    expect(await search({ parentNames: ['oak.eth', 'pine.eth'] }, { limit: 2, offset: 2 })).toEqual({
      total: 5,
      labels: ['bob', 'dave'],
    });
  });

  it('a label fragment matches literally (LIKE wildcards escaped), short or long, within the parent', async () => {
    expect(await search({ parentNames: ['oak.eth'], labelSearch: 'i_' })).toEqual({ total: 1, labels: ['ali_b%x'] });
    expect(await search({ parentNames: ['oak.eth'], labelSearch: 'ali' })).toEqual({
      total: 2,
      labels: ['alice', 'ali_b%x'],
    });
    expect(await search({ parentNames: ['pine.eth'], labelSearch: 'ali' })).toEqual({ total: 0, labels: [] });
  });

  it('with filters: every condition holds for each row, counted and paged from the matches', async () => {
    const both = { parentNames: ['oak.eth'], labelSearch: 'ali_b%', owner: OWNER.toLowerCase() };
    expect(await search(both)).toEqual({ total: 1, labels: ['ali_b%x'] });
    const owner = { parentNames: ['oak.eth'], owner: OWNER.toLowerCase() };
    expect(await search(owner, { limit: 1, offset: 1 })).toEqual({ total: 2, labels: ['ali_b%x'] });
  });

  it('metadata matches only under the given parents', async () => {
    const gold = { tier: 'gold' };
    expect(await search({ parentNames: ['oak.eth'], metadata: gold })).toEqual({ total: 1, labels: ['alice'] });
    expect(await search({ parentNames: ['oak.eth', 'pine.eth'], metadata: gold })).toEqual({
      total: 2,
      labels: ['alice', 'carol'],
    });
  });
});
