import { TrustedSources } from './trusted-sources';

describe(TrustedSources.name, () => {
  const sut = new TrustedSources(['10.1.0.0/16', '192.0.2.7', '2001:db8::/32', '::1']);

  it('matches IPv4 addresses and subnets, on IPv4 and dual-stack sockets', () => {
    expect(sut.has('10.1.200.3')).toBe(true);
    expect(sut.has('::ffff:10.1.200.3')).toBe(true);
    expect(sut.has('192.0.2.7')).toBe(true);
    expect(sut.has('10.2.0.1')).toBe(false);
    expect(sut.has('192.0.2.8')).toBe(false);
  });

  it('matches IPv6 addresses and subnets', () => {
    expect(sut.has('2001:db8:ffff::1')).toBe(true);
    expect(sut.has('::1')).toBe(true);
    expect(sut.has('2001:db9::1')).toBe(false);
  });

  it('trusts nothing when empty or without an address', () => {
    expect(new TrustedSources([]).has('127.0.0.1')).toBe(false);
    expect(sut.has(undefined)).toBe(false);
    expect(sut.has('not-an-ip')).toBe(false);
  });
});
