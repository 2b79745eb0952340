import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { nameHash, normalizeName } from '../src/common/ens/names';
import { importJson } from './support/import-cli';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const IPFS = 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';
const COLUMNS = 'full_name, parent_name, label, namehash, texts, addresses, metadata, contenthash, owner, ttl';

/** Stored under the old rule: raw `ab\u00ad.eth` (8 characters) was bounded, its normalised form (6) stored. */
const SHORT = normalizeName('ab\u00ad.eth');
/** Stored under the old rule: 130 raw characters (㍱ → hpa) whose normalised form is 370. */
const LONG = normalizeName(`${['\u3371'.repeat(40), '\u3371'.repeat(40), '\u3371'.repeat(40)].join('.')}.oak.eth`);
/** Through the partial index (over 127 code points) but inside 7–255: not a legacy parent. */
const WIDE = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.eth`;

describe('names stored under the old length rule export and import again', () => {
  let db: TestDatabase;
  let sql: Client;
  let service: ServiceProcess;
  let key: string;
  let dir: string;

  const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
    fetch(`${service.url}/api/v1/${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'content-type': 'application/json',
        ...(init.token === ADMIN_TOKEN ? { 'x-admin-token': ADMIN_TOKEN } : { 'x-auth-token': init.token ?? key }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const stored = async (names: string[]) =>
    (
      await sql.query(`SELECT ${COLUMNS}, updated_at FROM subnames WHERE full_name = ANY($1) ORDER BY full_name`, [
        names,
      ])
    ).rows as Record<string, unknown>[];
  const ledger = async () =>
    (await sql.query<{ name: string }>('SELECT name FROM legacy_parent_names ORDER BY name')).rows.map((r) => r.name);
  const used = async () => ((await (await api('quota')).json()) as { used: number }).used;

  const legacyRows = [
    {
      label: 'alice',
      parent: SHORT,
      texts: { avatar: 'https://example.com/a.png', description: 'Ünïcödé ✓' },
      addresses: { '60': ETH, '0': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '2147492101': OTHER },
      metadata: { tier: 'gold' },
      contenthash: IPFS,
      owner: OTHER,
      ttl: 3600,
    },
    { label: 'bob', parent: SHORT, texts: {}, addresses: {}, metadata: {}, contenthash: null, owner: null, ttl: null },
    {
      label: 'x',
      parent: LONG,
      texts: { url: 'https://x.example' },
      addresses: { '60': OTHER },
      metadata: { role: 'lead' },
      contenthash: null,
      owner: ETH,
      ttl: 0,
    },
  ];
  const fullNames = legacyRows.map((r) => `${r.label}.${r.parent}`).sort();

  beforeAll(async () => {
    expect([SHORT.length, LONG.length]).toEqual([6, 370]);
    dir = mkdtempSync(join(tmpdir(), 'sns-legacy-'));
    db = await createTestDatabase();
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    for (const r of [...legacyRows, { ...legacyRows[1], label: 'wide', parent: WIDE }]) {
      const fullName = `${r.label}.${r.parent}`;
      await sql.query(`INSERT INTO subnames (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        fullName,
        r.parent,
        r.label,
        nameHash(fullName),
        r.texts,
        r.addresses,
        r.metadata,
        r.contenthash,
        r.owner,
        r.ttl,
      ]);
    }
    service = await startServiceProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    const issued = await api('admin/api-keys', {
      method: 'POST',
      token: ADMIN_TOKEN,
      body: { name: 'legacy', parentNames: [SHORT, 'oak.eth', 'cd.eth'], quota: 10 },
    });
    expect(issued.status).toBe(201);
    key = ((await issued.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await sql?.end();
    await service?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the parents outside 7–255 at start-up, and says how many', async () => {
    expect(await ledger()).toEqual([LONG, SHORT].sort());
    expect(await service.outputContaining('2 parent name(s) stored under the old length rule')).toContain(
      '2 parent name(s) stored under the old length rule are accepted in their stored form (2 recorded now)',
    );
  });

  it('exports them, and after they are deleted imports them back equal; again, it changes nothing', async () => {
    const before = (await stored(fullNames)).map(({ updated_at: _, ...r }) => r);
    expect(before).toHaveLength(3);
    const res = await api(`subnames/export?parentName=${SHORT}&parentName=${encodeURIComponent(LONG)}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.trim().split('\n')).toHaveLength(3);
    const file = join(dir, 'legacy.ndjson');
    writeFileSync(file, text);

    for (const name of fullNames) {
      expect((await api(`subnames/${encodeURIComponent(name)}`, { method: 'DELETE' })).status).toBe(204);
    }
    expect(await stored(fullNames)).toEqual([]);
    expect(await ledger()).toEqual([LONG, SHORT].sort());

    const dry = await importJson([file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.summary).toMatchObject({ entries: 3, valid: 3, refused: [] });
    expect(dry.summary.leftToService).toHaveLength(3);

    const first = await importJson([file, '--url', service.url, '--key', key]);
    expect(first.code).toBe(0);
    expect(first.summary).toMatchObject({ entries: 3, created: 3, updated: 0, refused: [], leftToService: [] });
    const rows = await stored(fullNames);
    expect(rows.map(({ updated_at: _, ...r }) => r)).toEqual(before);
    const quota = await used();

    const again = await importJson([file, '--url', service.url, '--key', key]);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ entries: 3, created: 0, updated: 3, refused: [] });
    expect(await stored(fullNames)).toEqual(rows);
    expect(await used()).toBe(quota);
  });

  it('refuses a new parent outside the bounds, on POST /subnames and in a batch the importer sends', async () => {
    for (const parentName of ['cd.eth', 'cd\u00ad.eth']) {
      const res = await api('subnames', { method: 'POST', body: { parentName, label: 'new' } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errors: { field: string }[] }).errors).toEqual([
        { field: 'parentName', message: expect.stringMatching(/^must be longer than or equal to 7 characters/) },
      ]);
    }
    const file = join(dir, 'new.ndjson');
    writeFileSync(
      file,
      [
        { parentName: 'cd.eth', label: 'new' },
        { parentName: SHORT, label: 'carol' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const { code, summary } = await importJson([file, '--url', service.url, '--key', key]);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ created: 1, updated: 0 });
    expect(summary.refused).toEqual([
      { line: 1, reason: 'VALIDATION_FAILED: parentName: must be longer than or equal to 7 characters' },
    ]);
    expect(await ledger()).toEqual([LONG, SHORT].sort());
  });

  it('takes a new subname under a legacy parent from a key whose scope covers it', async () => {
    const res = await api('subnames', { method: 'POST', body: { parentName: 'ab\u00ad.eth', label: 'dave' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ fullName: `dave.${SHORT}`, parentName: SHORT });
    const deep = await api('subnames', {
      method: 'POST',
      body: { parentName: LONG, label: 'y', texts: [{ key: 'url', value: 'https://y.example' }] },
    });
    expect(deep.status).toBe(201);
  });
});
