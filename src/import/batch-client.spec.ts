import { primaryNameEndedHeader } from '../subnames/primary-name-endings';
import { batchUrl, endedEntries, itemErrors } from './batch-client';

describe(itemErrors.name, () => {
  it('gathers the reasons per item index; other fields are ignored', () => {
    const errors = itemErrors({
      errors: [
        { field: 'items[3].texts[0].key', message: 'must be an ENSIP-5 key' },
        { field: 'items[3].ttl', message: 'must be an integer' },
        { field: 'items[0]', message: 'must be an object' },
        { field: 'body', message: 'must be a JSON object' },
      ],
    });
    expect([...errors]).toEqual([
      [3, 'texts[0].key: must be an ENSIP-5 key; ttl: must be an integer'],
      [0, 'item: must be an object'],
    ]);
    expect(itemErrors({}).size).toBe(0);
  });
});

describe(batchUrl.name, () => {
  it.each([
    ['http://h:3000', 'http://h:3000/api/v1/subnames/batch'],
    ['http://h:3000/', 'http://h:3000/api/v1/subnames/batch'],
    ['https://h/api/v1', 'https://h/api/v1/subnames/batch'],
    ['https://h/prefix/api/v1/', 'https://h/prefix/api/v1/subnames/batch'],
  ])('%s → %s', (base, url) => {
    expect(batchUrl(base)).toBe(url);
  });
});

describe(endedEntries.name, () => {
  it('reads back what a write says it ended, names decoded', () => {
    const ended = [
      { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', name: 'alice.oak.eth' },
      { address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', name: '🙂, café.oak.eth' },
    ];
    expect(endedEntries(primaryNameEndedHeader(ended)['X-Primary-Name-Ended'])).toEqual([
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed alice.oak.eth',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 🙂, café.oak.eth',
    ]);
    expect(endedEntries(null)).toEqual([]);
  });
});
