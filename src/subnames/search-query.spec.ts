import { buildSearchQuery, escapeLike } from './search-query';

describe(escapeLike.name, () => {
  it('escapes the LIKE wildcards and the escape character, nothing else', () => {
    expect(escapeLike('50%_off\\x')).toBe('50\\%\\_off\\\\x');
    expect(escapeLike('alice')).toBe('alice');
  });
});

describe(buildSearchQuery.name, () => {
  const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();

  it('one parent, no filter: an index-only count and the page straight off the parent index', () => {
    const { sql, params } = buildSearchQuery({ parentNames: ['oak.eth'] }, { limit: 7, offset: 14 });
    expect(params).toEqual(['oak.eth', 7, 14]);
    const flat = squash(sql);
    expect(flat).toContain('total AS (SELECT count(*) AS n FROM subnames WHERE parent_name = $1)');
    expect(flat).toContain(
      'page AS (SELECT id, created_at FROM subnames WHERE parent_name = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3)',
    );
    expect(flat).toContain('ORDER BY s.created_at, s.id');
    expect(flat).not.toContain('MATERIALIZED');
  });

  it('several parents, no filter: one ordered branch per parent, merged in page order (Merge Append)', () => {
    const { sql, params } = buildSearchQuery({ parentNames: ['oak.eth', 'pine.eth'] }, { limit: 25, offset: 50 });
    expect(params).toEqual([['oak.eth', 'pine.eth'], 25, 50]);
    const flat = squash(sql);
    expect(flat).toContain('count(*) AS n FROM subnames WHERE parent_name = ANY($1::text[])');
    expect(flat).toContain(
      'FROM ((SELECT id, created_at FROM subnames WHERE parent_name = $1[1] ORDER BY created_at, id) UNION ALL ' +
        '(SELECT id, created_at FROM subnames WHERE parent_name = $1[2] ORDER BY created_at, id)) AS merged ' +
        'ORDER BY created_at, id LIMIT $2 OFFSET $3',
    );
  });

  it('a label fragment the trigram index cannot serve is matched off the parent index instead', () => {
    const short = buildSearchQuery({ parentNames: ['oak.eth'], labelSearch: 'a_' }, { limit: 25, offset: 0 });
    expect(squash(short.sql)).toContain(`WHERE parent_name = $2 AND (label || '') ILIKE $1`);
    const long = buildSearchQuery({ parentNames: ['oak.eth'], labelSearch: 'ali' }, { limit: 25, offset: 0 });
    expect(squash(long.sql)).toContain('WHERE parent_name = $2 AND label ILIKE $1');
  });

  it('with filters: one parameterised condition each, matched once, counted and paged from the matches', () => {
    const { sql, params } = buildSearchQuery(
      { parentNames: ['oak.eth'], labelSearch: 'ali_b%', owner: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' },
      { limit: 25, offset: 0 },
    );
    expect(params).toEqual(['%ali\\_b\\%%', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'oak.eth', 25, 0]);
    const flat = squash(sql);
    expect(flat).toContain(
      'matches AS MATERIALIZED (SELECT id, created_at FROM subnames WHERE parent_name = $3 AND label ILIKE $1 AND lower(owner) = $2)',
    );
    expect(flat).toContain('total AS (SELECT count(*) AS n FROM matches)');
    expect(flat).toContain('page AS (SELECT id, created_at FROM matches ORDER BY created_at, id LIMIT $4 OFFSET $5)');
  });

  it('metadata is keyed by each parent, which also confines the match to those parents', () => {
    const one = buildSearchQuery({ parentNames: ['oak.eth'], metadata: { tier: 'gold' } }, { limit: 25, offset: 0 });
    expect(one.params).toEqual(['{"oak.eth":{"tier":"gold"}}', 25, 0]);
    expect(squash(one.sql)).toContain(`WHERE jsonb_set('{}'::jsonb, ARRAY[parent_name], metadata) @> $1::jsonb)`);
    const two = buildSearchQuery(
      { parentNames: ['oak.eth', 'pine.eth'], metadata: { tier: 'gold' } },
      { limit: 25, offset: 0 },
    );
    expect(two.params[0]).toEqual(['{"oak.eth":{"tier":"gold"}}', '{"pine.eth":{"tier":"gold"}}']);
    expect(squash(two.sql)).toContain(`metadata) @> ANY($1::jsonb[])`);
  });
});
