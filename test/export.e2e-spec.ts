import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const IPFS = 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';

const reversed = (s: string) => [...s].reverse().join('');
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const names = (text: string) => lines(text).map((l) => `${l.label as string}.${l.parentName as string}`);

describe('GET /api/v1/subnames/export', () => {
  let t: TestApp;
  let key: string;

  const exportOf = (query: string, token: string | null = key) => {
    const r = request(t.http).get(`/api/v1/subnames/export?${query}`);
    if (token !== null) r.set('x-auth-token', token);
    return r.buffer(true).parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => done(null, text));
    });
  };
  const batch = (token: string, items: unknown[]) =>
    request(t.http).post('/api/v1/subnames/batch').set('x-auth-token', token).send({ items }).expect(200);

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.issueKey(['oak.eth', 'pine.eth'], 10_000)).key;
    const other = (await t.issueKey(['oakk.eth'])).key;
    await batch(key, [
      {
        parentName: 'oak.eth',
        label: 'alice',
        texts: [
          { key: 'avatar', value: 'https://example.com/a.png' },
          { key: 'com.github', value: 'alice' },
        ],
        addresses: [
          { coin: 60, value: ETH.toLowerCase() },
          { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
          { coin: 2147492101, value: ETH },
        ],
        metadata: [{ key: 'tier', value: 'gold' }],
        owner: ETH.toLowerCase(),
        contenthash: IPFS,
        ttl: 3600,
      },
      { parentName: 'oak.eth', label: 'team' },
      { parentName: 'team.oak.eth', label: 'x' },
      { parentName: 'x.team.oak.eth', label: 'deep' },
      { parentName: 'oak.eth', label: 'bob' },
      { parentName: 'pine.eth', label: 'alice' },
    ]);
    await batch(other, [{ parentName: 'oakk.eth', label: 'alice' }]);
  });
  afterAll(() => t.close());

  it('streams NDJSON: every name under the parent at any depth, in the request shape of POST /subnames', async () => {
    const res = await exportOf('parentName=oak.eth').expect(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const text = res.body as string;
    expect(text.endsWith('\n')).toBe(true);
    expect(names(text).sort()).toEqual(
      ['alice.oak.eth', 'bob.oak.eth', 'deep.x.team.oak.eth', 'team.oak.eth', 'x.team.oak.eth'].sort(),
    );
    expect(lines(text).find((l) => l.label === 'alice')).toEqual({
      parentName: 'oak.eth',
      label: 'alice',
      texts: [
        { key: 'avatar', value: 'https://example.com/a.png' },
        { key: 'com.github', value: 'alice' },
      ],
      addresses: expect.arrayContaining([
        { coin: 60, value: ETH },
        { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
        { coin: 2147492101, value: ETH },
      ]),
      metadata: [{ key: 'tier', value: 'gold' }],
      owner: ETH,
      contenthash: IPFS,
      ttl: 3600,
    });
    expect(lines(text).find((l) => l.label === 'bob')).toEqual({
      parentName: 'oak.eth',
      label: 'bob',
      texts: [],
      addresses: [],
      metadata: [],
      owner: null,
      contenthash: null,
      ttl: null,
    });
  });

  it('in a stable order (by reversed full name, so the names under one parent come together)', async () => {
    const first = names((await exportOf('parentName=oak.eth').expect(200)).body as string);
    const second = names((await exportOf('parentName=oak.eth').expect(200)).body as string);
    expect(second).toEqual(first);
    expect(first).toEqual([...first].sort((a, b) => (reversed(a) < reversed(b) ? -1 : 1)));
  });

  it('a line posted back as it is changes nothing', async () => {
    const alice = lines((await exportOf('parentName=oak.eth').expect(200)).body as string).find(
      (l) => l.label === 'alice',
    );
    const before = (await request(t.http).get('/api/v1/subnames/alice.oak.eth').expect(200)).body;
    const res = await batch(key, [alice]);
    expect(res.body.items[0]).toEqual({ fullName: 'alice.oak.eth', status: 'updated', subname: before });
  });

  it('several parents: repeated parentName; a parent under another given one adds nothing twice', async () => {
    const both = names((await exportOf('parentName=pine.eth&parentName=oak.eth').expect(200)).body as string);
    expect(both).toHaveLength(6);
    expect(both[0]).toBe('alice.pine.eth');
    const nested = names((await exportOf('parentName=oak.eth&parentName=Team.Oak.eth').expect(200)).body as string);
    expect(nested.sort()).toEqual(names((await exportOf('parentName=oak.eth')).body as string).sort());
    const sub = names((await exportOf('parentName=team.oak.eth').expect(200)).body as string);
    expect(sub.sort()).toEqual(['deep.x.team.oak.eth', 'x.team.oak.eth']);
  });

  it('an empty parent is an empty 200', async () => {
    const res = await exportOf('parentName=nobody.oak.eth').expect(200);
    expect(res.body).toBe('');
  });

  it('reads past one page: 2,500 names, each exactly once', async () => {
    const big = (await t.issueKey(['big.eth'], 10_000)).key;
    for (let b = 0; b < 3; b++) {
      const items = Array.from({ length: b < 2 ? 1000 : 500 }, (_, i) => ({
        parentName: i % 3 === 0 ? 'big.eth' : `p${i % 7}.big.eth`,
        label: `n${b}-${i}`,
      }));
      await batch(big, items);
    }
    const all = names((await exportOf('parentName=big.eth', big).expect(200)).body as string);
    expect(all).toHaveLength(2500);
    expect(new Set(all).size).toBe(2500);
  });

  describe('refusals are problem JSON, before anything is streamed', () => {
    it('401 without a key', async () => {
      const res = await exportOf('parentName=oak.eth', null).expect(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    });

    it('403 FORBIDDEN_PARENT naming each parent outside the scope', async () => {
      const res = await exportOf('parentName=oak.eth&parentName=oakk.eth&parentName=elm.eth').expect(403);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(res.body as string)).toMatchObject({
        code: 'FORBIDDEN_PARENT',
        detail: 'This API key may not read under oakk.eth, elm.eth',
        errors: [
          { field: 'parentName[1]', message: expect.stringContaining('oakk.eth') },
          { field: 'parentName[2]', message: expect.stringContaining('elm.eth') },
        ],
      });
    });

    it.each([
      ['', 'parentName'],
      ['parentName=oak', 'parentName'],
      ['parentName=oak.eth&size=3', 'size'],
    ])('400 for %j naming %s', async (query, field) => {
      const res = await exportOf(query).expect(400);
      const problem = JSON.parse(res.body as string) as { code: string; errors: { field: string }[] };
      expect(problem.code).toBe('VALIDATION_FAILED');
      expect(problem.errors.map((e) => e.field)).toEqual([field]);
    });
  });
});
