import { UsageError } from '../common/command-line';
import { parsePrimaryName } from './primary-name-options';

const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe(parsePrimaryName.name, () => {
  it('both addresses as given (their form is the DTOs’ to check)', () => {
    expect(parsePrimaryName(['prepare', 'not-yet-checked', '--resolver', A])).toEqual({
      address: 'not-yet-checked',
      resolver: A,
    });
  });

  it.each([
    [['prepare'], 'primary-name prepare needs the ADDRESS'],
    [['prepare', A], 'primary-name prepare needs --resolver ADDRESS'],
    [['prepare', A, A, '--resolver', A], `unexpected argument ${A}`],
  ])('%j is a usage error before anything loads: %s', (argv, message) => {
    expect(() => parsePrimaryName(argv)).toThrow(UsageError);
    // An Error given to toThrow compares the message exactly.
    expect(() => parsePrimaryName(argv)).toThrow(new UsageError(message));
  });
});
