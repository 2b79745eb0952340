import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { namehash } from 'ethers';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/** CACHE_PURGE_URL: every change of a name sends one PURGE naming its namehash, within a second, retried. */
interface Purge {
  method: string;
  keys: string[];
  at: number;
  status: number;
}

describe('PURGE to CACHE_PURGE_URL on every change of a name', () => {
  let t: TestApp;
  let key: string;
  let server: Server;
  const purges: Purge[] = [];
  /** How many of the next PURGEs the target fails (503). */
  let failing = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const status = failing > 0 ? 503 : 200;
      if (failing > 0) failing--;
      const keys = String(req.headers['surrogate-key'] ?? '').split(' ');
      purges.push({ method: req.method ?? '', keys, at: Date.now(), status });
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    t = await createTestApp({ CACHE_PURGE_URL: url });
    key = (await t.issueKey(['oak.eth'])).key;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    purges.length = 0;
    failing = 0;
  });

  /**
   * The PURGEs that named `name`, once one has been taken (a write that sends none fails at the test's timeout),
   * each sent after the write began at `since`.
   */
  async function purgesOf(name: string, since: number): Promise<Purge[]> {
    const node = namehash(name);
    const of = () => purges.filter((p) => p.keys.includes(node));
    while (!of().some((p) => p.status === 200)) await new Promise((r) => setTimeout(r, 20));
    // A moment more, to see that no second PURGE follows.
    await new Promise((r) => setTimeout(r, 300));
    const seen = of();
    for (const p of seen) expect(p.at).toBeGreaterThanOrEqual(since);
    return seen;
  }

  const upsert = (label: string, url: string) =>
    request(t.http)
      .post('/api/v1/subnames')
      .set('x-auth-token', key)
      .send({ parentName: 'oak.eth', label, texts: [{ key: 'url', value: url }] });

  it("an API write, an update and a delete each send one PURGE with the name's namehash", async () => {
    let since = Date.now();
    await upsert('alice', 'https://a.example').expect(201);
    expect((await purgesOf('alice.oak.eth', since)).map((p) => [p.method, p.status])).toEqual([['PURGE', 200]]);
    purges.length = 0;
    since = Date.now();
    await upsert('alice', 'https://b.example').expect(200);
    expect(await purgesOf('alice.oak.eth', since)).toHaveLength(1);
    purges.length = 0;
    since = Date.now();
    await request(t.http).delete('/api/v1/subnames/alice.oak.eth').set('x-auth-token', key).expect(204);
    expect(await purgesOf('alice.oak.eth', since)).toHaveLength(1);
  });

  it('a batch purges every name it wrote', async () => {
    const since = Date.now();
    const items = ['b1', 'b2', 'b3'].map((label) => ({ parentName: 'oak.eth', label }));
    await request(t.http).post('/api/v1/subnames/batch').set('x-auth-token', key).send({ items }).expect(200);
    for (const label of ['b1', 'b2', 'b3']) expect(await purgesOf(`${label}.oak.eth`, since)).toHaveLength(1);
  });

  it('retries while the target fails, until it takes the purge', async () => {
    failing = 3;
    const since = Date.now();
    await upsert('carol', 'https://c.example').expect(201);
    const node = namehash('carol.oak.eth');
    while (!purges.some((p) => p.status === 200 && p.keys.includes(node))) await new Promise((r) => setTimeout(r, 20));
    const seen = purges.filter((p) => p.keys.includes(node));
    expect(seen.map((p) => p.status)).toEqual([503, 503, 503, 200]);
    expect(seen[0].at).toBeGreaterThanOrEqual(since);
  });
});
