import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

const OWNER_A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OWNER_B = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

interface Item {
  id: string;
  fullName: string;
  parentName: string;
  label: string;
  owner: string | null;
  metadata: Record<string, string>;
  createdAt: string;
}
interface Page {
  items: Item[];
  page: number;
  size: number;
  totalItems: number;
}

describe('POST /api/v1/subnames/search and GET /api/v1/subnames', () => {
  let t: TestApp;
  let key: string;
  /** Full names under oak.eth in creation order. */
  const oakNames: string[] = [];

  const create = async (body: Record<string, unknown>) =>
    (await request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send(body).expect(201)).body as Item;
  const search = async (body: Record<string, unknown>): Promise<Page> =>
    (await request(t.http).post('/api/v1/subnames/search').send(body).expect(200)).body as Page;
  const list = async (query: string): Promise<Page> =>
    (await request(t.http).get(`/api/v1/subnames?${query}`).expect(200)).body as Page;
  const names = (page: Page) => page.items.map((i) => i.fullName);

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.issueKey(['oak.eth', 'pine.eth', 'elm.eth'], 500)).key;
    for (let i = 0; i < 63; i++) {
      oakNames.push((await create({ parentName: 'oak.eth', label: `user-${String(i).padStart(2, '0')}` })).fullName);
    }
    await create({
      parentName: 'pine.eth',
      label: 'Alice',
      owner: OWNER_A,
      metadata: [
        { key: 'tier', value: 'gold' },
        { key: 'team', value: 'red' },
      ],
    });
    await create({
      parentName: 'pine.eth',
      label: 'alicia',
      owner: OWNER_B.toLowerCase(),
      metadata: [{ key: 'tier', value: 'silver' }],
    });
    await create({ parentName: 'pine.eth', label: 'bob', owner: OWNER_A, metadata: [{ key: 'tier', value: 'gold' }] });
    await create({ parentName: 'pine.eth', label: '_ali' });
    await create({
      parentName: 'elm.eth',
      label: 'malice',
      owner: OWNER_A,
      metadata: [{ key: 'tier', value: 'gold' }],
    });
    await create({ parentName: 'elm.eth', label: 'carol' });
    // Under a child of pine.eth: an exact-parent filter on pine.eth must leave it out.
    await create({
      parentName: 'team.pine.eth',
      label: 'alice',
      owner: OWNER_A,
      metadata: [{ key: 'tier', value: 'gold' }],
    });
  });
  afterAll(() => t.close());

  describe('filters', () => {
    it('parentName alone: exactly the subnames of that parent, as full Subnames, in creation order', async () => {
      const page = await search({ parentName: 'pine.eth' });
      expect(page).toMatchObject({ page: 1, size: 25, totalItems: 4 });
      expect(names(page)).toEqual(['alice.pine.eth', 'alicia.pine.eth', 'bob.pine.eth', '_ali.pine.eth']);
      const single = (await request(t.http).get('/api/v1/subnames/alice.pine.eth').expect(200)).body;
      expect(page.items[0]).toEqual(single);
      expect(page.items[0]).toMatchObject({
        label: 'alice',
        parentName: 'pine.eth',
        owner: OWNER_A,
        metadata: { tier: 'gold', team: 'red' },
        texts: {},
        addresses: {},
        namehash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
    });

    it('normalises the parent name (ENSIP-15) before matching', async () => {
      expect(names(await search({ parentName: 'PINE.Eth' }))).toEqual(names(await search({ parentName: 'pine.eth' })));
      expect(names(await search({ parentName: 'Team.PINE.eth' }))).toEqual(['alice.team.pine.eth']);
    });

    it('a parent with no subnames gives an empty page with totalItems 0', async () => {
      expect(await search({ parentName: 'nobody.eth' })).toEqual({ items: [], page: 1, size: 25, totalItems: 0 });
    });

    it('parentNames: subnames of any of them, one creation order across parents', async () => {
      const page = await search({ parentNames: ['elm.eth', 'Pine.eth'] });
      expect(page.totalItems).toBe(6);
      expect(names(page)).toEqual([
        'alice.pine.eth',
        'alicia.pine.eth',
        'bob.pine.eth',
        '_ali.pine.eth',
        'malice.elm.eth',
        'carol.elm.eth',
      ]);
    });

    it('parentName together with parentNames: the union, each parent once', async () => {
      const page = await search({ parentName: 'elm.eth', parentNames: ['elm.eth', 'team.pine.eth'] });
      expect(names(page)).toEqual(['malice.elm.eth', 'carol.elm.eth', 'alice.team.pine.eth']);
      expect(page.totalItems).toBe(3);
    });

    it('labelSearch: case-insensitive substring of the label', async () => {
      const page = await search({ parentName: 'pine.eth', labelSearch: 'ALI' });
      expect(names(page)).toEqual(['alice.pine.eth', 'alicia.pine.eth', '_ali.pine.eth']);
      expect(page.totalItems).toBe(3);
      expect(names(await search({ parentNames: ['pine.eth', 'elm.eth'], labelSearch: 'lic' }))).toEqual([
        'alice.pine.eth',
        'alicia.pine.eth',
        'malice.elm.eth',
      ]);
      expect(names(await search({ parentName: 'oak.eth', labelSearch: 'ser-6' }))).toEqual([
        'user-60.oak.eth',
        'user-61.oak.eth',
        'user-62.oak.eth',
      ]);
    });

    it('labelSearch treats % and _ literally, and an empty one matches every label', async () => {
      expect(names(await search({ parentName: 'pine.eth', labelSearch: '_' }))).toEqual(['_ali.pine.eth']);
      expect(names(await search({ parentName: 'pine.eth', labelSearch: '_a' }))).toEqual(['_ali.pine.eth']);
      expect(await search({ parentName: 'pine.eth', labelSearch: '%' })).toMatchObject({ items: [], totalItems: 0 });
      expect(await search({ parentName: 'oak.eth', labelSearch: 'user%' })).toMatchObject({ totalItems: 0 });
      expect(await search({ parentName: 'oak.eth', labelSearch: 'user_0' })).toMatchObject({ totalItems: 0 });
      expect(await search({ parentName: 'oak.eth', labelSearch: '\\' })).toMatchObject({ totalItems: 0 });
      expect((await search({ parentName: 'pine.eth', labelSearch: '' })).totalItems).toBe(4);
    });

    it('owner: matches in any letter case of the address', async () => {
      for (const owner of [OWNER_A, OWNER_A.toLowerCase(), `0x${OWNER_A.slice(2).toUpperCase()}`]) {
        const page = await search({ parentNames: ['pine.eth', 'elm.eth'], owner });
        expect(names(page)).toEqual(['alice.pine.eth', 'bob.pine.eth', 'malice.elm.eth']);
        expect(page.totalItems).toBe(3);
        expect(page.items.every((i) => i.owner === OWNER_A)).toBe(true);
      }
      expect(names(await search({ parentName: 'pine.eth', owner: OWNER_B }))).toEqual(['alicia.pine.eth']);
      expect((await search({ parentName: 'oak.eth', owner: OWNER_A })).totalItems).toBe(0);
    });

    it('metadata: every given key must hold exactly the given value', async () => {
      expect(names(await search({ parentName: 'pine.eth', metadata: { tier: 'gold' } }))).toEqual([
        'alice.pine.eth',
        'bob.pine.eth',
      ]);
      expect(names(await search({ parentName: 'pine.eth', metadata: { tier: 'gold', team: 'red' } }))).toEqual([
        'alice.pine.eth',
      ]);
      expect((await search({ parentName: 'pine.eth', metadata: { tier: 'GOLD' } })).totalItems).toBe(0);
      expect((await search({ parentName: 'pine.eth', metadata: { tier: 'gold', team: 'blue' } })).totalItems).toBe(0);
      expect((await search({ parentName: 'pine.eth', metadata: {} })).totalItems).toBe(4);
    });

    it('all filters combined: each must hold', async () => {
      const page = await search({
        parentNames: ['pine.eth', 'elm.eth', 'team.pine.eth'],
        labelSearch: 'Alic',
        owner: OWNER_A.toLowerCase(),
        metadata: { tier: 'gold' },
        page: 1,
        size: 10,
      });
      expect(names(page)).toEqual(['alice.pine.eth', 'malice.elm.eth', 'alice.team.pine.eth']);
      expect(page).toMatchObject({ page: 1, size: 10, totalItems: 3 });
      const narrower = await search({
        parentName: 'pine.eth',
        labelSearch: 'ali',
        owner: OWNER_A,
        metadata: { team: 'red' },
      });
      expect(names(narrower)).toEqual(['alice.pine.eth']);
    });
  });

  describe('paging', () => {
    it('63 items with size 7: nine full pages, no duplicates, no gaps, totals right, then an empty page', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 9; page++) {
        const res = await search({ parentName: 'oak.eth', page, size: 7 });
        expect(res).toMatchObject({ page, size: 7, totalItems: 63 });
        expect(res.items).toHaveLength(7);
        seen.push(...names(res));
      }
      expect(seen).toEqual(oakNames);
      expect(new Set(seen).size).toBe(63);
      expect(await search({ parentName: 'oak.eth', page: 10, size: 7 })).toEqual({
        items: [],
        page: 10,
        size: 7,
        totalItems: 63,
      });
    });

    it('a last partial page, and the defaults page 1 and size 25', async () => {
      const last = await search({ parentName: 'oak.eth', page: 3, size: 25 });
      expect(names(last)).toEqual(oakNames.slice(50));
      const first = await search({ parentName: 'oak.eth' });
      expect(first).toMatchObject({ page: 1, size: 25, totalItems: 63 });
      expect(names(first)).toEqual(oakNames.slice(0, 25));
      expect(names(await search({ parentName: 'oak.eth', size: 100 }))).toEqual(oakNames);
    });

    it('the order is by creation time, then id: rows created at the same instant still page stably', async () => {
      // Twelve rows with one created_at: only the id breaks the tie.
      await t.dataSource.query(
        `INSERT INTO subnames (full_name, parent_name, label, namehash, created_at, updated_at)
         SELECT 'tie' || g || '.ash.eth', 'ash.eth', 'tie' || g, '0x' || repeat('0', 64), '2026-01-01Z', '2026-01-01Z'
           FROM generate_series(1, 12) g`,
      );
      const byId: { full_name: string }[] = await t.dataSource.query(
        `SELECT full_name FROM subnames WHERE parent_name = 'ash.eth' ORDER BY id`,
      );
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await search({ parentName: 'ash.eth', page, size: 5 });
        expect(res.totalItems).toBe(12);
        seen.push(...names(res));
      }
      expect(seen).toEqual(byId.map((r) => r.full_name));
      const again = await search({ parentName: 'ash.eth', page: 2, size: 5 });
      expect(names(again)).toEqual(seen.slice(5, 10));
    });

    it('pages through parentNames in one order across parents', async () => {
      const all = names(await search({ parentNames: ['oak.eth', 'pine.eth', 'elm.eth'], size: 100 }));
      expect(all).toHaveLength(69);
      const paged: string[] = [];
      for (let page = 1; page <= 10; page++) {
        paged.push(...names(await search({ parentNames: ['oak.eth', 'pine.eth', 'elm.eth'], page, size: 7 })));
      }
      expect(paged).toEqual(all);
    });
  });

  describe('GET /subnames with query parameters', () => {
    it('lists with the same answer as the search body', async () => {
      const viaGet = await list('parentName=Pine.eth&labelSearch=ALI&page=1&size=2');
      const viaPost = await search({ parentName: 'pine.eth', labelSearch: 'ali', page: 1, size: 2 });
      expect(viaGet).toEqual(viaPost);
      expect(viaGet).toMatchObject({ page: 1, size: 2, totalItems: 3 });
      expect(names(viaGet)).toEqual(['alice.pine.eth', 'alicia.pine.eth']);
    });

    it('converts page and size from strings, with defaults 1 and 25', async () => {
      expect(await list('parentName=oak.eth&page=2&size=7')).toMatchObject({ page: 2, size: 7, totalItems: 63 });
      expect(names(await list('parentName=oak.eth&page=2&size=7'))).toEqual(oakNames.slice(7, 14));
      expect(await list('parentName=oak.eth')).toMatchObject({ page: 1, size: 25 });
    });

    it('parentNames comma-separated, repeated, or with []', async () => {
      const expected = ['malice.elm.eth', 'carol.elm.eth', 'alice.team.pine.eth'];
      expect(names(await list('parentNames=elm.eth,team.pine.eth'))).toEqual(expected);
      expect(names(await list('parentNames=elm.eth&parentNames=team.pine.eth'))).toEqual(expected);
      expect(names(await list('parentNames[]=elm.eth&parentNames[]=team.pine.eth'))).toEqual(expected);
    });

    it('metadata as metadata[key]=value or as a JSON object', async () => {
      const expected = ['alice.pine.eth'];
      expect(names(await list('parentName=pine.eth&metadata[tier]=gold&metadata[team]=red'))).toEqual(expected);
      expect(names(await list('parentName=pine.eth&metadata%5Btier%5D=gold&metadata%5Bteam%5D=red'))).toEqual(expected);
      const json = encodeURIComponent(JSON.stringify({ tier: 'gold', team: 'red' }));
      expect(names(await list(`parentName=pine.eth&metadata=${json}`))).toEqual(expected);
      expect(names(await list('parentName=pine.eth&metadata[tier]=gold'))).toEqual(['alice.pine.eth', 'bob.pine.eth']);
    });

    it('owner in any letter case, combined with the other filters', async () => {
      const page = await list(
        `parentNames=pine.eth,elm.eth&owner=${OWNER_A.toUpperCase().replace('0X', '0x')}&labelSearch=lic&metadata[tier]=gold`,
      );
      expect(names(page)).toEqual(['alice.pine.eth', 'malice.elm.eth']);
    });

    it('GET /subnames/search is not a route of its own: it reads a (bad) name', async () => {
      const res = await request(t.http).get('/api/v1/subnames/search').expect(400);
      expect(res.body.errors[0].field).toBe('fullName');
    });
  });

  describe('400 for bad filters, naming each field', () => {
    const refused = async (body: unknown) => {
      const res = await request(t.http)
        .post('/api/v1/subnames/search')
        .send(body as object);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.headers['content-type']).toContain('application/problem+json');
      return (res.body.errors as { field: string; message: string }[]).map((e) => e.field);
    };
    const refusedGet = async (query: string) => {
      const res = await request(t.http).get(`/api/v1/subnames?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      return (res.body.errors as { field: string; message: string }[]).map((e) => e.field);
    };

    it('neither parentName nor parentNames: one error on parentName that names both, on POST and GET', async () => {
      expect(await refused({})).toEqual(['parentName']);
      expect(await refused({ labelSearch: 'ali' })).toEqual(['parentName']);
      expect(await refusedGet('labelSearch=ali')).toEqual(['parentName']);
      expect(await refusedGet('')).toEqual(['parentName']);
      const res = await request(t.http).post('/api/v1/subnames/search').send({});
      expect(res.body.errors).toEqual([{ field: 'parentName', message: 'is required (or parentNames)' }]);
      expect(res.body.detail).toBe('parentName: is required (or parentNames)');
    });

    it.each([
      [{ parentName: 'eth' }, 'parentName'],
      [{ parentName: 'not a name.eth' }, 'parentName'],
      [{ parentName: 42 }, 'parentName'],
      [{ parentName: null }, 'parentName'],
      [{ parentName: 'x'.repeat(252) + '.eth' }, 'parentName'],
      [{ parentNames: [] }, 'parentNames'],
      [{ parentNames: 'oak.eth' }, 'parentNames'],
      [{ parentNames: ['oak.eth', 'bad name.eth'] }, 'parentNames'],
      [{ parentNames: ['oak.eth', 7] }, 'parentNames'],
      [{ parentNames: Array.from({ length: 101 }, (_, i) => `p${i}.eth`) }, 'parentNames'],
      [{ parentNames: Array.from({ length: 11 }, (_, i) => `p${i}.eth`) }, 'parentNames'],
      [{ parentNames: ['oak.eth', 'pine.eth'], labelSearch: 'al' }, 'labelSearch'],
      [{ parentName: 'oak.eth', parentNames: ['pine.eth'], labelSearch: '_a_' }, 'labelSearch'],
      [{ parentNames: ['oak.eth', 'pine.eth'], labelSearch: 'ä日本' }, 'labelSearch'],
      [{ parentName: 'oak.eth', labelSearch: 5 }, 'labelSearch'],
      [{ parentName: 'oak.eth', labelSearch: 'a'.repeat(256) }, 'labelSearch'],
      [{ parentName: 'oak.eth', owner: '0x123' }, 'owner'],
      [{ parentName: 'oak.eth', owner: 'alice.eth' }, 'owner'],
      [{ parentName: 'oak.eth', owner: null }, 'owner'],
      [{ parentName: 'oak.eth', metadata: [{ key: 'tier', value: 'gold' }] }, 'metadata'],
      [{ parentName: 'oak.eth', metadata: 'tier=gold' }, 'metadata'],
      [{ parentName: 'oak.eth', metadata: { tier: 1 } }, 'metadata'],
      [{ parentName: 'oak.eth', metadata: { tier: '' } }, 'metadata'],
      [
        { parentName: 'oak.eth', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        'metadata',
      ],
      [{ parentName: 'oak.eth', page: 0 }, 'page'],
      [{ parentName: 'oak.eth', page: -1 }, 'page'],
      [{ parentName: 'oak.eth', page: 1.5 }, 'page'],
      [{ parentName: 'oak.eth', page: '2' }, 'page'],
      [{ parentName: 'oak.eth', page: 2147483648 }, 'page'],
      [{ parentName: 'oak.eth', page: 10_001, size: 1 }, 'page'],
      [{ parentName: 'oak.eth', page: 401 }, 'page'],
      [{ parentName: 'oak.eth', page: 101, size: 100 }, 'page'],
      [{ parentName: 'oak.eth', size: 0 }, 'size'],
      [{ parentName: 'oak.eth', size: 101 }, 'size'],
      [{ parentName: 'oak.eth', size: '10' }, 'size'],
      [{ parentName: 'oak.eth', size: null }, 'size'],
      [{ parentName: 'oak.eth', sort: 'label' }, 'sort'],
    ])('POST %j → 400 naming %s', async (body, field) => {
      expect(await refused(body)).toEqual([field]);
    });

    it('page × size ≤ 10,000: the deepest pages are accepted, one more is a 400 that says how deep size allows', async () => {
      await request(t.http).post('/api/v1/subnames/search').send({ parentName: 'oak.eth', page: 400 }).expect(200);
      await request(t.http)
        .post('/api/v1/subnames/search')
        .send({ parentName: 'oak.eth', page: 10_000, size: 1 })
        .expect(200);
      await request(t.http).get('/api/v1/subnames?parentName=oak.eth&page=100&size=100').expect(200);
      const res = await request(t.http)
        .post('/api/v1/subnames/search')
        .send({ parentName: 'oak.eth', page: 201, size: 50 });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          field: 'page',
          message: 'must keep page × size within 10000 (with size 50: at most page 200); export reads further',
        },
      ]);
    });

    it('a short labelSearch searches one parent; ten parents are the most a search names', async () => {
      const one = await request(t.http)
        .post('/api/v1/subnames/search')
        .send({ parentName: 'pine.eth', labelSearch: 'a' });
      expect(one.status).toBe(200);
      expect(one.body.totalItems).toBe(3);
      const ten = Array.from({ length: 10 }, (_, i) => `p${i}.eth`);
      await request(t.http).post('/api/v1/subnames/search').send({ parentNames: ten, labelSearch: 'ali' }).expect(200);
      const res = await request(t.http)
        .post('/api/v1/subnames/search')
        .send({ parentNames: ['pine.eth', 'elm.eth'], labelSearch: 'a' });
      expect(res.body.errors).toEqual([
        {
          field: 'labelSearch',
          message:
            'must contain 3 ASCII letters or digits in a row to search several parents at once; a shorter fragment searches one parent',
        },
      ]);
    });

    it('several bad fields are each named', async () => {
      expect((await refused({ parentName: 'eth', page: 0, size: 101, owner: 'x' })).sort()).toEqual([
        'owner',
        'page',
        'parentName',
        'size',
      ]);
    });

    it.each([
      ['parentName=oak.eth&page=0', 'page'],
      ['parentName=oak.eth&page=abc', 'page'],
      ['parentName=oak.eth&page=1.5', 'page'],
      ['parentName=oak.eth&page=1&page=2', 'page'],
      ['parentName=oak.eth&size=0', 'size'],
      ['parentName=oak.eth&size=101', 'size'],
      ['parentName=oak.eth&size=', 'size'],
      ['parentName=oak.eth&page=401&size=25', 'page'],
      ['parentNames=a.eth,b.eth&labelSearch=ab', 'labelSearch'],
      ['parentName=eth', 'parentName'],
      ['parentName=oak.eth&parentName=pine.eth', 'parentName'],
      ['parentNames=oak.eth,,pine.eth', 'parentNames'],
      ['parentName=oak.eth&owner=0xabc', 'owner'],
      ['parentName=oak.eth&metadata=notjson', 'metadata'],
      ['parentName=oak.eth&metadata=%5B1%5D', 'metadata'],
      ['parentName=oak.eth&metadata[tier]=gold&metadata[tier]=silver', 'metadata'],
      ['parentName=oak.eth&color=red', 'color'],
    ])('GET ?%s → 400 naming %s', async (query, field) => {
      expect(await refusedGet(query)).toEqual([field]);
    });
  });
});

describe('the database time a search may take (SEARCH_STATEMENT_TIMEOUT_MS)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The seeding below (a change notification per row) may outlast the default 5 s statement timeout on a slow
    // machine; searches keep their own 50 ms.
    t = await createTestApp({ SEARCH_STATEMENT_TIMEOUT_MS: '50', DATABASE_STATEMENT_TIMEOUT_MS: '60000' });
    // 100,000 subnames under one parent, all with the same metadata: their exact count takes far more than 50 ms.
    await t.dataSource.query(
      `INSERT INTO subnames (full_name, parent_name, label, namehash, metadata)
       SELECT 'n' || g || '.big.eth', 'big.eth', 'n' || g, '0x' || md5(g::text) || md5('x' || g), '{"tier": "gold"}'
         FROM generate_series(1, 100000) AS g`,
    );
    await t.dataSource.query(
      `INSERT INTO subnames (full_name, parent_name, label, namehash) VALUES ('a.small.eth', 'small.eth', 'a', '0x' || md5('a') || md5('b'))`,
    );
  });
  afterAll(() => t.close());

  it('a search past it is stopped and answered 503 SEARCH_TIMEOUT (PostgreSQL; the embedded database has no timeouts)', async () => {
    const res = await request(t.http)
      .post('/api/v1/subnames/search')
      .send({ parentName: 'big.eth', metadata: { tier: 'gold' } });
    if (process.env.DATABASE_URL) {
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ status: 503, code: 'SEARCH_TIMEOUT', title: 'Search took too long' });
      expect(res.body.detail).toContain('50 ms');
    } else {
      // PGlite enforces no statement_timeout (docs/reference.md#embedded-database): it answers, however long it takes.
      expect(res.status).toBe(200);
      expect(res.body.totalItems).toBe(100_000);
    }
    // The connection that was stopped is fine: a narrow search on it answers.
    const narrow = await request(t.http).post('/api/v1/subnames/search').send({ parentName: 'small.eth' }).expect(200);
    expect(narrow.body.totalItems).toBe(1);
  });
});
