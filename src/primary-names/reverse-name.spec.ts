import { reverseAddress } from './reverse-name';

describe('reverseAddress', () => {
  it('is the EIP-55 address of <40 lower-case hex>.addr.reverse', () => {
    expect(reverseAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
  });

  it('is null for every other name: a label that is not 40 hex digits, another reverse namespace, a subname', () => {
    for (const name of [
      'addr.reverse',
      '5aaeb6053f3e94c9b9a09f33669435e7ef1bea.addr.reverse',
      '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00.addr.reverse',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse',
      'zzaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse',
      '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.default.reverse',
      'x.5aaeb6053f3e94c9b9a09f33669435e7ef1beaed.addr.reverse',
      'alice.oak.eth',
    ]) {
      expect(reverseAddress(name)).toBeNull();
    }
  });
});
