import { batchUrl, itemErrors } from './batch-client';

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
