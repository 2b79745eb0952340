import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const base = { parentName: 'oak.eth', label: 'valid' };
const texts = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `com.k${i}`, value: 'v' }));

/** [what, body, the field the error must name, a fragment of its message] */
const CASES: [string, Record<string, unknown>, string, string][] = [
  ['missing parentName', { label: 'a' }, 'parentName', 'is required'],
  ['missing label', { parentName: 'oak.eth' }, 'label', 'is required'],
  ['parentName too short', { ...base, parentName: 'a.eth' }, 'parentName', '7'],
  ['parentName over 255', { ...base, parentName: `${'a'.repeat(251)}.eth1` }, 'parentName', '255'],
  ['parentName with one label', { ...base, parentName: 'oakoakoak' }, 'parentName', 'at least 2 labels'],
  ['parentName not a string', { ...base, parentName: 42 }, 'parentName', 'string'],
  ['parentName not ENSIP-15', { ...base, parentName: 'o k a.eth' }, 'parentName', 'ENSIP-15'],
  ['label empty', { ...base, label: '' }, 'label', '1'],
  ['label over 255', { ...base, label: 'a'.repeat(256) }, 'label', '255'],
  ['label with a dot', { ...base, label: 'a.b' }, 'label', 'without dots'],
  ['label confusable', { ...base, label: 'ΑΒΓ' }, 'label', 'confusable'],
  ['label over 255 bytes', { ...base, label: '🦊'.repeat(64) }, 'label', '255 UTF-8 bytes'],
  ['texts not an array', { ...base, texts: { avatar: 'x' } }, 'texts', 'array'],
  ['texts null', { ...base, texts: null }, 'texts', 'array'],
  ['text entry not an object', { ...base, texts: ['avatar'] }, 'texts[0]', 'object'],
  [
    'text key unknown',
    {
      ...base,
      texts: [
        { key: 'avatar', value: 'a' },
        { key: 'twitter', value: 'b' },
      ],
    },
    'texts[1].key',
    'ENSIP-5',
  ],
  ['text value empty', { ...base, texts: [{ key: 'url', value: '' }] }, 'texts[0].value', '1 to 2000'],
  ['text value too long', { ...base, texts: [{ key: 'url', value: 'x'.repeat(2001) }] }, 'texts[0].value', '1 to 2000'],
  [
    'text key twice',
    {
      ...base,
      texts: [
        { key: 'url', value: 'a' },
        { key: 'url', value: 'b' },
      ],
    },
    'texts',
    'twice',
  ],
  ['51 texts', { ...base, texts: texts(51) }, 'texts', '50'],
  [
    'text entry with an unknown field',
    { ...base, texts: [{ key: 'url', value: 'a', extra: 1 }] },
    'texts[0].extra',
    'not an accepted field',
  ],
  ['raw chain id as coin', { ...base, addresses: [{ coin: 8453, value: ETH }] }, 'addresses[0].coin', '2147492101'],
  ['coin not an integer', { ...base, addresses: [{ coin: '60', value: ETH }] }, 'addresses[0].coin', 'integer'],
  ['negative coin', { ...base, addresses: [{ coin: -1, value: ETH }] }, 'addresses[0].coin', 'integer'],
  [
    'eth address with a bad checksum',
    { ...base, addresses: [{ coin: 60, value: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }] },
    'addresses[0].value',
    'checksum',
  ],
  [
    'btc address bad',
    { ...base, addresses: [{ coin: 0, value: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb' }] },
    'addresses[0].value',
    'btc',
  ],
  ['sol address bad', { ...base, addresses: [{ coin: 501, value: ETH }] }, 'addresses[0].value', 'sol'],
  [
    'base address bad',
    { ...base, addresses: [{ coin: 2147492101, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }] },
    'addresses[0].value',
    'base',
  ],
  [
    'coin twice',
    {
      ...base,
      addresses: [
        { coin: 60, value: ETH },
        { coin: 60, value: ETH },
      ],
    },
    'addresses',
    'twice',
  ],
  ['metadata key with a newline', { ...base, metadata: [{ key: 'a\nb', value: 'x' }] }, 'metadata[0].key', 'printable'],
  ['metadata value empty', { ...base, metadata: [{ key: 'tier', value: '' }] }, 'metadata[0].value', '1 to 2000'],
  ['owner not an address', { ...base, owner: '0x1234' }, 'owner', '20-byte'],
  ['owner bad checksum', { ...base, owner: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }, 'owner', 'checksum'],
  ['owner an object', { ...base, owner: { address: ETH } }, 'owner', 'string'],
  ['contenthash garbage ipfs', { ...base, contenthash: 'ipfs://garbage' }, 'contenthash', 'ipfs'],
  ['contenthash unknown scheme', { ...base, contenthash: 'http://example.com' }, 'contenthash', 'scheme'],
  ['contenthash bad hex', { ...base, contenthash: '0xdeadbeef' }, 'contenthash', 'codec'],
  ['ttl negative', { ...base, ttl: -1 }, 'ttl', 'less than 0'],
  ['ttl over uint32', { ...base, ttl: 4294967296 }, 'ttl', 'greater than 4294967295'],
  ['ttl fractional', { ...base, ttl: 1.5 }, 'ttl', 'integer'],
  ['ttl as a string', { ...base, ttl: '60' }, 'ttl', 'integer'],
  ['unknown top-level field', { ...base, resolver: '0x0' }, 'resolver', 'not an accepted field'],
];

describe('POST /api/v1/subnames refuses invalid bodies, naming the field', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.issueKey(['oak.eth'])).key;
  });
  afterAll(() => t.close());

  it(`has at least 25 cases (${CASES.length})`, () => expect(CASES.length).toBeGreaterThanOrEqual(25));

  const table = CASES.map(([what, body, field, fragment]) => ({ what, body, field, fragment }));

  it.each(table)('$what → 400 naming $field', async ({ body, field, fragment }) => {
    const res = await request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send(body).expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', title: 'Validation failed' });
    const entry = (res.body.errors as { field: string; message: string }[]).find((e) => e.field === field);
    expect({ errors: res.body.errors, found: entry?.message.includes(fragment) }).toEqual({
      errors: res.body.errors,
      found: true,
    });
  });

  it('lists every bad field of one body', async () => {
    const res = await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'x', label: '', ttl: -1, owner: 'no', extra: true })
      .expect(400);
    expect((res.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
      'extra',
      'label',
      'owner',
      'parentName',
      'ttl',
    ]);
  });

  it('wrote no row and charged no quota', async () => {
    expect((await t.dataSource.query('SELECT count(*)::int AS n FROM subnames'))[0].n).toBe(0);
    const quota = await request(t.http).get('/api/v1/quota').set('x-auth-token', key).expect(200);
    expect(quota.body.used).toBe(0);
  });
});
