import { escapeLike } from './search-query';

// What the search finds with these fragments: subnames.repository.spec.ts, on the migrated schema.
describe(escapeLike.name, () => {
  it('escapes the LIKE wildcards and the escape character, nothing else', () => {
    expect(escapeLike('50%_off\\x')).toBe('50\\%\\_off\\\\x');
    expect(escapeLike('alice')).toBe('alice');
  });
});
