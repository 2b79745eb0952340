import { UsageError } from '../common/command-line';
import { parseResolver } from './resolver-options';

const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const B = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

describe(parseResolver.name, () => {
  it('the command, its parent name and the options as given', () => {
    expect(parseResolver(['check', 'oak.eth', '--json'])).toEqual({
      command: 'check',
      parent: 'oak.eth',
      values: { json: true },
    });
    expect(parseResolver(['deploy', '--signer', A, '--signer', B])).toEqual({
      command: 'deploy',
      parent: undefined,
      values: { signer: [A, B] },
    });
  });

  it.each([
    [['deploy', '--signer', A, B], `unexpected argument ${B}`],
    [['url', 'oak.eth', '--resolver', A], 'unexpected argument oak.eth'],
    [['signers', '--resolver', A, '--add', A, B], `unexpected argument ${B}`],
    [['use', 'oak.eth', 'pine.eth', '--resolver', A], 'unexpected argument pine.eth'],
    [['use', '--resolver', A], 'resolver use needs the parent name'],
    [['check'], 'resolver check needs the parent name'],
  ])('%j is a usage error before anything loads: %s', (argv, message) => {
    expect(() => parseResolver(argv)).toThrow(UsageError);
    // An Error given to toThrow compares the message exactly.
    expect(() => parseResolver(argv)).toThrow(new UsageError(message));
  });
});
