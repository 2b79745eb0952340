import { connect, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Issue 35.2: one key cannot stall everyone. A key may have one batch in flight (BATCHES_IN_FLIGHT_PER_KEY,
 * default 1), counted from before its body is read; another batch of that key meanwhile is refused 429 with
 * Retry-After before its body is read or validated, while other keys' batches and reads go on.
 */
describe('batches in flight per key', () => {
  let t: TestApp;
  let port: number;
  let first: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_KEY: '100000' });
    first = (await t.issueKey(['oak.eth'], 5000)).key;
    other = (await t.issueKey(['oak.eth'], 5000)).key;
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const items = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ parentName: 'oak.eth', label: `${prefix}${i}` }));
  const batch = (token: string, body: object) =>
    request(t.http).post('/api/v1/subnames/batch').set('x-auth-token', token).send(body);

  /** A batch whose headers and first half are sent, the rest held until `finish` is called. */
  function heldBatch(token: string, body: string): { finish: () => Promise<string> } {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    const done = new Promise<string>((resolve, reject) => {
      socket.on('data', (d: string) => {
        answer += d;
        if (/\r\n\r\n[\s\S]*\}$/.test(answer)) {
          socket.destroy();
          resolve(answer);
        }
      });
      socket.on('error', reject);
    });
    const half = Math.floor(body.length / 2);
    socket.write(
      'POST /api/v1/subnames/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `x-auth-token: ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    return {
      finish: () => {
        socket.write(body.slice(half));
        return done;
      },
    };
  }

  it('refuses a second batch of the key while one is in flight, not another key; frees the slot at the answer', async () => {
    const held = heldBatch(first, JSON.stringify({ items: items('held', 20) }));
    // The held batch passes the guards and waits for its body: then the key's one slot is taken. Until then an
    // invalid probe is read and refused 400 (writing nothing); once taken, it is 429.
    let probe: request.Response | undefined;
    for (let i = 0; i < 100; i++) {
      probe = await batch(first, { items: [{ parentName: 'oak.eth' }] });
      if (probe.status === 429) break;
      expect(probe.status).toBe(400);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(probe?.status).toBe(429);
    const refused = await batch(first, { items: items('second', 3) });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'RATE_LIMITED',
      detail:
        'this API key already has 1 batch(es) in flight, the most one key may have; send the next when one is answered',
    });
    expect(refused.headers['retry-after']).toBe('1');
    // Refused before being read: nothing was written.
    const second = await t.dataSource.query("SELECT count(*) AS n FROM subnames WHERE label LIKE 'second%'");
    expect(Number(second[0].n)).toBe(0);
    // Another key is not held up.
    const others = await batch(other, { items: items('other', 5) });
    expect([others.status, others.body.created]).toEqual([200, 5]);
    // The held batch is applied once its body arrives; the key may then send the next.
    const answer = await held.finish();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"created":20');
    const next = await batch(first, { items: items('second', 3) });
    expect([next.status, next.body.created]).toEqual([200, 3]);
  });

  it('a refused batch (400) frees the slot too', async () => {
    expect((await batch(first, { items: [{ parentName: 'oak.eth' }] })).status).toBe(400);
    expect((await batch(first, { items: items('after', 2) })).status).toBe(200);
  });
});
