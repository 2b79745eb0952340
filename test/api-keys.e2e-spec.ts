import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { execFileLogged } from './support/suite-log';
import { ADMIN_TOKEN, createTestApp, TestApp, testEnv } from './support/test-app';

const admin = (t: TestApp) => ({
  post: (body: object) => request(t.http).post('/api/v1/admin/api-keys').set('x-admin-token', ADMIN_TOKEN).send(body),
  list: () => request(t.http).get('/api/v1/admin/api-keys').set('x-admin-token', ADMIN_TOKEN),
  patch: (id: string, body: object) =>
    request(t.http).patch(`/api/v1/admin/api-keys/${id}`).set('x-admin-token', ADMIN_TOKEN).send(body),
  revoke: (id: string) => request(t.http).delete(`/api/v1/admin/api-keys/${id}`).set('x-admin-token', ADMIN_TOKEN),
});

describe('API keys: admin routes and CLI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('issues a key shown once, stores only its SHA-256 digest, and lists it without the key', async () => {
    const res = await admin(t)
      .post({ name: 'wallet', parentNames: ['Oak.ETH', 'oak.eth', 'pine.eth'], quota: 7 })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'wallet',
      key: expect.stringMatching(/^sns_[A-Za-z0-9_-]{43}$/),
      keyPrefix: res.body.key.slice(0, 12),
      parentNames: ['oak.eth', 'pine.eth'],
      quota: 7,
      used: 0,
      expiresAt: null,
      revokedAt: null,
      createdAt: expect.any(String),
    });
    const [row] = await t.dataSource.query('SELECT key_hash FROM api_keys WHERE id = $1', [res.body.id]);
    expect(row.key_hash).toBe(createHash('sha256').update(res.body.key).digest('hex'));
    const rows = await t.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [res.body.id]);
    expect(JSON.stringify(rows)).not.toContain(res.body.key);

    const list = await admin(t).list().expect(200);
    const listed = list.body.find((k: { id: string }) => k.id === res.body.id);
    expect(listed).toMatchObject({ name: 'wallet', quota: 7, used: 0 });
    expect(listed.key).toBeUndefined();
  });

  it('the default quota is SUBNAME_QUOTA_DEFAULT (2000)', async () => {
    expect(
      (
        await admin(t)
          .post({ name: 'd', parentNames: ['oak.eth'] })
          .expect(201)
      ).body.quota,
    ).toBe(2000);
  });

  it('patches name, scope, quota and expiry; the new scope and limit apply at once', async () => {
    const { id, key } = await t.issueKey(['oak.eth'], 1);
    const post = (parentName: string, label: string) =>
      request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send({ parentName, label });
    await post('oak.eth', 'one').expect(201);
    await post('oak.eth', 'two').expect(403);
    await post('elm.eth', 'one').expect(403);
    const patched = await admin(t)
      .patch(id, { name: 'renamed', parentNames: ['elm.eth'], quota: 3 })
      .expect(200);
    expect(patched.body).toMatchObject({ name: 'renamed', parentNames: ['elm.eth'], quota: 3, used: 1 });
    await post('elm.eth', 'one').expect(201);
    expect((await post('oak.eth', 'two').expect(403)).body.code).toBe('FORBIDDEN_PARENT');
  });

  it('refuses bad admin input with field names, and unknown ids with 404', async () => {
    const bad = await admin(t)
      .post({ name: '', parentNames: ['eth'], quota: -1, expiresAt: 'soon' })
      .expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'expiresAt',
      'name',
      'parentNames',
      'quota',
    ]);
    expect((await admin(t).patch('not-a-uuid', {}).expect(400)).body.errors[0].field).toBe('id');
    expect((await admin(t).revoke('00000000-0000-4000-8000-000000000000').expect(404)).body.code).toBe('NOT_FOUND');
  });

  it('refuses an expiresAt that is not in the future, at issue and on update (400 naming the field)', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const issued = await admin(t)
      .post({ name: 'late', parentNames: ['oak.eth'], expiresAt: past })
      .expect(400);
    expect(issued.body.errors).toEqual([{ field: 'expiresAt', message: 'must be in the future (null never expires)' }]);
    const key = await admin(t)
      .post({ name: 'later', parentNames: ['oak.eth'], expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      .expect(201);
    const patched = await admin(t).patch(key.body.id, { expiresAt: past }).expect(400);
    expect(patched.body.errors).toEqual([
      { field: 'expiresAt', message: 'must be in the future (null never expires)' },
    ]);
    expect((await admin(t).patch(key.body.id, { expiresAt: null }).expect(200)).body.expiresAt).toBeNull();
  });

  it('401 without or with a wrong admin token', async () => {
    await request(t.http).get('/api/v1/admin/api-keys').expect(401);
    const res = await request(t.http).get('/api/v1/admin/api-keys').set('x-admin-token', 'wrong').expect(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('admin routes answer 404 when no ADMIN_TOKEN is configured', async () => {
    const off = await createTestApp({ ADMIN_TOKEN: undefined }, { reset: false });
    try {
      const res = await request(off.http).get('/api/v1/admin/api-keys').set('x-admin-token', ADMIN_TOKEN).expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
    } finally {
      await off.close();
    }
  });

  describe('npm run cli', () => {
    const cli = (...args: string[]) =>
      execFileLogged('cli', process.execPath, [join(__dirname, '..', 'dist', 'cli.js'), ...args], {
        env: { ...process.env, ...testEnv() },
      });

    it('creates a key that works, lists, updates and revokes it', async () => {
      const created = JSON.parse(
        (await cli('keys', 'create', '--name', 'cli', '--parent', 'cli.eth', '--quota', '3', '--json')).stdout,
      );
      expect(created).toMatchObject({ name: 'cli', parentNames: ['cli.eth'], quota: 3 });
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', created.key)
        .send({ parentName: 'cli.eth', label: 'x' })
        .expect(201);

      const listed = JSON.parse((await cli('keys', 'list')).stdout);
      expect(listed.find((k: { id: string }) => k.id === created.id)).toMatchObject({ used: 1, quota: 3 });

      const updated = JSON.parse((await cli('keys', 'update', created.id, '--quota', '9')).stdout);
      expect(updated.quota).toBe(9);

      expect((await cli('keys', 'revoke', created.id)).stdout).toContain(`revoked ${created.id}`);
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', created.key)
        .send({ parentName: 'cli.eth', label: 'y' })
        .expect(401);
    });

    it('prints the key once in human form, and fails with a message on bad input', async () => {
      const { stdout } = await cli('keys', 'create', '--name', 'human', '--parent', 'oak.eth');
      expect(stdout).toMatch(/\n {2}sns_[A-Za-z0-9_-]{43}\n/);
      expect(stdout).toContain('not shown again');
      await expect(cli('keys', 'create', '--name', 'nope')).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^keys create needs --parent NAME\n\nUsage: npm run cli -- keys create/),
      });
      await expect(cli('keys', 'revoke', 'abc')).rejects.toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^ID: must be a UUID\n\nUsage: npm run cli -- keys revoke/),
      });
    });
  });
});
