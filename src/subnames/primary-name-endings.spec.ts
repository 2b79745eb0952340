import { ethAddressChanges, primaryNameEndedHeader } from './primary-name-endings';
import type { SubnameEntity } from './subname.entity';

const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const B = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const entity = (fullName: string, addresses: Record<string, string>) => ({ fullName, addresses }) as SubnameEntity;

describe('ethAddressChanges', () => {
  it('lists the writes that moved a coin-60 address away from one the name had', () => {
    expect(
      ethAddressChanges([
        { entity: entity('moved.oak.eth', { '60': B }), previous: entity('moved.oak.eth', { '60': A }) },
        { entity: entity('dropped.oak.eth', {}), previous: entity('dropped.oak.eth', { '60': A }) },
        { entity: entity('same.oak.eth', { '60': A }), previous: entity('same.oak.eth', { '60': A.toLowerCase() }) },
        { entity: entity('first.oak.eth', { '60': A }), previous: entity('first.oak.eth', {}) },
        { entity: entity('new.oak.eth', { '60': A }), previous: null },
        { entity: entity('other.oak.eth', { '60': A, '0': 'x' }), previous: entity('other.oak.eth', { '60': A }) },
      ]),
    ).toEqual([
      { name: 'moved.oak.eth', before: A },
      { name: 'dropped.oak.eth', before: A },
    ]);
  });
});

describe('primaryNameEndedHeader', () => {
  it('is absent when nothing ended, else `<address> <name>` entries with names percent-encoded', () => {
    expect(primaryNameEndedHeader([])).toEqual({});
    expect(
      primaryNameEndedHeader([
        { address: A, name: 'alice.oak.eth' },
        { address: B, name: '🙂.oak.eth' },
      ]),
    ).toEqual({ 'X-Primary-Name-Ended': `${A} alice.oak.eth, ${B} %F0%9F%99%82.oak.eth` });
  });
});
