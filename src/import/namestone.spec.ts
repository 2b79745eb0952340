import { fromNameStone, isNameStoneEntry } from './namestone';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

describe(isNameStoneEntry.name, () => {
  it('tells a NameStone entry (domain) from one of our lines (parentName)', () => {
    expect(isNameStoneEntry({ name: 'a', domain: 'oak.eth' })).toBe(true);
    expect(isNameStoneEntry({ parentName: 'oak.eth', label: 'a' })).toBe(false);
    expect(isNameStoneEntry({ parentName: 'oak.eth', domain: 'x' })).toBe(false);
    expect(isNameStoneEntry(['domain'])).toBe(false);
    expect(isNameStoneEntry(null)).toBe(false);
  });
});

describe(fromNameStone.name, () => {
  it('name under domain; text_records as texts; coin_types by coin type; address as coin 60', () => {
    expect(
      fromNameStone({
        name: 'alice',
        domain: 'oak.eth',
        address: ETH,
        text_records: { avatar: 'https://a.example/a.png', 'com.twitter': 'alice' },
        coin_types: { '0': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '2147483785': OTHER },
        contenthash: 'ipfs://bafy',
      }),
    ).toEqual({
      parentName: 'oak.eth',
      label: 'alice',
      texts: [
        { key: 'avatar', value: 'https://a.example/a.png' },
        { key: 'com.twitter', value: 'alice' },
      ],
      addresses: [
        { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
        { coin: 2147483785, value: OTHER },
        { coin: 60, value: ETH },
      ],
      contenthash: 'ipfs://bafy',
    });
  });

  it('address wins over a coin type 60 entry; empty values (cleared records) are left out; no contenthash is null', () => {
    expect(
      fromNameStone({
        name: 'bob',
        domain: 'oak.eth',
        address: ETH,
        text_records: { url: '', avatar: null },
        coin_types: { '60': OTHER, '0': '' },
        contenthash: '',
      }),
    ).toEqual({
      parentName: 'oak.eth',
      label: 'bob',
      texts: [],
      addresses: [{ coin: 60, value: ETH }],
      contenthash: null,
    });
  });

  it('a full name in `name` becomes the label; without records the fields are left out', () => {
    expect(fromNameStone({ name: 'carol.Oak.eth', domain: 'oak.eth' })).toEqual({
      parentName: 'oak.eth',
      label: 'carol',
      contenthash: null,
    });
  });

  it('passes odd values on as they are, for the validation to name', () => {
    expect(fromNameStone({ name: 42, domain: 'oak.eth', coin_types: { eth: ETH }, text_records: 'x' })).toEqual({
      parentName: 'oak.eth',
      label: 42,
      addresses: [{ coin: 'eth', value: ETH }],
      contenthash: null,
    });
  });
});
