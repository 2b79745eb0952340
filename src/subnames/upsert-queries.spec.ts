import type { SubnameWrite } from './subname-row';
import { buildUpsertManyQuery } from './upsert-queries';

describe(buildUpsertManyQuery.name, () => {
  const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();
  const write = (fullName: string, fields: Partial<SubnameWrite> = {}): SubnameWrite => ({
    fullName,
    parentName: fullName.slice(fullName.indexOf('.') + 1),
    label: fullName.slice(0, fullName.indexOf('.')),
    namehash: `0x${'0'.repeat(64)}`,
    createdBy: 'k1',
    ...fields,
  });

  it('one JSON parameter for every item; left-out fields insert empty; rows written in full-name order', () => {
    const { sql, params } = buildUpsertManyQuery([write('b.oak.eth', { ttl: 5 }), write('a.oak.eth', { ttl: null })]);
    expect(params).toHaveLength(1);
    expect(JSON.parse(params[0] as string)).toEqual([
      expect.objectContaining({ full_name: 'b.oak.eth', texts: null, owner: null, ttl: 5 }),
      expect.objectContaining({ full_name: 'a.oak.eth', ttl: null }),
    ]);
    const flat = squash(sql);
    expect(flat).toContain("coalesce(i.texts, '{}'::jsonb)");
    expect(flat).toContain('ORDER BY i.full_name ON CONFLICT (full_name) DO UPDATE SET');
    expect(flat).toContain('RETURNING *, (xmax = 0) AS inserted');
  });

  it('a field every item gives is taken from the row proposed; a field no item gives is left alone', () => {
    const { sql } = buildUpsertManyQuery([write('a.oak.eth', { ttl: 5 }), write('b.oak.eth', { ttl: null })]);
    const flat = squash(sql);
    expect(flat).toContain('SET ttl = EXCLUDED.ttl, updated_at = CASE WHEN (EXCLUDED.ttl) IS DISTINCT FROM');
    expect(flat).not.toMatch(/SET .*texts =/);
  });

  it('a field some items give is taken only for the full names listed for it', () => {
    const { sql, params } = buildUpsertManyQuery([
      write('a.oak.eth', { texts: { url: 'x' }, owner: null }),
      write('b.oak.eth', { owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }),
      write('c.oak.eth', { texts: {} }),
    ]);
    expect(params.slice(1)).toEqual([
      ['a.oak.eth', 'c.oak.eth'],
      ['a.oak.eth', 'b.oak.eth'],
    ]);
    const flat = squash(sql);
    expect(flat).toContain(
      'texts = CASE WHEN EXCLUDED.full_name = ANY($2::text[]) THEN EXCLUDED.texts ELSE subnames.texts END',
    );
    expect(flat).toContain(
      'owner = CASE WHEN EXCLUDED.full_name = ANY($3::text[]) THEN EXCLUDED.owner ELSE subnames.owner END',
    );
    // An item that changes nothing keeps its updated_at.
    expect(flat).toContain(
      ') IS DISTINCT FROM (subnames.texts, subnames.owner) THEN now() ELSE subnames.updated_at END',
    );
  });

  it('items that give no optional field change nothing: updated_at stays', () => {
    const flat = squash(buildUpsertManyQuery([write('a.oak.eth')]).sql);
    expect(flat).toContain('DO UPDATE SET updated_at = CASE WHEN false THEN now() ELSE subnames.updated_at END');
  });

  it('updates a row only while it is the version the snapshot read, so its "before" is the row it locked', () => {
    const flat = squash(buildUpsertManyQuery([write('a.oak.eth', { ttl: 5 })]).sql);
    expect(flat).toContain('SELECT s.*, s.xmin::text AS old_xmin FROM subnames s');
    expect(flat).toContain(
      'WHERE (subnames.full_name, subnames.xmin::text) IN (SELECT o.full_name, o.old_xmin FROM old o) RETURNING',
    );
  });
});
