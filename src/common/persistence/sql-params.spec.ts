import { SqlParams, sqlIdentifier } from './sql-params';

describe(SqlParams.name, () => {
  it('binds each value in order and answers its placeholder', () => {
    const sut = new SqlParams();
    expect([sut.add('a'), sut.add(null), sut.add(3)]).toEqual(['$1', '$2', '$3']);
    expect(sut.values).toEqual(['a', null, 3]);
  });
});

describe(sqlIdentifier.name, () => {
  it('passes a plain lower-case identifier through', () => {
    expect(sqlIdentifier('full_name')).toBe('full_name');
    expect(sqlIdentifier('_ins2')).toBe('_ins2');
  });

  it.each(['', '1ins', 'Ins', 'ins.full_name', 'ins; DROP TABLE subnames', '"ins"', "x'", 'a b'])(
    'refuses %j',
    (name) => {
      expect(() => sqlIdentifier(name)).toThrow('not a plain SQL identifier');
    },
  );
});
