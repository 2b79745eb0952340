import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { MAX_LISTED_REFUSALS } from '../src/import/import-command';
import { importCli, importJson } from './support/import-cli';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OTHER = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const IPFS = 'ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4';
const BULK = 1200;
const COLUMNS = 'full_name, parent_name, label, namehash, texts, addresses, metadata, contenthash, owner, ttl';

describe('moving names between deployments: export, then npm run cli -- import', () => {
  let source: TestApp;
  let targetDb: TestDatabase;
  let target: ServiceProcess;
  let targetSql: Client;
  let dir: string;

  const admin = (path: string, method: string, body?: unknown) =>
    fetch(`${target.url}/api/v1/admin/${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const issueOnTarget = async (parentNames: string[], quota: number) => {
    const res = await admin('api-keys', 'POST', { name: 'import', parentNames, quota });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, key: res.body.key as string };
  };
  const quotaOnTarget = async (key: string) =>
    (await (await fetch(`${target.url}/api/v1/quota`, { headers: { 'x-auth-token': key } })).json()) as {
      used: number;
    };
  const targetRows = async (parent: string) =>
    (
      await targetSql.query(
        `SELECT ${COLUMNS}, updated_at FROM subnames WHERE full_name LIKE '%.' || $1 ORDER BY full_name`,
        [parent],
      )
    ).rows;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sns-import-'));
    source = await createTestApp();
    targetDb = await createTestDatabase();
    target = await startServiceProcess({ DATABASE_URL: targetDb.url });
    targetSql = new Client({ connectionString: targetDb.url });
    await targetSql.connect();

    const { key } = await source.issueKey(['oak.eth', 'pine.eth'], 5000);
    const send = (items: unknown[]) =>
      request(source.http).post('/api/v1/subnames/batch').set('x-auth-token', key).send({ items }).expect(200);
    await send([
      {
        parentName: 'oak.eth',
        label: 'alice',
        texts: [
          { key: 'avatar', value: 'https://example.com/a.png' },
          { key: 'com.github', value: 'alice' },
          { key: 'description', value: 'Ünïcödé ✓ "quoted"\nand a new line' },
        ],
        addresses: [
          { coin: 60, value: ETH },
          { coin: 0, value: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
          { coin: 501, value: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
          { coin: 2147492101, value: OTHER },
        ],
        metadata: [
          { key: 'tier', value: 'gold' },
          { key: 'joined', value: '2026' },
        ],
        owner: OTHER,
        contenthash: IPFS,
        ttl: 3600,
      },
      { parentName: 'oak.eth', label: 'team', texts: [{ key: 'url', value: 'https://team.example' }], ttl: 0 },
      { parentName: 'team.oak.eth', label: 'x', owner: ETH, metadata: [{ key: 'role', value: 'lead' }] },
      { parentName: 'x.team.oak.eth', label: 'deep', contenthash: IPFS, addresses: [{ coin: 60, value: OTHER }] },
      { parentName: 'oak.eth', label: '🦊' },
      { parentName: 'pine.eth', label: 'not-exported' },
    ]);
    for (let b = 0; b < BULK / 600; b++) {
      await send(
        Array.from({ length: 600 }, (_, i) => ({
          parentName: i % 2 ? 'oak.eth' : 'bulk.oak.eth',
          label: `n${b}-${i}`,
          texts: [{ key: 'url', value: `https://n${b}-${i}.example` }],
        })),
      );
    }
  });
  afterAll(async () => {
    await targetSql?.end();
    await target?.stop();
    await targetDb?.drop();
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let exported: string;
  const names = BULK + 5;

  it('exports the parent from the first deployment', async () => {
    const res = await request(source.http)
      .get('/api/v1/subnames/export?parentName=oak.eth')
      .set('x-auth-token', (await source.issueKey(['oak.eth'])).key)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => (text += d));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    exported = file('oak.ndjson', res.body as string);
    expect((res.body as string).trim().split('\n')).toHaveLength(names);
  });

  it('imports it into an empty deployment: every record equal, field by field, quota used once per name', async () => {
    const { key } = await issueOnTarget(['oak.eth'], names);
    const { code, stdout, stderr } = await importCli([exported, '--url', target.url, '--key', key]);
    expect(stderr).not.toContain('Error');
    expect(code).toBe(0);
    expect(stdout).toContain(`created ${names}, updated 0, refused 0`);
    // Progress on stderr though it is a pipe here (no TTY): the first line and the last.
    const progress = stderr.split('\n').filter((l) => l.startsWith('importing |'));
    expect(progress[0]).toMatch(new RegExp(`\\| 0/${names} \\| created 0, updated 0, refused 0$`));
    expect(progress.at(-1)).toMatch(new RegExp(`\\| ${names}/${names} \\| created ${names}, updated 0, refused 0$`));
    const before = await source.dataSource.query(
      `SELECT ${COLUMNS} FROM subnames WHERE full_name LIKE '%.oak.eth' ORDER BY full_name`,
    );
    const after = (await targetRows('oak.eth')).map(({ updated_at: _, ...r }) => r);
    expect(after).toHaveLength(names);
    expect(after).toEqual(before);
    expect(after.find((r) => r.full_name === 'alice.oak.eth')).toMatchObject({
      addresses: { '60': ETH, '0': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '2147492101': OTHER },
      owner: OTHER,
      contenthash: IPFS,
    });
    expect((await quotaOnTarget(key)).used).toBe(names);

    // Importing the same file again changes nothing (not even updatedAt) and takes no quota.
    const rows = await targetRows('oak.eth');
    const again = await importJson([exported, '--url', target.url, '--key', key]);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ entries: names, created: 0, updated: names, refused: [] });
    expect(await targetRows('oak.eth')).toEqual(rows);
    expect((await quotaOnTarget(key)).used).toBe(names);
  });

  it('--dry-run validates the whole file, lists the refused lines, and sends nothing', async () => {
    const path = file(
      'dry.ndjson',
      [
        JSON.stringify({ parentName: 'oak.eth', label: 'dry1' }),
        '',
        '{"parentName": "oak.eth", "label": ',
        JSON.stringify({ parentName: 'oak.eth', label: 'dry2', texts: [{ key: 'twitter', value: 'x' }] }),
        JSON.stringify({ parentName: 'Oak.eth', label: 'DRY1' }),
        JSON.stringify([1, 2]),
        JSON.stringify({ parentName: 'oak.eth', label: 'dry3', addresses: [{ coin: 60, value: ETH }] }),
      ].join('\n'),
    );
    const count = async () => Number((await targetSql.query('SELECT count(*) AS n FROM subnames')).rows[0].n);
    const before = await count();
    const { code, summary } = await importJson([path, '--dry-run']);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ entries: 6, valid: 2, created: 0, updated: 0 });
    expect(summary.refused).toEqual([
      { line: 3, reason: expect.stringContaining('not valid JSON') },
      { line: 4, reason: expect.stringContaining('texts[0].key') },
      { line: 5, reason: 'repeats the fullName dry1.oak.eth of line 1' },
      { line: 6, reason: 'is not a JSON object' },
    ]);
    expect(await count()).toBe(before);
    const clean = await importCli([
      file('clean.ndjson', `${JSON.stringify({ parentName: 'oak.eth', label: 'c' })}\n`),
      '--dry-run',
    ]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('1 valid, 0 refused; nothing was sent');
  });

  it('a refused chunk does not stop the others; the refused lines are named with their reasons', async () => {
    const { id, key } = await issueOnTarget(['elm.eth'], 3);
    const line = (label: string, parentName = 'elm.eth') => JSON.stringify({ parentName, label });
    const path = file(
      'chunks.ndjson',
      [line('a'), line('b'), line('far', 'pine.eth'), line('c'), line('d'), line('e')].join('\n'),
    );
    // Chunks of 2: [a b] is created; [far c] loses far (outside the scope) and creates c; [d e] would need 2
    // creations with none left and is refused whole; nothing after it is affected.
    const { code, summary } = await importJson([path, '--url', target.url, '--key', key, '--batch-size', '2']);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ created: 3, updated: 0 });
    expect(summary.refused).toEqual([
      { line: 3, reason: expect.stringMatching(/^FORBIDDEN_PARENT: parentName: .*pine\.eth/) },
      { line: 5, reason: expect.stringMatching(/^QUOTA_EXCEEDED: /) },
      { line: 6, reason: expect.stringMatching(/^QUOTA_EXCEEDED: /) },
    ]);
    expect((await targetRows('elm.eth')).map((r) => r.full_name)).toEqual(['a.elm.eth', 'b.elm.eth', 'c.elm.eth']);

    // The admin raises the limit; the same file then finishes the job, and only the missing names use quota.
    expect((await admin(`api-keys/${id}`, 'PATCH', { quota: 5 })).status).toBe(200);
    const rerun = await importJson([path, '--url', target.url, '--key', key, '--batch-size', '2']);
    expect(rerun.summary).toMatchObject({ created: 2, updated: 3 });
    expect(rerun.summary.refused.map((r) => r.line)).toEqual([3]);
    expect((await quotaOnTarget(key)).used).toBe(5);
  });

  it("a bad key stops the import at the first chunk with the service's reason", async () => {
    const { code, summary } = await importJson([exported, '--url', target.url, '--key', 'sns_nope']);
    expect(code).toBe(1);
    expect(summary.stopped).toContain('401');
    // Every entry refused; the first MAX_LISTED_REFUSALS listed.
    expect(summary.refusedCount).toBe(names);
    expect(summary.refused).toHaveLength(Math.min(names, MAX_LISTED_REFUSALS));
  });

  it("imports NameStone's get-names JSON: address as coin 60, coin_types by coin type, text_records as texts", async () => {
    const { key } = await issueOnTarget(['stone.eth'], 10);
    const entries = [
      {
        name: 'ns1',
        domain: 'stone.eth',
        address: ETH.toLowerCase(),
        created_at: '2024-05-01T10:00:00.000Z',
        contenthash: IPFS,
        text_records: { avatar: 'https://example.com/ns1.png', 'com.twitter': 'ns1', description: '' },
        coin_types: { '0': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '2147483785': OTHER, '60': OTHER },
      },
      {
        name: 'ns2',
        domain: 'stone.eth',
        address: OTHER,
        created_at: '2024-05-02T10:00:00.000Z',
        contenthash: null,
        text_records: {},
        coin_types: {},
      },
      {
        name: 'ns3',
        domain: 'stone.eth',
        address: ETH,
        text_records: { twitter: 'not-a-key-here' },
        coin_types: {},
      },
    ];
    const text = JSON.stringify(entries, null, 2);
    const path = file('namestone.json', text);
    // Where the third entry starts in the pretty-printed file.
    const thirdLine = text.split('\n').reduce<number[]>((at, l, i) => (l === '  {' ? [...at, i + 1] : at), [])[2];
    const { code, summary } = await importJson([path, '--url', target.url, '--key', key]);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ entries: 3, created: 2, updated: 0 });
    expect(summary.refused).toEqual([{ line: thirdLine, item: 3, reason: expect.stringContaining('texts[0].key') }]);
    const rows = await targetRows('stone.eth');
    expect(rows.map(({ updated_at: _, namehash: __, ...r }) => r)).toEqual([
      {
        full_name: 'ns1.stone.eth',
        parent_name: 'stone.eth',
        label: 'ns1',
        texts: { avatar: 'https://example.com/ns1.png', 'com.twitter': 'ns1' },
        addresses: { '60': ETH, '0': 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '2147483785': OTHER },
        metadata: {},
        contenthash: IPFS,
        owner: null,
        ttl: null,
      },
      {
        full_name: 'ns2.stone.eth',
        parent_name: 'stone.eth',
        label: 'ns2',
        texts: {},
        addresses: { '60': OTHER },
        metadata: {},
        contenthash: null,
        owner: null,
        ttl: null,
      },
    ]);
    const read = await fetch(`${target.url}/api/v1/subnames/ns1.stone.eth`);
    expect(((await read.json()) as { addresses: Record<string, string> }).addresses).toMatchObject({
      eth: ETH,
      btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    });
  });
});
