import { SubnameEntity } from '../subname.entity';
import { toSubnameResponse } from './subname.response';

describe(toSubnameResponse.name, () => {
  const entity = Object.assign(new SubnameEntity(), {
    id: 'a1b2',
    fullName: 'alice.oak.eth',
    parentName: 'oak.eth',
    label: 'alice',
    namehash: '0xcdf7581bf874b959e7c4d1988cda7ec94c543a2232b18c18114f4b7ed87baa68',
    texts: { avatar: 'https://a.png' },
    addresses: { '60': '0xA', '0': 'bc1q', '501': 'So1', '2147492101': '0xB', '2147483658': '0xC' },
    metadata: { tier: 'gold' },
    contenthash: null,
    owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    ttl: 0,
    createdBy: 'key-id',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-02T00:00:00Z'),
  });

  it('keys addresses by coin name and keeps every other field', () => {
    expect(toSubnameResponse(entity)).toEqual({
      id: 'a1b2',
      fullName: 'alice.oak.eth',
      parentName: 'oak.eth',
      label: 'alice',
      texts: { avatar: 'https://a.png' },
      addresses: { eth: '0xA', btc: 'bc1q', sol: 'So1', base: '0xB', op: '0xC' },
      metadata: { tier: 'gold' },
      namehash: '0xcdf7581bf874b959e7c4d1988cda7ec94c543a2232b18c18114f4b7ed87baa68',
      contenthash: null,
      owner: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      ttl: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
  });

  it('never exposes internal columns', () => {
    expect(Object.keys(toSubnameResponse(entity))).not.toContain('createdBy');
  });
});
