import request from 'supertest';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const IPFS = 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';

describe('POST /api/v1/subnames/batch', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const batch = (key: string, items: unknown[]) =>
    request(t.http).post('/api/v1/subnames/batch').set('x-auth-token', key).send({ items });
  const rows = async (parent: string) =>
    Number(
      (await t.dataSource.query(`SELECT count(*) AS n FROM subnames WHERE full_name LIKE '%.' || $1`, [parent]))[0].n,
    );
  const used = async (keyId: string) =>
    Number((await t.dataSource.query('SELECT used FROM key_quotas WHERE api_key_id = $1', [keyId]))[0].used);
  /** Everything stored under a parent, so a refused batch can be shown to have changed nothing at all. */
  const snapshot = (parent: string) =>
    t.dataSource.query(`SELECT * FROM subnames WHERE full_name LIKE '%.' || $1 ORDER BY full_name`, [parent]);

  it('creates 500 subnames in one request: 200, every item created in the order given, 500 units of quota', async () => {
    const { id, key } = await t.issueKey(['oak.eth'], 2000);
    const items = Array.from({ length: 500 }, (_, i) => ({
      parentName: i % 2 === 0 ? 'oak.eth' : 'team.oak.eth',
      label: `n${499 - i}`,
      texts: [{ key: 'url', value: `https://n${i}.example` }],
      addresses: [{ coin: 60, value: ETH.toLowerCase() }],
    }));
    const res = await batch(key, items).expect(200);
    expect(res.headers['x-quota-limit']).toBe('2000');
    expect(res.headers['x-quota-remaining']).toBe('1500');
    expect(res.body.created).toBe(500);
    expect(res.body.updated).toBe(0);
    expect(res.body.items).toHaveLength(500);
    expect(res.body.items.map((r: { fullName: string }) => r.fullName)).toEqual(
      items.map((i) => `${i.label}.${i.parentName}`),
    );
    expect(res.body.items[1]).toEqual({
      fullName: 'n498.team.oak.eth',
      status: 'created',
      subname: expect.objectContaining({
        fullName: 'n498.team.oak.eth',
        parentName: 'team.oak.eth',
        label: 'n498',
        texts: { url: 'https://n1.example' },
        addresses: { eth: ETH },
        metadata: {},
        owner: null,
        contenthash: null,
        ttl: null,
        namehash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      }),
    });
    expect(await rows('oak.eth')).toBe(500);
    expect(await used(id)).toBe(500);
    const read = await request(t.http).get('/api/v1/subnames/n0.team.oak.eth').expect(200);
    expect(read.body.texts).toEqual({ url: 'https://n499.example' });
  });

  it('a mixed batch charges only its creations; each item keeps the fields it leaves out', async () => {
    const { id, key } = await t.issueKey(['pine.eth'], 10);
    await batch(key, [
      {
        parentName: 'pine.eth',
        label: 'a',
        texts: [{ key: 'url', value: 'https://a.example' }],
        owner: ETH,
        ttl: 60,
        contenthash: IPFS,
      },
      { parentName: 'pine.eth', label: 'b', metadata: [{ key: 'tier', value: 'gold' }], ttl: 30 },
      { parentName: 'pine.eth', label: 'same', texts: [{ key: 'url', value: 'https://same.example' }] },
    ]).expect(200);
    expect(await used(id)).toBe(3);
    const before = (await request(t.http).get('/api/v1/subnames/same.pine.eth').expect(200)).body;

    const res = await batch(key, [
      // a: replaces texts, clears the owner; keeps ttl and contenthash.
      { parentName: 'pine.eth', label: 'A', texts: [{ key: 'avatar', value: 'https://a.example/a.png' }], owner: null },
      {
        parentName: 'pine.eth',
        label: 'c',
        addresses: [{ coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }],
      },
      // b: gives only ttl; keeps its metadata.
      { parentName: 'pine.eth', label: 'b', ttl: 90 },
      { parentName: 'pine.eth', label: 'd' },
      // same: gives what it already holds: nothing changes, not even updatedAt.
      { parentName: 'pine.eth', label: 'same', texts: [{ key: 'url', value: 'https://same.example' }] },
    ]).expect(200);
    expect(res.body.created).toBe(2);
    expect(res.body.updated).toBe(3);
    expect(res.body.items.map((r: { fullName: string; status: string }) => [r.fullName, r.status])).toEqual([
      ['a.pine.eth', 'updated'],
      ['c.pine.eth', 'created'],
      ['b.pine.eth', 'updated'],
      ['d.pine.eth', 'created'],
      ['same.pine.eth', 'updated'],
    ]);
    expect(res.headers['x-quota-remaining']).toBe('5');
    expect(await used(id)).toBe(5);
    expect(res.body.items[0].subname).toMatchObject({
      texts: { avatar: 'https://a.example/a.png' },
      owner: null,
      ttl: 60,
      contenthash: IPFS,
    });
    expect(res.body.items[1].subname).toMatchObject({
      texts: {},
      addresses: { btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      owner: null,
      ttl: null,
    });
    expect(res.body.items[2].subname).toMatchObject({ metadata: { tier: 'gold' }, ttl: 90 });
    expect(res.body.items[4].subname).toEqual(before);
  });

  describe('a refused batch writes nothing and takes no quota', () => {
    let keyId: string;
    let key: string;
    let before: unknown[];

    beforeAll(async () => {
      ({ id: keyId, key } = await t.issueKey(['elm.eth'], 6));
      await batch(key, [
        { parentName: 'elm.eth', label: 'kept', ttl: 1 },
        { parentName: 'elm.eth', label: 'other', ttl: 2 },
      ]).expect(200);
      before = await snapshot('elm.eth');
    });
    afterEach(async () => {
      expect(await snapshot('elm.eth')).toEqual(before);
      expect(await used(keyId)).toBe(2);
    });

    /** Four good items (one an update of a stored name, three creations) around the bad one. */
    const around = (bad: unknown, at = 3) => {
      const items: unknown[] = [
        { parentName: 'elm.eth', label: 'kept', ttl: 100 },
        { parentName: 'elm.eth', label: 'x1' },
        { parentName: 'elm.eth', label: 'x2' },
        { parentName: 'elm.eth', label: 'x3' },
      ];
      items.splice(at, 0, bad);
      return items;
    };

    it('one invalid item: 400 naming every bad field by its path', async () => {
      const res = await batch(
        key,
        around({
          parentName: 'elm.eth',
          label: 'bad',
          addresses: [{ coin: 60, value: '0x1234' }],
          texts: [{ key: 'twitter', value: 'x' }],
        }),
      ).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([
        { field: 'items[3].texts[0].key', message: expect.stringContaining('ENSIP-5') },
        { field: 'items[3].addresses[0].value', message: expect.stringContaining('eth') },
      ]);
    });

    it('errors in several items are reported together: the items get every rule of POST /subnames', async () => {
      const res = await batch(key, [
        { parentName: 'elm.eth', label: 'ok' },
        { parentName: 'elm.eth' },
        { parentName: 'elm.eth', label: 'y', colour: 'red' },
        42,
        { parentName: 'elm.eth', label: 'a.b', ttl: -1 },
        { parentName: 'a.eth', label: 'z' },
      ]).expect(400);
      expect(res.body.errors).toEqual([
        { field: 'items[1].label', message: 'is required' },
        { field: 'items[2].colour', message: 'is not an accepted field' },
        { field: 'items[3]', message: expect.any(String) },
        { field: 'items[4].label', message: expect.stringContaining('without dots') },
        { field: 'items[4].ttl', message: expect.stringContaining('0') },
        { field: 'items[5].parentName', message: expect.stringContaining('7') },
      ]);
    });

    it('a fullName given twice (after normalisation) is refused as items[i].label', async () => {
      const res = await batch(key, around({ parentName: 'ELM.eth', label: 'X1' }, 4)).expect(400);
      expect(res.body.errors).toEqual([
        { field: 'items[4].label', message: 'repeats the fullName x1.elm.eth of items[1]' },
      ]);
    });

    it('items outside the scope: 403 FORBIDDEN_PARENT naming each of them', async () => {
      const items = around({ parentName: 'elmm.eth', label: 'far' }, 1);
      items.push({ parentName: 'pine.eth', label: 'far' });
      const res = await batch(key, items).expect(403);
      expect(res.body.code).toBe('FORBIDDEN_PARENT');
      expect(res.body.errors).toEqual([
        { field: 'items[1].parentName', message: expect.stringContaining('elmm.eth') },
        { field: 'items[5].parentName', message: expect.stringContaining('pine.eth') },
      ]);
    });

    it('one creation more than the key has left: 403 QUOTA_EXCEEDED with the quota headers', async () => {
      // 2 used of 6: the four creations here (x1, x2, x3, x4) fit, a fifth does not; the update is free.
      const res = await batch(
        key,
        around({ parentName: 'elm.eth', label: 'x4' }).concat([{ parentName: 'elm.eth', label: 'x5' }]),
      ).expect(403);
      expect(res.body.code).toBe('QUOTA_EXCEEDED');
      expect(res.body.detail).toContain('creates 5');
      expect(res.headers['x-quota-limit']).toBe('6');
      expect(res.headers['x-quota-remaining']).toBe('4');
    });

    it('1001 items: 400 naming items', async () => {
      const items = Array.from({ length: 1001 }, (_, i) => ({ parentName: 'elm.eth', label: `m${i}` }));
      const res = await batch(key, items).expect(400);
      expect(res.body.errors).toEqual([{ field: 'items', message: expect.stringContaining('1000') }]);
    });

    it('no items, items not an array, no body: 400', async () => {
      for (const body of [{ items: [] }, { items: { a: 1 } }, {}, { items: [], extra: 1 }]) {
        const res = await request(t.http).post('/api/v1/subnames/batch').set('x-auth-token', key).send(body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
      }
    });

    it('401 without a valid key', async () => {
      const res = await batch('sns_nope', [{ parentName: 'elm.eth', label: 'x1' }]).expect(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    });

    it('a body over 2 MB is 413 PAYLOAD_TOO_LARGE; 1.5 MB is read (64 KB stays the limit elsewhere)', async () => {
      const big = (bytes: number) => ({
        items: Array.from({ length: Math.ceil(bytes / 1900) }, (_, i) => ({
          parentName: 'elm.eth',
          label: `big${i}`,
          texts: [{ key: 'description', value: 'x'.repeat(1800) }],
        })),
      });
      const over = await request(t.http)
        .post('/api/v1/subnames/batch')
        .set('x-auth-token', key)
        .send(big(2.1 * 1024 * 1024))
        .expect(413);
      expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', detail: expect.stringContaining('2 MB') });
      // Read and validated: 800+ creations against a quota of 6 is the refusal, not the size.
      const under = await request(t.http)
        .post('/api/v1/subnames/batch')
        .set('x-auth-token', key)
        .send(big(1.5 * 1024 * 1024));
      expect(under.status).toBe(403);
      expect(under.body.code).toBe('QUOTA_EXCEEDED');
      const single = await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'elm.eth', label: 'big', texts: [{ key: 'description', value: 'x'.repeat(70_000) }] })
        .expect(413);
      expect(single.body.detail).toContain('64 KB');
    });
  });

  it('a batch creating exactly what is left passes and leaves 0', async () => {
    const { id, key } = await t.issueKey(['fir.eth'], 3);
    await batch(key, [{ parentName: 'fir.eth', label: 'a' }]).expect(200);
    const res = await batch(key, [
      { parentName: 'fir.eth', label: 'a', ttl: 5 },
      { parentName: 'fir.eth', label: 'b' },
      { parentName: 'fir.eth', label: 'c' },
    ]).expect(200);
    expect(res.body).toMatchObject({ created: 2, updated: 1 });
    expect(res.headers['x-quota-remaining']).toBe('0');
    expect(await used(id)).toBe(3);
  });

  it('an admin raising the limit lets the same refused batch through', async () => {
    const { id, key } = await t.issueKey(['ash.eth'], 1);
    const items = [
      { parentName: 'ash.eth', label: 'a' },
      { parentName: 'ash.eth', label: 'b' },
    ];
    await batch(key, items).expect(403);
    await request(t.http)
      .patch(`/api/v1/admin/api-keys/${id}`)
      .set('x-admin-token', ADMIN_TOKEN)
      .send({ quota: 2 })
      .expect(200);
    expect((await batch(key, items).expect(200)).body.created).toBe(2);
    expect(await used(id)).toBe(2);
  });
});
