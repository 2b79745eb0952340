import { join } from 'node:path';
import request from 'supertest';
import { execFileLogged } from './support/suite-log';
import { ADMIN_TOKEN, createTestApp, TestApp, testEnv } from './support/test-app';

describe('key rotation: POST /api/v1/admin/api-keys/{id}/rotate', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Without a body, the request has none at all (no Content-Type either), as `curl -X POST` sends it. */
  const rotate = (id: string, body?: object) => {
    const req = request(t.http).post(`/api/v1/admin/api-keys/${id}/rotate`).set('x-admin-token', ADMIN_TOKEN);
    return body === undefined ? req : req.send(body);
  };
  /** 200 when the key is accepted, 401 when refused. */
  const status = async (key: string) => (await request(t.http).get('/api/v1/quota').set('x-auth-token', key)).status;
  /** Ends the grace period now, as the clock would (no waiting in tests). */
  const endGrace = (id: string) =>
    t.dataSource.query(`UPDATE api_keys SET previous_key_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);

  it('gives a new secret for the same key: id, scope, limit and used count kept; the old works during the grace', async () => {
    const old = await t.issueKey(['oak.eth', 'pine.eth'], 5);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', old.key)
      .send({ parentName: 'oak.eth', label: 'one' })
      .expect(201);
    const [before] = await t.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [old.id]);

    const res = await rotate(old.id, { graceSeconds: 3600 }).expect(200);
    expect(res.body).toEqual({
      id: old.id,
      name: 'test',
      key: expect.stringMatching(/^sns_[A-Za-z0-9_-]{43}$/),
      keyPrefix: res.body.key.slice(0, 12),
      parentNames: ['oak.eth', 'pine.eth'],
      quota: 5,
      used: 1,
      expiresAt: null,
      revokedAt: null,
      createdAt: before.created_at.toISOString(),
    });
    expect(res.body.key).not.toBe(old.key);

    const [after] = await t.dataSource.query(
      `SELECT previous_key_hash, key_hash, extract(epoch FROM previous_key_expires_at - now()) AS left FROM api_keys WHERE id = $1`,
      [old.id],
    );
    expect(after.previous_key_hash).toBe(before.key_hash);
    expect(after.key_hash).not.toBe(before.key_hash);
    expect(Number(after.left)).toBeGreaterThan(3500);
    expect(Number(after.left)).toBeLessThanOrEqual(3600);

    // Both secrets work, as the same key: its quota (and used count) is shared.
    expect(await status(old.key)).toBe(200);
    expect(await status(res.body.key)).toBe(200);
    await request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', old.key)
      .send({ parentName: 'pine.eth', label: 'two' })
      .expect(201);
    const quota = await request(t.http).get('/api/v1/quota').set('x-auth-token', res.body.key).expect(200);
    expect(quota.body).toMatchObject({ limit: 5, used: 2 });

    await endGrace(old.id);
    const refused = await request(t.http).get('/api/v1/quota').set('x-auth-token', old.key).expect(401);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    expect(await status(res.body.key)).toBe(200);
  });

  it('the old secret stops by itself when a short grace runs out', async () => {
    const old = await t.issueKey(['oak.eth']);
    const { key } = (await rotate(old.id, { graceSeconds: 1 }).expect(200)).body;
    expect(await status(key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await status(old.key)).toBe(401);
    expect(await status(key)).toBe(200);
  });

  it('graceSeconds 0 (the default, also with no body at all) refuses the old secret at once', async () => {
    for (const body of [undefined, {}, { graceSeconds: 0 }]) {
      const old = await t.issueKey(['oak.eth']);
      const { key } = (await rotate(old.id, body).expect(200)).body;
      expect(await status(old.key)).toBe(401);
      expect(await status(key)).toBe(200);
      const [row] = await t.dataSource.query(
        'SELECT previous_key_hash, previous_key_expires_at FROM api_keys WHERE id = $1',
        [old.id],
      );
      expect(row).toEqual({ previous_key_hash: null, previous_key_expires_at: null });
    }
  });

  it('rotating again replaces the previous secret: only the latest two work during the grace', async () => {
    const first = await t.issueKey(['oak.eth']);
    const second = (await rotate(first.id, { graceSeconds: 3600 }).expect(200)).body.key;
    const third = (await rotate(first.id, { graceSeconds: 3600 }).expect(200)).body.key;
    expect(await status(first.key)).toBe(401);
    expect(await status(second)).toBe(200);
    expect(await status(third)).toBe(200);
  });

  it('revoking refuses the new and the old secret alike; a revoked key cannot be rotated (409)', async () => {
    const old = await t.issueKey(['oak.eth']);
    const { key } = (await rotate(old.id, { graceSeconds: 3600 }).expect(200)).body;
    await request(t.http).delete(`/api/v1/admin/api-keys/${old.id}`).set('x-admin-token', ADMIN_TOKEN).expect(204);
    expect(await status(old.key)).toBe(401);
    expect(await status(key)).toBe(401);
    const conflict = await rotate(old.id).expect(409);
    expect(conflict.body).toMatchObject({ code: 'CONFLICT', detail: expect.stringContaining('revoked') });
  });

  it('404 for an unknown key, 400 naming the field for a bad id or graceSeconds', async () => {
    expect((await rotate('00000000-0000-4000-8000-000000000000').expect(404)).body.code).toBe('NOT_FOUND');
    expect((await rotate('not-a-uuid').expect(400)).body.errors[0].field).toBe('id');
    const { id } = await t.issueKey(['oak.eth']);
    for (const graceSeconds of [-1, 86401, 1.5, '10', true]) {
      const res = await rotate(id, { graceSeconds }).expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['graceSeconds']);
    }
    expect((await rotate(id, { grace: 5 }).expect(400)).body.errors[0].field).toBe('grace');
    await rotate(id, { graceSeconds: 86400 }).expect(200);
    await request(t.http).post(`/api/v1/admin/api-keys/${id}/rotate`).send({}).expect(401);
  });

  it('npm run cli -- keys rotate ID [--grace SECONDS]', async () => {
    const cli = (...args: string[]) =>
      execFileLogged('cli', process.execPath, [join(__dirname, '..', 'dist', 'cli.js'), ...args], {
        env: { ...process.env, ...testEnv() },
      });
    const old = await t.issueKey(['oak.eth'], 4);
    const rotated = JSON.parse((await cli('keys', 'rotate', old.id, '--grace', '3600', '--json')).stdout);
    expect(rotated).toMatchObject({ id: old.id, parentNames: ['oak.eth'], quota: 4, used: 0 });
    expect(await status(old.key)).toBe(200);
    expect(await status(rotated.key)).toBe(200);

    const { stdout } = await cli('keys', 'rotate', old.id);
    const newest = /\n {2}(sns_[A-Za-z0-9_-]{43})\n/.exec(stdout)![1];
    expect(stdout).toContain('The old secret no longer works');
    expect(await status(rotated.key)).toBe(401);
    expect(await status(old.key)).toBe(401);
    expect(await status(newest)).toBe(200);
    await expect(cli('keys', 'rotate', old.id, '--grace', '90000')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--grace: must not be greater than 86400'),
    });
  });
});
