import { UsageError } from '../common/command-line';
import { parseKeys } from './keys-options';

describe(parseKeys.name, () => {
  it('the arguments as given, with the numbers read', () => {
    expect(parseKeys(['keys', 'rotate', '7', '--grace', '60', '--json'])).toEqual({
      group: 'keys',
      command: 'rotate',
      id: '7',
      values: { grace: '60', json: true },
      quota: undefined,
      grace: 60,
    });
    expect(parseKeys(['audit', '--since', '2026-01-01T00:00:00Z'])).toMatchObject({ group: 'audit', id: undefined });
  });

  it.each([
    [['keys', 'revoke'], 'keys revoke needs the key id'],
    [['keys', 'update', '--quota', '3'], 'keys update needs the key id'],
    [['keys', 'rotate', '--grace', '5'], 'keys rotate needs the key id'],
    [['keys', 'update', '--quota', '3.5'], '--quota must be a whole number (0 or more), not 3.5'],
    [['keys', 'list', 'extra'], 'unexpected argument extra'],
    [['audit', 'extra'], 'unexpected argument extra'],
    [['keys', 'create', '--frob'], 'unknown option --frob'],
    [['keys', 'create'], 'keys create needs --name NAME and --parent NAME'],
    [['keys', 'create', '--name', 'a', '--quota', '3'], 'keys create needs --parent NAME'],
    [['keys', 'create', '--parent', 'oak.eth'], 'keys create needs --name NAME'],
  ])('%j is a usage error before anything loads: %s', (argv, message) => {
    expect(() => parseKeys(argv)).toThrow(UsageError);
    // An Error given to toThrow compares the message exactly.
    expect(() => parseKeys(argv)).toThrow(new UsageError(message));
  });
});
