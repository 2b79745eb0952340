import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { importJson } from './support/import-cli';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';
import { createTestDatabase, TestDatabase } from './support/test-database';

const ALLOWED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** Export and import carry a parent's holder policy (CONTRACT 15, issue 32): one policy line before its names. */
describe('export and import carry the holder policy', () => {
  let source: TestApp;
  let targetDb: TestDatabase;
  let target: ServiceProcess;
  let dir: string;
  let exported: string;
  const policy = {
    claims: 'allowlist',
    allowlist: [ALLOWED],
    claimsPerAddress: 3,
    labels: { minLength: 4, maxLength: 20, reserved: ['admin'] },
    holderRecords: { texts: ['description'], addresses: [60], contenthash: false },
    transfers: false,
    deletes: true,
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sns-import-policy-'));
    source = await createTestApp();
    targetDb = await createTestDatabase();
    target = await startServiceProcess({ DATABASE_URL: targetDb.url });
  });
  afterAll(async () => {
    await target?.stop();
    await targetDb?.drop();
    await source?.close();
  });

  it('exports the policy line first, then the names', async () => {
    const { key } = await source.issueKey(['oak.eth'], 50);
    await request(source.http).put('/api/v1/policies/oak.eth').set('x-auth-token', key).send(policy).expect(200);
    const items = [
      { parentName: 'oak.eth', label: 'alice' },
      { parentName: 'oak.eth', label: 'bob' },
    ];
    await request(source.http).post('/api/v1/subnames/batch').set('x-auth-token', key).send({ items }).expect(200);
    const res = await request(source.http)
      .get('/api/v1/subnames/export?parentName=oak.eth')
      .set('x-auth-token', key)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (d: Buffer) => (text += d.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    const lines = (res.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({ policy: { parentName: 'oak.eth', ...policy } });
    expect(
      lines
        .slice(1)
        .map((l) => l.label as string)
        .sort(),
    ).toEqual(['alice', 'bob']);
    exported = join(dir, 'oak.ndjson');
    writeFileSync(exported, res.body as string);
  });

  it('imports into a fresh database: GET /policies shows the policy, charged to the importing key', async () => {
    const issued = await fetch(`${target.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'import', parentNames: ['oak.eth'], quota: 50 }),
    });
    const { id, key } = (await issued.json()) as { id: string; key: string };
    const { code, summary } = await importJson([exported, '--url', target.url, '--key', key]);
    expect(summary).toMatchObject({ entries: 3, valid: 3, created: 2, policies: 1, refusedCount: 0 });
    expect(code).toBe(0);
    const got = await fetch(`${target.url}/api/v1/policies/oak.eth`);
    expect(got.status).toBe(200);
    const { allowlist: _list, ...publicPolicy } = policy;
    expect(await got.json()).toMatchObject({
      ...publicPolicy,
      allowlistSize: 1,
      parentName: 'oak.eth',
      chargedKeyId: id,
    });
  });

  it('a file without a policy line imports as before; a bad policy line is refused naming the field', async () => {
    const plain = join(dir, 'plain.ndjson');
    writeFileSync(plain, `${JSON.stringify({ parentName: 'oak.eth', label: 'carol' })}\n`);
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, `${JSON.stringify({ policy: { parentName: 'oak.eth', claims: 'sometimes' } })}\n`);
    const issued = await fetch(`${target.url}/api/v1/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ name: 'again', parentNames: ['oak.eth'], quota: 5 }),
    });
    const { key } = (await issued.json()) as { key: string };
    expect((await importJson([plain, '--url', target.url, '--key', key])).summary).toMatchObject({
      entries: 1,
      created: 1,
      policies: 0,
      refusedCount: 0,
    });
    const refused = await importJson([bad, '--url', target.url, '--key', key]);
    expect(refused.code).toBe(1);
    expect(refused.summary.refused).toEqual([{ line: 1, reason: expect.stringContaining('claims') }]);
    expect(((await (await fetch(`${target.url}/api/v1/policies/oak.eth`)).json()) as { claims: string }).claims).toBe(
      'allowlist',
    );
  });
});
