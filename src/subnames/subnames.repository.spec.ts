import { buildSearchQuery, escapeLike } from './subnames.repository';

describe(escapeLike.name, () => {
  it('escapes the LIKE wildcards and the escape character, nothing else', () => {
    expect(escapeLike('50%_off\\x')).toBe('50\\%\\_off\\\\x');
    expect(escapeLike('alice')).toBe('alice');
  });
});

describe(buildSearchQuery.name, () => {
  const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();

  it('one parent: an equality the parent index answers in page order; limit and offset are parameters', () => {
    const { sql, params } = buildSearchQuery({ parentNames: ['oak.eth'] }, { limit: 7, offset: 14 });
    expect(params).toEqual(['oak.eth', 7, 14]);
    expect(squash(sql)).toContain('SELECT count(*) AS n FROM subnames WHERE parent_name = $1');
    expect(squash(sql)).toContain('ORDER BY created_at, id LIMIT $2 OFFSET $3');
    expect(squash(sql)).toContain('ORDER BY s.created_at, s.id');
  });

  it('every filter becomes one parameterised condition, shared by the count and the page', () => {
    const { sql, params } = buildSearchQuery(
      {
        parentNames: ['oak.eth', 'pine.eth'],
        labelSearch: 'a_b%',
        owner: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        metadata: { tier: 'gold' },
      },
      { limit: 25, offset: 0 },
    );
    const where = 'parent_name = ANY($1::text[]) AND label ILIKE $2 AND lower(owner) = $3 AND metadata @> $4::jsonb';
    expect(squash(sql).split(where)).toHaveLength(3);
    expect(params).toEqual([
      ['oak.eth', 'pine.eth'],
      '%a\\_b\\%%',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '{"tier":"gold"}',
      25,
      0,
    ]);
  });
});
