import request from 'supertest';
import { ADMIN_TOKEN, createTestApp, TestApp } from './support/test-app';

describe('DELETE /api/v1/subnames/:fullName', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.issueKey(['oak.eth'])).key;
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, token = key) =>
    request(t.http).post('/api/v1/subnames').set('x-auth-token', token).send(body);
  /** `token` null sends no x-auth-token header. */
  const remove = (fullName: string, token: string | null = key) => {
    const r = request(t.http).delete(`/api/v1/subnames/${fullName}`);
    return token === null ? r : r.set('x-auth-token', token);
  };
  const rowCount = async (fullName: string) =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM subnames WHERE full_name = $1', [fullName]))[0].n);
  const quota = async (token: string) =>
    (await request(t.http).get('/api/v1/quota').set('x-auth-token', token).expect(200)).body as {
      limit: number;
      used: number;
      remaining: number;
    };

  it('deletes (204, no body): the name reads 404, and search lists it no more', async () => {
    await create({ parentName: 'oak.eth', label: 'alice', metadata: [{ key: 'tier', value: 'gold' }] }).expect(201);
    await create({ parentName: 'oak.eth', label: 'bob' }).expect(201);
    const res = await remove('alice.oak.eth').expect(204);
    expect(res.text).toBe('');
    expect(await rowCount('alice.oak.eth')).toBe(0);
    const gone = await request(t.http).get('/api/v1/subnames/alice.oak.eth').expect(404);
    expect(gone.body.code).toBe('SUBNAME_NOT_FOUND');
    const page = await request(t.http).post('/api/v1/subnames/search').send({ parentName: 'oak.eth' }).expect(200);
    expect(page.body.totalItems).toBe(1);
    expect(page.body.items.map((i: { fullName: string }) => i.fullName)).toEqual(['bob.oak.eth']);
  });

  it('404 SUBNAME_NOT_FOUND when there is none (also a second delete)', async () => {
    const again = await remove('alice.oak.eth').expect(404);
    expect(again.body).toMatchObject({ code: 'SUBNAME_NOT_FOUND', status: 404, detail: 'No subname alice.oak.eth' });
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect((await remove('never.oak.eth').expect(404)).body.code).toBe('SUBNAME_NOT_FOUND');
  });

  it('normalises the name before deleting (BOB.Oak.ETH deletes bob.oak.eth)', async () => {
    await remove('BOB.Oak.ETH').expect(204);
    expect(await rowCount('bob.oak.eth')).toBe(0);
  });

  it('deletes a subname under a child of the key scope', async () => {
    await create({ parentName: 'team.oak.eth', label: 'carol' }).expect(201);
    await remove('carol.team.oak.eth').expect(204);
    expect(await rowCount('carol.team.oak.eth')).toBe(0);
  });

  it('400 for a name that is not a subname (fewer than three labels, or not ENSIP-15)', async () => {
    for (const name of ['oak.eth', 'bad%20name.oak.eth', 'a..oak.eth']) {
      const res = await remove(name).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[0].field).toBe('fullName');
    }
  });

  describe('auth, as for writes', () => {
    beforeAll(async () => {
      await create({ parentName: 'oak.eth', label: 'dave' }).expect(201);
    });

    it('401 UNAUTHORIZED without a key or with an unknown one, and nothing is deleted', async () => {
      for (const token of [null, '', 'sns_nope']) {
        const res = await remove('dave.oak.eth', token).expect(401);
        expect(res.body.code).toBe('UNAUTHORIZED');
      }
      expect(await rowCount('dave.oak.eth')).toBe(1);
    });

    it('403 FORBIDDEN_PARENT outside the key scope, whether or not the name exists', async () => {
      const pine = (await t.issueKey(['pine.eth'])).key;
      const res = await remove('dave.oak.eth', pine).expect(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN_PARENT', status: 403 });
      expect(await rowCount('dave.oak.eth')).toBe(1);
      expect((await remove('nobody.oak.eth', pine).expect(403)).body.code).toBe('FORBIDDEN_PARENT');
      // oakk.eth is not under oak.eth.
      expect((await remove('x.oakk.eth').expect(403)).body.code).toBe('FORBIDDEN_PARENT');
    });

    it('401 once the key is revoked', async () => {
      const revoked = await t.issueKey(['oak.eth']);
      await request(t.http)
        .delete(`/api/v1/admin/api-keys/${revoked.id}`)
        .set('x-admin-token', ADMIN_TOKEN)
        .expect(204);
      const res = await remove('dave.oak.eth', revoked.key).expect(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
      expect(await rowCount('dave.oak.eth')).toBe(1);
    });
  });

  describe('re-creating after a delete', () => {
    it('creates the name anew (201, new id), and that creation uses quota again', async () => {
      const small = await t.issueKey(['elm.eth'], 3);
      const first = await create({ parentName: 'elm.eth', label: 'erin', ttl: 60 }, small.key).expect(201);
      expect(first.headers['x-quota-remaining']).toBe('2');
      const removed = await remove('erin.elm.eth', small.key).expect(204);
      // A delete is a successful write: it carries the key's quota too, unchanged by it.
      expect([removed.headers['x-quota-limit'], removed.headers['x-quota-remaining']]).toEqual(['3', '2']);
      expect(await quota(small.key)).toEqual({ limit: 3, used: 1, remaining: 2 });

      const second = await create({ parentName: 'elm.eth', label: 'erin' }, small.key).expect(201);
      expect(second.headers['x-quota-remaining']).toBe('1');
      expect(second.body.id).not.toBe(first.body.id);
      expect(second.body.ttl).toBeNull();
      expect(await quota(small.key)).toEqual({ limit: 3, used: 2, remaining: 1 });

      await remove('erin.elm.eth', small.key).expect(204);
      await create({ parentName: 'elm.eth', label: 'erin' }, small.key).expect(201);
      expect(await quota(small.key)).toEqual({ limit: 3, used: 3, remaining: 0 });

      // Deletes give nothing back: with the quota spent, even a name just deleted cannot be created.
      await remove('erin.elm.eth', small.key).expect(204);
      const refused = await create({ parentName: 'elm.eth', label: 'erin' }, small.key).expect(403);
      expect(refused.body.code).toBe('QUOTA_EXCEEDED');
      expect(await rowCount('erin.elm.eth')).toBe(0);
      expect(await quota(small.key)).toEqual({ limit: 3, used: 3, remaining: 0 });
    });
  });
});
