import { connect, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

/** Bounded work per request: each refusal is asserted by status, body size and what was (not) done. */
describe('abuse: bounded work before the expensive part', () => {
  let t: TestApp;
  let key: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.issueKey(['oak.eth', 'abc.eth'], 5000)).key;
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  const batch = (token: string, body: unknown) =>
    request(t.http)
      .post('/api/v1/subnames/batch')
      .set('x-auth-token', token)
      .send(body as object);
  const rows = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM subnames'))[0].n);
  const exportOf = (parent: string) =>
    request(t.http)
      .get(`/api/v1/subnames/export?parentName=${encodeURIComponent(parent)}`)
      .set('x-auth-token', key)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => done(null, text));
      });

  describe('arrays past their bound', () => {
    it('70,000 {} items: a 400 naming the bound, one entry, no element validated', async () => {
      const res = await batch(key, { items: Array.from({ length: 70_000 }, () => ({})) }).expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'items', message: 'must contain no more than 1000 elements (70000 given)' }],
      });
      // Had a single element been validated, its two missing fields would be named here.
      expect(res.body.moreErrors).toBeUndefined();
      expect(res.text.length).toBeLessThan(1024);
      expect(await rows()).toBe(0);
    });

    it('a 2 MB body of {} items (699,044 of them): the same 400, from the text before it is parsed', async () => {
      const text = `{"items":[${'{},'.repeat(699_043)}{}]}`;
      const res = await request(t.http)
        .post('/api/v1/subnames/batch')
        .set('x-auth-token', key)
        .set('content-type', 'application/json')
        .send(text)
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'items', message: 'must contain no more than 1000 elements (699044 given)' },
      ]);
      expect(res.text.length).toBeLessThan(1024);
    });

    it('an item whose texts are past their bound is named by path, the rest of the batch not validated', async () => {
      const texts = Array.from({ length: 5000 }, () => ({}));
      const res = await batch(key, { items: [{ parentName: 'oak.eth', label: 'a' }, { texts }] }).expect(400);
      expect(res.body.errors).toEqual([
        { field: 'items[1].texts', message: 'must contain no more than 50 elements (5000 given)' },
      ]);
    });

    it('1000 items with two bad fields each: errors[] lists 100, moreErrors counts the other 1,900', async () => {
      const res = await batch(key, { items: Array.from({ length: 1000 }, () => ({})) }).expect(400);
      expect(res.body.errors).toHaveLength(100);
      expect(res.body.errors[0]).toEqual({ field: 'items[0].parentName', message: 'is required' });
      expect(res.body.moreErrors).toBe(1900);
      expect(res.body.detail).toBe('2000 fields are invalid');
      expect(res.text.length).toBeLessThan(16 * 1024);
    });
  });

  describe('keyed batch: the key is checked from the headers before the body is read', () => {
    /** Sends headers announcing a 2 MB body, then only its first bytes, and waits for whatever answer comes. */
    function announceLargeBody(token: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const socket: Socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => {
          answer += d;
          if (answer.includes('\r\n\r\n') && answer.includes('}')) {
            socket.destroy();
            resolve(answer);
          }
        });
        socket.on('error', reject);
        socket.setTimeout(10_000, () => {
          socket.destroy();
          resolve(answer);
        });
        socket.write(
          'POST /api/v1/subnames/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            `x-auth-token: ${token}\r\nContent-Length: ${2 * 1024 * 1024 - 1}\r\n\r\n{"items":[`,
        );
      });
    }

    it('a made-up key is refused 401 while the body is still unsent (so it was never waited for nor parsed)', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => announceLargeBody(`made-up-key-${i}`)));
      for (const answer of answers) {
        expect(answer).toMatch(/^HTTP\/1\.1 401 /);
        expect(answer).toContain('"code":"UNAUTHORIZED"');
      }
    });

    it('a valid key still has its body read, checked and applied', async () => {
      const res = await batch(key, { items: [{ parentName: 'oak.eth', label: 'deferred' }] }).expect(200);
      expect(res.body.created).toBe(1);
      const unsafe = await batch(key, { items: [{ parentName: 'oak.eth', label: 'a\u0000b' }] }).expect(400);
      expect(unsafe.body.errors[0].message).toMatch(/NUL/);
      await request(t.http)
        .post('/api/v1/subnames/batch')
        .set('x-auth-token', key)
        .set('content-type', 'application/json')
        .send('{"items": [')
        .expect(400);
    });
  });

  describe('exports per key', () => {
    /** Starts an export and reads only its status line and headers: the stream then waits on the client. */
    function stalledExport(token: string): Promise<{ head: string; socket: Socket }> {
      return new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let head = '';
        socket.setEncoding('latin1');
        socket.on('error', reject);
        socket.on('data', (d: string) => {
          head += d;
          const end = head.indexOf('\r\n\r\n');
          if (end !== -1) {
            socket.pause();
            socket.removeAllListeners('data');
            resolve({ head: head.slice(0, end), socket });
          }
        });
        socket.write(
          `GET /api/v1/subnames/export?parentName=big.eth HTTP/1.1\r\nHost: x\r\nx-auth-token: ${token}\r\n\r\n`,
        );
      });
    }

    it('a key runs 2 at once: the third is 429 RATE_LIMITED with Retry-After; another key is not held up', async () => {
      const owner = (await t.issueKey(['big.eth'], 20_000)).key;
      const other = (await t.issueKey(['big.eth'], 1)).key;
      const text = 'x'.repeat(1500);
      for (let b = 0; b < 12; b++) {
        const items = Array.from({ length: 1000 }, (_, i) => ({
          parentName: 'big.eth',
          label: `n${b}-${i}`,
          texts: [{ key: 'description', value: text }],
        }));
        await batch(owner, { items }).expect(200);
      }
      const held = [await stalledExport(owner), await stalledExport(owner)];
      try {
        for (const h of held) expect(h.head).toMatch(/^HTTP\/1\.1 200 /);
        const third = await request(t.http)
          .get('/api/v1/subnames/export?parentName=big.eth')
          .set('x-auth-token', owner);
        expect(third.status).toBe(429);
        expect(third.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
        expect(third.headers['retry-after']).toBe('5');
        const another = await stalledExport(other);
        expect(another.head).toMatch(/^HTTP\/1\.1 200 /);
        another.socket.destroy();
      } finally {
        for (const h of held) h.socket.destroy();
      }
      // The slots come back once the streams end: a new export of the key is served again.
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        const res = await request(t.http).head('/api/v1/subnames/export?parentName=big.eth').set('x-auth-token', owner);
        status = res.status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      await t.dataSource.query(`DELETE FROM subnames WHERE parent_name = 'big.eth'`);
    });
  });

  describe('no key is special', () => {
    it('metadata keys named like Object.prototype members are stored, returned and filtered like any other', async () => {
      const metadata = ['toString', 'valueOf', 'hasOwnProperty'].map((k) => ({ key: k, value: 'yes' }));
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'oak.eth', label: 'proto', metadata })
        .expect(201);
      const read = await request(t.http).get('/api/v1/subnames/proto.oak.eth').expect(200);
      expect(read.body.metadata).toEqual({ toString: 'yes', valueOf: 'yes', hasOwnProperty: 'yes' });
      const search = (filter: Record<string, string>) =>
        request(t.http).post('/api/v1/subnames/search').send({ parentName: 'oak.eth', metadata: filter }).expect(200);
      expect((await search({ toString: 'nope' })).body.totalItems).toBe(0);
      expect((await search({ toString: 'yes' })).body.items.map((s: { label: string }) => s.label)).toEqual(['proto']);
      const list = await request(t.http).get('/api/v1/subnames?parentName=oak.eth&metadata[valueOf]=nope').expect(200);
      expect(list.body.totalItems).toBe(0);
    });

    it('record keys named __proto__ and constructor are stored and returned as they are', async () => {
      const metadata = ['__proto__', 'constructor'].map((k) => ({ key: k, value: 'kept' }));
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'oak.eth', label: 'proto2', metadata })
        .expect(201);
      const read = await request(t.http).get('/api/v1/subnames/proto2.oak.eth').expect(200);
      expect(JSON.parse(read.text).metadata).toEqual(JSON.parse('{"__proto__": "kept", "constructor": "kept"}'));
    });

    it('the search filter names __proto__, constructor and prototype as metadata keys, on POST and on GET', async () => {
      const metadata = ['__proto__', 'constructor', 'prototype'].map((k) => ({ key: k, value: 'on' }));
      await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'oak.eth', label: 'proto3', metadata: [...metadata, { key: 'tier', value: 'gold' }] })
        .expect(201);
      const labels = (res: request.Response) => res.body.items.map((s: { label: string }) => s.label);
      const search = (filter: string) =>
        request(t.http)
          .post('/api/v1/subnames/search')
          .set('content-type', 'application/json')
          .send(`{"parentName": "oak.eth", "metadata": ${filter}}`)
          .expect(200);
      for (const k of ['__proto__', 'constructor', 'prototype']) {
        expect(labels(await search(`{"${k}": "on"}`))).toEqual(['proto3']);
        expect((await search(`{"${k}": "off"}`)).body.totalItems).toBe(0);
        expect((await search(`{"${k}": "on", "tier": "silver"}`)).body.totalItems).toBe(0);
        const bracket = await request(t.http).get(`/api/v1/subnames?parentName=oak.eth&metadata[${k}]=off`).expect(200);
        expect(bracket.body.totalItems).toBe(0);
        const json = encodeURIComponent(`{"${k}":"on"}`);
        expect(labels(await request(t.http).get(`/api/v1/subnames?parentName=oak.eth&metadata=${json}`))).toEqual([
          'proto3',
        ]);
      }
    });

    it('a filter value under a prototype-named key must still be a string: 400 naming metadata', async () => {
      const res = await request(t.http)
        .post('/api/v1/subnames/search')
        .set('content-type', 'application/json')
        .send('{"parentName": "oak.eth", "size": 0, "metadata": {"constructor": {"nested": "x"}}}')
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'size', message: expect.stringContaining('from 1 to') },
        { field: 'metadata', message: expect.stringMatching(/^value of "constructor" /) },
      ]);
    });

    it('a create whose metadata is a map, not a list, names its prototype-named keys as it names any other', async () => {
      const res = await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .set('content-type', 'application/json')
        .send(
          '{"parentName": "oak.eth", "label": "never", "metadata": {"constructor": {"a": 1}, "__proto__": {"b": 2}}}',
        )
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'metadata.constructor', message: 'is not an accepted field' },
        { field: 'metadata.__proto__', message: 'is not an accepted field' },
      ]);
      expect((await request(t.http).get('/api/v1/subnames/never.oak.eth')).status).toBe(404);
    });

    it.each(['toString', 'valueOf', 'hasOwnProperty', 'constructor', 'prototype', '__proto__'])(
      'an unknown body field %j is refused as any unknown field',
      async (k) => {
        const res = await request(t.http)
          .post('/api/v1/subnames')
          .set('x-auth-token', key)
          .set('content-type', 'application/json')
          .send(`{"parentName": "oak.eth", "label": "never", ${JSON.stringify(k)}: "x"}`)
          .expect(400);
        expect(res.body.errors).toEqual([{ field: k, message: 'is not an accepted field' }]);
        expect((await request(t.http).get('/api/v1/subnames/never.oak.eth')).status).toBe(404);
      },
    );
  });

  describe('what is stored exports and imports', () => {
    it('a parent that is 6 characters once normalised (a soft hyphen) is refused, whatever its raw length', async () => {
      const res = await request(t.http)
        .post('/api/v1/subnames')
        .set('x-auth-token', key)
        .send({ parentName: 'ab\u00ad.eth', label: 'x' })
        .expect(400);
      expect(res.body.errors[0].field).toBe('parentName');
    });

    it('names whose normalised forms differ in length from their raw forms round-trip through export and import', async () => {
      const sent = [
        { parentName: 'oak.eth', label: 'so\u00adft', texts: [{ key: 'url', value: 'https://soft.example' }] },
        { parentName: `${'\u200b'.repeat(260)}oak.eth`, label: 'zero\u200bwidth' },
        { parentName: 'oak.eth', label: '\u3371\u338f\ufb01', metadata: [{ key: 'toString', value: 'kept' }] },
        { parentName: 'oak.eth', label: 'A'.repeat(255) },
        { parentName: 'abc\u00ad.eth', label: 'x' },
        { parentName: `${'\u3371'.repeat(40)}.oak.eth`, label: 'long' },
      ];
      const written = await batch(key, { items: sent }).expect(200);
      expect(written.body.items.map((i: { fullName: string }) => i.fullName)).toEqual([
        'soft.oak.eth',
        'zerowidth.oak.eth',
        'hpakgfi.oak.eth',
        `${'a'.repeat(255)}.oak.eth`,
        'x.abc.eth',
        `long.${'hpa'.repeat(40)}.oak.eth`,
      ]);
      const before = `${(await exportOf('oak.eth').expect(200)).body}${(await exportOf('abc.eth').expect(200)).body}`;
      const lines = before.trim().split('\n');
      const stored = await t.dataSource.query('SELECT full_name, texts, metadata FROM subnames ORDER BY full_name');
      await t.dataSource.query('DELETE FROM subnames');
      const imported = await batch(key, { items: lines.map((l) => JSON.parse(l) as unknown) }).expect(200);
      expect(imported.body.created).toBe(lines.length);
      expect(await t.dataSource.query('SELECT full_name, texts, metadata FROM subnames ORDER BY full_name')).toEqual(
        stored,
      );
      const after = `${(await exportOf('oak.eth').expect(200)).body}${(await exportOf('abc.eth').expect(200)).body}`;
      expect(after).toBe(before);
    });
  });
});

describe('saturation: a full pool is busy, not unavailable', () => {
  let t: TestApp;

  beforeAll(async () => {
    // One connection, which the test holds on purpose. The default wait for it (3 s): the outcome does not depend
    // on the wait's length, and under CPU load a 100 ms one could not even open the connection at start-up.
    t = await createTestApp({ DATABASE_POOL_SIZE: '1' });
  });
  afterAll(() => t.close());

  it('writes waiting on a held pool get 503 SERVICE_BUSY with Retry-After, write nothing; readiness stays up', async () => {
    const { key } = await t.issueKey(['oak.eth'], 5000);
    const create = (label: string) =>
      request(t.http).post('/api/v1/subnames').set('x-auth-token', key).send({ parentName: 'oak.eth', label });
    // The pool's one connection, held: the database answers it, then nothing is asked of it while the requests wait,
    // so their waits meet a full pool, not a silent database, however slowly a loaded machine runs.
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    expect(await holder.query('SELECT 1 AS up')).toEqual([{ up: 1 }]);
    let waited: request.Response[];
    let ready: request.Response;
    try {
      [waited, ready] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, (_, i) => create(`held${i}`))),
        request(t.http).get('/health/ready'),
      ]);
    } finally {
      await holder.release();
    }
    for (const a of waited) {
      expect(a.status).toBe(503);
      expect(a.body).toMatchObject({ code: 'SERVICE_BUSY', status: 503, title: 'Service busy' });
      expect(a.headers['retry-after']).toBe('2');
    }
    expect(ready.status).toBe(200);
    expect(ready.body.details.database).toMatchObject({ status: 'up', busy: true });
    // Released, the pool serves again; every 201 is a row, every 503 none.
    const freed = await Promise.all(Array.from({ length: 5 }, (_, i) => create(`free${i}`)));
    expect(freed.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const stored = await t.dataSource.query('SELECT "label" FROM subnames ORDER BY "label"');
    expect(stored.map((r: { label: string }) => r.label)).toEqual(['free0', 'free1', 'free2', 'free3', 'free4']);
  });
});

describe('keyed batch: both budgets are charged from the headers, before the body is read', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_IP: '2', RATE_LIMIT_PER_KEY: '1' });
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Headers announcing a 2 MB batch body, and none of it: the status line of whatever answer comes. */
  function statusWithoutBody(token: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('error', reject);
      socket.on('data', (d: string) => {
        answer += d;
        if (answer.includes('\r\n')) {
          socket.destroy();
          resolve(answer.slice(0, answer.indexOf('\r\n')));
        }
      });
      socket.setTimeout(10_000, () => {
        socket.destroy();
        resolve('no answer');
      });
      socket.write(
        'POST /api/v1/subnames/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          `x-auth-token: ${token}\r\nContent-Length: ${2 * 1024 * 1024 - 1}\r\n\r\n`,
      );
    });
  }

  it('made-up keys spend the address budget and then get 429; a key past its own budget gets 429', async () => {
    const { key } = await t.issueKey(['oak.eth'], 10);
    // One valid batch, read and applied: the key's budget (1) is spent, the address's unit given back.
    await request(t.http)
      .post('/api/v1/subnames/batch')
      .set('x-auth-token', key)
      .send({ items: [{ parentName: 'oak.eth', label: 'one' }] })
      .expect(200);
    expect(await statusWithoutBody(key)).toBe('HTTP/1.1 429 Too Many Requests');
    // Made-up keys count against the address (2 in all): a 401 each until it is spent, then 429.
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await statusWithoutBody(`made-up-${i}`));
    expect(statuses.every((s) => s === 'HTTP/1.1 401 Unauthorized' || s === 'HTTP/1.1 429 Too Many Requests')).toBe(
      true,
    );
    expect(statuses[2]).toBe('HTTP/1.1 429 Too Many Requests');
  });
});
