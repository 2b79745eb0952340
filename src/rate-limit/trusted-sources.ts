import { BlockList, isIP } from 'node:net';

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack socket reports IPv4 peers) as its IPv4 form. */
function unmapped(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * RESOLUTION_TRUSTED_SOURCES as a matcher: addresses and CIDR subnets (validated at start-up), IPv4 and IPv6,
 * an IPv4 source matching whether its socket is IPv4 or dual-stack.
 */
export class TrustedSources {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const plain = unmapped(address);
      const type = isIP(plain) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(plain, type);
      else this.list.addSubnet(plain, Number(prefix), type);
    }
  }

  has(address: string | undefined): boolean {
    if (this.empty || !address) return false;
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}
